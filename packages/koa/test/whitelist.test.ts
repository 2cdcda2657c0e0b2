import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { whitelist } from '@tessera/koa';

describe('whitelist', () => {
  test('a string pattern matches the exact path only', () => {
    const allow = whitelist([['/health', ['GET']]]);
    assert.equal(allow('/health', 'GET'), true);
    assert.equal(allow('/health-internal', 'GET'), false);
    assert.equal(allow('/health/', 'GET'), false);
    assert.equal(allow('/Health', 'GET'), false);
    assert.equal(allow('/healt', 'GET'), false);
    assert.equal(allow('/v1/health', 'GET'), false);
  });

  test('the query string is ignored', () => {
    const allow = whitelist([
      ['/health', ['GET']],
      [/^\/docs$/, ['GET']],
    ]);
    assert.equal(allow('/health?x=1', 'GET'), true);
    assert.equal(allow('/health?', 'GET'), true);
    assert.equal(allow('/docs?page=/admin', 'GET'), true);
    assert.equal(allow('/health-internal?/health', 'GET'), false);
  });

  test('matching is per verb, and GET does not imply HEAD', () => {
    const allow = whitelist([
      ['/health', ['GET']],
      ['/hooks', ['POST', 'OPTIONS']],
    ]);
    assert.equal(allow('/health', 'GET'), true);
    assert.equal(allow('/health', 'HEAD'), false);
    assert.equal(allow('/health', 'POST'), false);
    assert.equal(allow('/hooks', 'POST'), true);
    assert.equal(allow('/hooks', 'OPTIONS'), true);
    assert.equal(allow('/hooks', 'GET'), false);
  });

  test('verbs of several rules for one path add up', () => {
    const allow = whitelist([
      ['/health', ['GET']],
      ['/health', ['HEAD']],
    ]);
    assert.equal(allow('/health', 'GET'), true);
    assert.equal(allow('/health', 'HEAD'), true);
  });

  test('a RegExp is tested against the path', () => {
    const allow = whitelist([[/^\/public\/[a-z]+$/, ['GET', 'HEAD']]]);
    assert.equal(allow('/public/logo', 'GET'), true);
    assert.equal(allow('/public/logo', 'HEAD'), true);
    assert.equal(allow('/public/logo', 'DELETE'), false);
    assert.equal(allow('/public/', 'GET'), false);
    assert.equal(allow('/private/public/logo', 'GET'), false);
  });

  test('a RegExp with the g or y flag gives the same answer every time', () => {
    const global = /^\/status/g;
    const sticky = /\/ping/y;
    const allow = whitelist([
      [global, ['GET']],
      [sticky, ['GET']],
    ]);
    for (let i = 0; i < 5; i++) {
      assert.equal(allow('/status', 'GET'), true, `status, call ${i}`);
      assert.equal(allow('/ping', 'GET'), true, `ping, call ${i}`);
    }
    assert.equal(global.lastIndex, 0);
  });

  test('an empty rule list allows nothing', () => {
    const allow = whitelist([]);
    assert.equal(allow('/', 'GET'), false);
    assert.equal(allow('/health', 'OPTIONS'), false);
  });

  test('an unknown verb is a TypeError when the whitelist is built', () => {
    assert.throws(() => whitelist([['/health', ['FETCH' as 'GET']]]), TypeError);
    assert.throws(() => whitelist([['/health', ['get' as 'GET']]]), TypeError);
    assert.throws(() => whitelist([['/health', []]]), TypeError);
    assert.throws(() => whitelist([['/health', 'GET' as unknown as ['GET']]]), TypeError);
  });

  test('a pattern that is not a path or a RegExp is a TypeError when the whitelist is built', () => {
    assert.throws(() => whitelist([['health', ['GET']]]), TypeError);
    assert.throws(() => whitelist([[42 as unknown as string, ['GET']]]), TypeError);
    assert.throws(() => whitelist([['/health'] as unknown as [string, ['GET']]]), TypeError);
    assert.throws(() => whitelist('/health' as unknown as []), TypeError);
  });
});
