import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compilePatterns, PatternMatcher } from '../../src/domain/webhooks/pattern-matcher.js';
import { matchesRoutingKey } from '../../src/domain/webhooks/routing-keys.js';
import { tenThousandPatterns, VERBS } from './support/patterns.js';

const ENTITIES = ['organization', 'membership', 'tenant', 'user', 'client', 'webhook'];

describe('routing-key matcher', () => {
  it('matches literal keys, * as one part and # as every key', () => {
    const m = compilePatterns([
      { id: 'whk_literal', events: ['tenant.created'] },
      { id: 'whk_tenant', events: ['tenant.*'] },
      { id: 'whk_deleted', events: ['*.deleted'] },
      { id: 'whk_all', events: ['#'] },
      { id: 'whk_two', events: ['user.login', 'user.*'] },
    ]);
    const sorted = (key: string) => [...m.match(key)].sort();
    assert.deepEqual(sorted('tenant.created'), ['whk_all', 'whk_literal', 'whk_tenant']);
    assert.deepEqual(sorted('tenant.deleted'), ['whk_all', 'whk_deleted', 'whk_tenant']);
    assert.deepEqual(sorted('user.login'), ['whk_all', 'whk_two'], 'a webhook matching twice is listed once');
    assert.deepEqual(sorted('client.updated'), ['whk_all']);
    assert.deepEqual(sorted('tenant'), ['whk_all'], '* needs a part; # does not');
    assert.deepEqual(sorted('tenant.created.extra'), ['whk_all']);
  });

  it('agrees with the one-pattern rule of domain/routing-keys.ts on every key and pattern', () => {
    const patterns = ['#', ...ENTITIES.flatMap((e) => [`${e}.*`, ...VERBS.map((v) => `${e}.${v}`)])];
    patterns.push(...VERBS.map((v) => `*.${v}`), '*.*');
    const m = compilePatterns(patterns.map((p) => ({ id: p, events: [p] })));
    for (const e of [...ENTITIES, 'other']) {
      for (const v of VERBS) {
        const key = `${e}.${v}`;
        const expected = patterns.filter((p) => matchesRoutingKey(p, key)).sort();
        assert.deepEqual([...m.match(key)].sort(), expected, key);
      }
    }
  });

  it('ignores malformed patterns', () => {
    const m = new PatternMatcher();
    m.add('tenant..created', 'whk_bad');
    m.add('', 'whk_empty');
    assert.equal(m.size, 0);
    assert.deepEqual(m.match('tenant.created'), []);
  });

  it('matches one event against 10,000 patterns as the one-pattern rule does (speed: bench/webhooks)', () => {
    const subscribers = tenThousandPatterns();
    const m = compilePatterns(subscribers);
    assert.equal(m.size, 10_000);
    const keys = Array.from({ length: 200 }, (_, i) => `entity${(i * 7) % 500}.${VERBS[i % 4]}`);
    keys.push('other.created', 'entity1.login');
    for (const key of keys) {
      const expected = subscribers
        .filter((s) => s.events.some((p) => matchesRoutingKey(p, key)))
        .map((s) => s.id)
        .sort();
      assert.deepEqual([...m.match(key)].sort(), expected, key);
    }
  });
});
