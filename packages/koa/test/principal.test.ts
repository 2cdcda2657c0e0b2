import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { authenticate, principalOf, type Verified, whitelist } from '@tessera/koa';
import Koa from 'koa';
import { bearer, type RunningApp, serve } from './support/app.js';

const alice: Verified = Object.freeze({
  kind: 'user',
  userId: 'usr_alice',
  tenantId: 'tnt_acme',
  claims: Object.freeze({
    typ: 'user',
    iss: 'https://acme.example.com/',
    sub: 'usr_alice',
    aud: 'cli_web',
    exp: 1,
  }),
});

describe('principalOf', () => {
  let app: RunningApp;
  const outcomes: unknown[] = [];

  before(async () => {
    const koa = new Koa();
    // A middleware in front of authenticate that tries to pass itself off as a verified principal.
    koa.use(async (ctx, next) => {
      if (ctx.get('x-fake') === '1') ctx.state.tessera = { ...alice, userId: 'usr_mallory' };
      await next();
    });
    koa.use(
      authenticate(
        { verify: async (token) => (token === 'good' ? alice : null), realm: 'api' },
        whitelist([['/open', ['GET']]]),
      ),
    );
    koa.use((ctx) => {
      try {
        outcomes.push(principalOf(ctx));
      } catch (err) {
        outcomes.push(err);
      }
      ctx.body = 'done';
    });
    app = await serve(koa);
  });
  after(() => app.close());

  const outcomeOf = async (path: string, init?: RequestInit) => {
    outcomes.length = 0;
    assert.equal((await app.request(path, init)).status, 200);
    assert.equal(outcomes.length, 1);
    return outcomes[0];
  };

  test('returns what authenticate verified for the request', async () => {
    assert.equal(await outcomeOf('/private', bearer('good')), alice);
  });

  test('throws on a whitelisted route', async () => {
    const outcome = await outcomeOf('/open');
    assert.ok(outcome instanceof Error);
    assert.match(outcome.message, /authenticate\(\) did not run for it or the route is whitelisted/);
  });

  test('cannot be fooled by ctx.state.tessera set by someone else', async () => {
    assert.ok((await outcomeOf('/open', { headers: { 'x-fake': '1' } })) instanceof Error);
    assert.equal(
      await outcomeOf('/private', { headers: { 'x-fake': '1', authorization: 'Bearer good' } }),
      alice,
    );
  });

  test('throws where the middleware did not run at all', async () => {
    const koa = new Koa();
    let outcome: unknown;
    koa.use((ctx) => {
      ctx.state.tessera = alice;
      try {
        outcome = principalOf(ctx);
      } catch (err) {
        outcome = err;
      }
      ctx.body = 'done';
    });
    const bare = await serve(koa);
    try {
      await bare.request('/');
    } finally {
      await bare.close();
    }
    assert.ok(outcome instanceof Error);
    assert.throws(() => principalOf({ state: {} }), Error);
  });
});
