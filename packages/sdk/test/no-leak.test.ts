import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inspect } from 'node:util';
import { createSdk, makeVerifier, type Sdk } from '@tessera/sdk';
import { closedPort, type FakeApi, json, startFakeApi } from './support/fake-api.js';
import { CLIENT_ID } from './support/sdk.js';

// Distinct, recognisable values for everything secret a caller hands over.
const ACCESS = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c3JfbGVha3kifQ.LEAKY-ACCESS-SIGNATURE';
const REFRESH = 'rt_LEAKY_REFRESH_TOKEN_0123456789';
const CODE = 'ac_LEAKY_AUTHORIZATION_CODE_0123';
const VERIFIER = 'LEAKY_CODE_VERIFIER_0123456789_abcdefghijklmnop';
const SECRET = 'tcs_LEAKY_CLIENT_SECRET_0123456789';
const ALL = [ACCESS, REFRESH, CODE, VERIFIER, SECRET];

/** Every way an error reaches a log, a screen or an error tracker. */
function renderings(err: unknown): string[] {
  const e = err as Error & { cause?: unknown };
  return [
    e.message,
    String(e),
    JSON.stringify(e),
    JSON.stringify(Object.entries(e)),
    String(e.stack),
    inspect(e, { depth: 10, showHidden: true }),
    String(e.cause),
    inspect(e.cause, { depth: 10, showHidden: true }),
  ];
}

function assertNoSecret(err: unknown, label: string) {
  for (const text of renderings(err)) {
    for (const secret of ALL)
      assert.ok(!text.includes(secret), `${label}: the error shows a secret: ${text}`);
  }
}

/** Each member, called with the secrets; together they cover every value a call can be given. */
function calls(sdk: Sdk): [string, () => Promise<unknown>][] {
  return [
    [
      'token.authorizationCode',
      () =>
        sdk.token.authorizationCode({
          code: CODE,
          redirectUri: 'http://127.0.0.1/cb',
          codeVerifier: VERIFIER,
          clientSecret: SECRET,
        }),
    ],
    ['token.refresh', () => sdk.token.refresh({ refreshToken: REFRESH, clientSecret: SECRET })],
    [
      'token.switchTenant',
      () => sdk.token.switchTenant({ accessToken: ACCESS, tenantId: 'tnt_1', clientSecret: SECRET }),
    ],
    [
      'token.clientCredentials',
      () => sdk.token.clientCredentials({ clientId: 'cli_m', clientSecret: SECRET }),
    ],
    ['revoke', () => sdk.revoke({ token: REFRESH, clientSecret: SECRET })],
    ['users.me', () => sdk.users.me(ACCESS)],
    ['tenants.list', () => sdk.tenants.list(ACCESS)],
    ['tenants.create', () => sdk.tenants.create(ACCESS, 'A')],
    ['tenants.update', () => sdk.tenants.update(ACCESS, 'tnt_1', { name: 'B' })],
    ['tenants.delete', () => sdk.tenants.delete(ACCESS, 'tnt_1')],
    ['organizations.get', () => sdk.organizations.get(ACCESS, 'acme')],
    ['profile.session', () => sdk.profile.session(ACCESS)],
    ['verify', () => sdk.verify(ACCESS)],
  ];
}

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  return assert.fail('expected a rejection');
}

describe('no thrown error carries a token, code or secret it was called with', () => {
  let api: FakeApi;
  /** What the server echoes back: the whole request, in every field the SDK reads. */
  let echo: (text: string) => { status: number; body: object };
  before(async () => {
    api = await startFakeApi((r) => {
      const everything = `${r.url} ${r.headers.authorization ?? ''} ${r.body}`;
      return json(echo(everything).status, echo(everything).body);
    });
  });
  after(() => api.close());

  const sdkOf = () => createSdk({ api: api.base, issuer: `${api.base}/`, clientId: CLIENT_ID });

  for (const status of [400, 401, 403, 429, 500]) {
    it(`when a ${status} body echoes the request in error, error_detail and error_description`, async () => {
      echo = (text) => ({
        status,
        body: { error: `bad ${text}`, error_detail: `you sent ${text}`, error_description: text },
      });
      for (const [label, call] of calls(sdkOf())) {
        const err = await rejection(call);
        assertNoSecret(err, label);
      }
    });
  }

  it('the check itself catches a secret in a field, a cause or a stack', () => {
    assert.throws(() => assertNoSecret(new Error(`bad ${SECRET}`), 'control'));
    assert.throws(() => assertNoSecret(new Error('x', { cause: new Error(REFRESH) }), 'control'));
    assert.throws(() => assertNoSecret(Object.assign(new Error('x'), { sent: { code: CODE } }), 'control'));
  });

  it('keeps the useful rest of an echoing detail, with the secret cut out', async () => {
    echo = (text) => ({ status: 400, body: { error: 'invalid_grant', error_detail: `refused: ${text}` } });
    const err = (await rejection(() => sdkOf().token.refresh({ refreshToken: REFRESH }))) as {
      detail: string;
    };
    assert.match(err.detail, /^refused: \/oauth\/token .*refresh_token=\[redacted\]&client_id=cli_web$/);
  });

  it('when a 2xx body is malformed and echoes the request', async () => {
    echo = (text) => ({ status: 200, body: { echoed: text } });
    for (const [label, call] of calls(sdkOf())) {
      if (label === 'revoke' || label === 'tenants.delete') continue; // any 2xx is success for these
      assertNoSecret(await rejection(call), label);
    }
  });

  it('when the connection fails', async () => {
    const port = await closedPort();
    const sdk = createSdk({
      api: `http://127.0.0.1:${port}`,
      issuer: 'http://127.0.0.1/',
      clientId: CLIENT_ID,
    });
    for (const [label, call] of calls(sdk)) assertNoSecret(await rejection(call), label);
  });

  it('when the verifier refuses the token or cannot get keys', async () => {
    const port = await closedPort();
    const verify = makeVerifier({
      issuer: 'http://127.0.0.1/',
      clientId: CLIENT_ID,
      jwksUri: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    });
    for (const token of [ACCESS, `${ACCESS}.extra`, SECRET])
      assertNoSecret(await rejection(() => verify(token)), 'verify');
  });

  it('when the caller misuses a call (TypeError)', async () => {
    const sdk = sdkOf();
    const misuses: (() => Promise<unknown>)[] = [
      () =>
        sdk.token.authorizationCode({
          code: CODE,
          redirectUri: '',
          codeVerifier: VERIFIER,
          clientSecret: SECRET,
        }),
      () => sdk.token.refresh({ refreshToken: REFRESH, clientSecret: 42 as unknown as string }),
      () => sdk.token.clientCredentials({ clientId: '', clientSecret: SECRET }),
      () => sdk.tenants.update(ACCESS, '', { name: 'x' }),
    ];
    for (const misuse of misuses) {
      const err = await rejection(misuse);
      assert.ok(err instanceof TypeError);
      assertNoSecret(err, 'misuse');
    }
  });
});
