import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { authenticate, createVerifier, type Refusal } from '@tessera/koa';
import Koa from 'koa';
import { bearer, type RunningApp, serve } from './support/app.js';
import {
  CLIENT_ID,
  clientClaims,
  createTestKey,
  replacePart,
  signToken,
  startIssuer,
  type TestIssuer,
  userClaims,
} from './support/issuer.js';

const REALM = 'reasons';
const UNAUTHORIZED = '{"error":"unauthorized","error_detail":"we don\'t know who you are"}';

/**
 * `authenticate`'s `onRefused(reason, ctx)`: the application learns why a request was refused, the
 * caller does not. Every refusal below answers the same 401, byte for byte, as without the hook.
 */
describe('onRefused: the reason of a refusal, for the application only', () => {
  let idp: TestIssuer;
  let app: RunningApp;
  let plain: RunningApp;
  const seen: { reason: Refusal; path: string }[] = [];

  before(async () => {
    idp = await startIssuer();
    // The defaults: `accept` is ['user'], so a machine token with the right aud is refused.
    const verify = createVerifier({ issuer: idp.issuer, clientId: CLIENT_ID });
    const koa = new Koa();
    koa.use(
      authenticate({
        verify,
        realm: REALM,
        onRefused: (reason, ctx) => {
          seen.push({ reason, path: ctx.path });
          // What the hook sets is replaced: the response stays the spec's.
          ctx.status = 500;
          ctx.body = 'leaked';
        },
      }),
    );
    koa.use((ctx) => {
      ctx.body = { ok: true };
    });
    app = await serve(koa);
    const without = new Koa();
    without.use(authenticate({ verify, realm: REALM }));
    plain = await serve(without);
  });
  after(async () => {
    await app.close();
    await plain.close();
    await idp.close();
  });

  /** The refusal of `init` on the app with the hook, checked identical to the one without it. */
  async function refusedWith(init: RequestInit | undefined, path: string): Promise<Refusal> {
    seen.length = 0;
    const res = await app.request(path, init);
    const bare = await plain.request(path, init);
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), `Bearer realm="${REALM}"`);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(await res.text(), UNAUTHORIZED);
    assert.equal(bare.status, 401);
    assert.equal(await bare.text(), UNAUTHORIZED);
    assert.equal(seen.length, 1, 'the hook is called once per refusal');
    assert.equal(seen[0]?.path, path, 'the hook gets the request context');
    return seen[0]?.reason as Refusal;
  }

  test('a machine token with the right aud, under the default accept: token_type_not_accepted, saying so', async () => {
    const machine = await signToken(idp.key, clientClaims(idp.issuer, 'cli_billing'));
    const reason = await refusedWith(bearer(machine), '/invoices');
    assert.equal(reason.code, 'token_type_not_accepted');
    assert.match(reason.detail, /the default is \["user"\]/);
    assert.ok(!reason.detail.includes(machine), 'never the token');
  });

  test('each failure names its own reason', async () => {
    const forger = await createTestKey();
    const cases: [string, RequestInit | undefined][] = [
      ['no_token', undefined],
      ['no_token', bearer('abc', 'Basic')],
      ['malformed_token', bearer('not.a.jwt')],
      ['unknown_key', bearer(await signToken(idp.key, userClaims(idp.issuer), { kid: 'nope' }))],
      [
        'bad_signature',
        bearer(
          replacePart(
            await signToken(idp.key, userClaims(idp.issuer)),
            2,
            (await signToken(forger, userClaims(idp.issuer), { kid: idp.key.kid })).split('.')[2] as string,
          ),
        ),
      ],
      ['wrong_issuer', bearer(await signToken(idp.key, userClaims('https://other.example.com/')))],
      ['expired', bearer(await signToken(idp.key, userClaims(idp.issuer, { exp: 1000 })))],
      [
        'not_yet_valid',
        bearer(
          await signToken(idp.key, userClaims(idp.issuer, { nbf: Math.floor(Date.now() / 1000) + 3600 })),
        ),
      ],
      ['wrong_audience', bearer(await signToken(idp.key, userClaims(idp.issuer, { aud: 'cli_other' })))],
      ['malformed_claims', bearer(await signToken(idp.key, userClaims(idp.issuer, { tnt: 42 })))],
      ['malformed_claims', bearer(await signToken(idp.key, userClaims(idp.issuer, { typ: 'console' })))],
    ];
    const codes: string[] = [];
    for (const [, init] of cases) codes.push((await refusedWith(init, '/x')).code);
    assert.deepEqual(
      codes,
      cases.map(([code]) => code),
    );
  });

  test('a machine token of a client not trusted: untrusted_client', async () => {
    const verify = createVerifier({
      issuer: idp.issuer,
      clientId: CLIENT_ID,
      accept: ['user', 'client'],
      trustedClients: ['cli_billing'],
    });
    const reasons: Refusal[] = [];
    const koa = new Koa();
    koa.use(authenticate({ verify, realm: REALM, onRefused: (reason) => void reasons.push(reason) }));
    const running = await serve(koa);
    try {
      const stranger = await signToken(idp.key, clientClaims(idp.issuer, 'cli_stranger'));
      assert.equal((await running.request('/', bearer(stranger))).status, 401);
      const trusted = await signToken(idp.key, clientClaims(idp.issuer, 'cli_billing'));
      assert.equal((await running.request('/', bearer(trusted))).status, 404, 'accepted: no route answers');
      assert.deepEqual(
        reasons.map((r) => r.code),
        ['untrusted_client'],
      );
    } finally {
      await running.close();
    }
  });

  test("a hook that throws or rejects changes nothing; a verify of the app's own is verify_refused", async () => {
    const koa = new Koa();
    let calls = 0;
    koa.use(
      authenticate({
        verify: () => null,
        realm: REALM,
        onRefused: async () => {
          calls += 1;
          throw new Error('the hook failed');
        },
      }),
    );
    const running = await serve(koa);
    try {
      const res = await running.request('/', bearer('anything'));
      assert.equal(res.status, 401);
      assert.equal(await res.text(), UNAUTHORIZED);
      assert.equal(calls, 1);
    } finally {
      await running.close();
    }
    const reasons: Refusal[] = [];
    const again = new Koa();
    again.use(
      authenticate({ verify: () => null, realm: REALM, onRefused: (reason) => void reasons.push(reason) }),
    );
    const second = await serve(again);
    try {
      assert.equal((await second.request('/', bearer('anything'))).status, 401);
      assert.deepEqual(
        reasons.map((r) => r.code),
        ['verify_refused'],
      );
    } finally {
      await second.close();
    }
  });

  test('onRefused must be a function', () => {
    assert.throws(
      () =>
        authenticate({
          verify: () => null,
          realm: REALM,
          onRefused: 'log' as unknown as () => void,
        }),
      { name: 'TypeError', message: 'authenticate: "onRefused" must be a function' },
    );
  });
});
