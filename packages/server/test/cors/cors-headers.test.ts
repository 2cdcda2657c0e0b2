import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import { ownerMemberStranger } from '../management/support/console.js';
import { FormBrowser } from '../sign-in/support/browser.js';
import { CALLBACK, makeClient, makeUser, PASSWORD, signIn } from '../sign-in/support/fixtures.js';
import { startServer, type TestServer } from '../support/server.js';

/** The default allowed origin of a client whose redirect URI is CALLBACK. */
const APP = new URL(CALLBACK).origin;
const EXPLICIT = 'https://spa.example.com';
const STRANGER = 'https://evil.example.com';

/** The CORS headers of an answer, absent ones left out. */
function cors(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name.startsWith('access-control-') || name === 'vary') out[name] = value;
  });
  return out;
}

/**
 * CORS as plain HTTP requests see it (DESIGN §14, http/cors.ts): discovery and JWKS for anyone,
 * the token, revocation and userinfo endpoints only for an allowed origin of the client the
 * request names, preflights for an allowed origin of some client of the org, never credentials,
 * and nothing on the management API.
 */
describe('CORS headers of the OAuth endpoints', () => {
  let server: TestServer;
  let issuer: string;
  let acme: Org;
  let owner: string;
  let spa: string;
  let explicit: string;
  let machine: { clientId: string; secret: string };

  before(async () => {
    server = await startServer({ webhooks: false });
    ({ acme, owner } = await ownerMemberStranger(server));
    issuer = server.issuer('acme');
    await makeUser(server.deps, acme, 'ada@acme.test');
    ({ clientId: spa } = await makeClient(server.deps, acme, { name: 'SPA' }));
    ({ clientId: explicit } = await makeClient(server.deps, acme, {
      name: 'Explicit',
      allowedOrigins: [EXPLICIT],
    }));
    const m = await makeClient(server.deps, acme, {
      name: 'Machine',
      kind: 'confidential',
      redirectUris: [],
      allowedOrigins: [EXPLICIT],
    });
    machine = { clientId: m.clientId, secret: m.secret ?? '' };
  });
  after(async () => {
    await server.close();
  });

  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(new URL(path, issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
  const preflight = (path: string, origin: string, method = 'POST', headers = 'content-type') =>
    fetch(new URL(path, issuer), {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
    });

  test('discovery (both documents) and the key set: Access-Control-Allow-Origin *, for any origin or none', async () => {
    for (const path of [
      '.well-known/openid-configuration',
      '.well-known/oauth-authorization-server',
      '.well-known/jwks.json',
    ]) {
      for (const headers of [{}, { origin: STRANGER }, { origin: APP }] as Record<string, string>[]) {
        const res = await fetch(new URL(path, issuer), { headers });
        assert.equal(res.status, 200, path);
        assert.deepEqual(
          cors(res.headers),
          { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'tessera-error-code' },
          path,
        );
      }
    }
    // The console issuer's too.
    const res = await fetch(`${server.base}/.well-known/openid-configuration`, {
      headers: { origin: STRANGER },
    });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  test('token endpoint: the origin of the named client’s redirect URIs is reflected, errors included', async () => {
    const form = { grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: spa };
    const res = await post('oauth/token', form, { origin: APP });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), {
      error: 'invalid_grant',
      error_description: 'the refresh token is invalid',
    });
    // The situation's code rides in a header the page may read (Access-Control-Expose-Headers).
    assert.equal(res.headers.get('tessera-error-code'), 'token.refresh.invalid');
    assert.deepEqual(cors(res.headers), {
      vary: 'Origin',
      'access-control-allow-origin': APP,
      'access-control-expose-headers': 'www-authenticate, dpop-nonce, tessera-error-code',
    });
    // Another origin, the same request: no Access-Control-Allow-Origin, so a page cannot read it.
    const other = await post('oauth/token', form, { origin: STRANGER });
    assert.equal(other.status, 400);
    assert.deepEqual(cors(other.headers), { vary: 'Origin' });
    // No Origin (a server, not a browser): the same answer, Vary only.
    const none = await post('oauth/token', form);
    assert.deepEqual(cors(none.headers), { vary: 'Origin' });
    // An unknown client, or none named, names no origins.
    for (const f of [
      { ...form, client_id: 'cli_unknown' },
      { grant_type: 'refresh_token', refresh_token: 'x' },
    ]) {
      assert.deepEqual(cors((await post('oauth/token', f, { origin: APP })).headers), { vary: 'Origin' });
    }
  });

  test('token endpoint: an explicit allowed_origins list replaces the default', async () => {
    const form = { grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: explicit };
    const allowed = await post('oauth/token', form, { origin: EXPLICIT });
    assert.equal(allowed.headers.get('access-control-allow-origin'), EXPLICIT);
    const redirectOrigin = await post('oauth/token', form, { origin: APP });
    assert.equal(redirectOrigin.headers.get('access-control-allow-origin'), null);
    // The same origin named for another client is not reflected: the rule is per client.
    const spaForm = { ...form, client_id: spa };
    assert.equal(
      (await post('oauth/token', spaForm, { origin: EXPLICIT })).headers.get('access-control-allow-origin'),
      null,
    );
  });

  test('token endpoint: a machine token for an allowed origin; Basic credentials name the client too', async () => {
    const ok = await post(
      'oauth/token',
      { grant_type: 'client_credentials', client_id: machine.clientId, client_secret: machine.secret },
      { origin: EXPLICIT },
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-origin'), EXPLICIT);
    assert.equal(ok.headers.get('access-control-allow-credentials'), null);
    const basic = Buffer.from(
      `${encodeURIComponent(machine.clientId)}:${encodeURIComponent(machine.secret)}`,
    ).toString('base64');
    for (const [origin, reflected] of [
      [EXPLICIT, EXPLICIT],
      [STRANGER, null],
    ] as const) {
      const res = await post(
        'oauth/token',
        { grant_type: 'client_credentials' },
        { origin, authorization: `Basic ${basic}` },
      );
      assert.equal(res.headers.get('access-control-allow-origin'), reflected, origin);
      assert.equal(res.headers.get('vary'), 'Origin');
    }
  });

  test('preflights: 204 with methods, headers and max-age for an origin of some client of the org; nothing else otherwise', async () => {
    for (const [path, methods] of [
      ['oauth/token', 'POST'],
      ['oauth/revoke', 'POST'],
      ['oauth/userinfo', 'GET, POST'],
    ] as const) {
      for (const origin of [APP, EXPLICIT]) {
        const res = await preflight(path, origin, 'POST', 'authorization');
        assert.equal(res.status, 204, path);
        assert.equal(await res.text(), '');
        assert.deepEqual(cors(res.headers), {
          vary: 'Origin',
          'access-control-allow-origin': origin,
          'access-control-allow-methods': methods,
          'access-control-allow-headers': 'authorization, content-type, dpop',
          'access-control-max-age': '600',
        });
      }
      const refused = await preflight(path, STRANGER);
      assert.equal(refused.status, 204);
      assert.deepEqual(cors(refused.headers), { vary: 'Origin' });
      // Origins are another org's business on its own host.
      const beta = await fetch(new URL(path, server.issuer('beta')), {
        method: 'OPTIONS',
        headers: { origin: APP, 'access-control-request-method': 'POST' },
      });
      assert.deepEqual([beta.status, cors(beta.headers)], [204, { vary: 'Origin' }]);
    }
    // An unknown org host is 404, as for every other method.
    const unknown = await fetch(new URL('oauth/token', server.issuer('nope')), {
      method: 'OPTIONS',
      headers: { origin: APP },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('access-control-allow-origin'), null);
  });

  test('revocation and userinfo reflect only the origins of the token’s client', async () => {
    const { accessToken, refreshToken } = await signIn(
      issuer,
      spa,
      'ada@acme.test',
      new FormBrowser(),
      PASSWORD,
      {
        scope: 'openid',
      },
    );
    const userinfo = (origin: string, token = accessToken) =>
      fetch(new URL('oauth/userinfo', issuer), { headers: { origin, authorization: `Bearer ${token}` } });
    const mine = await userinfo(APP);
    assert.equal(mine.status, 200);
    assert.deepEqual(cors(mine.headers), {
      vary: 'Origin',
      'access-control-allow-origin': APP,
      'access-control-expose-headers': 'www-authenticate, dpop-nonce, tessera-error-code',
    });
    const theirs = await userinfo(EXPLICIT);
    assert.equal(theirs.status, 200);
    assert.deepEqual(cors(theirs.headers), { vary: 'Origin' });
    // The token in a form body (RFC 6750 §2.2) names its client the same way.
    const inBody = (origin: string) =>
      fetch(new URL('oauth/userinfo', issuer), {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ access_token: accessToken }),
      });
    const mineInBody = await inBody(APP);
    assert.equal(mineInBody.status, 200);
    assert.deepEqual(cors(mineInBody.headers), cors(mine.headers));
    assert.deepEqual(cors((await inBody(EXPLICIT)).headers), { vary: 'Origin' });
    const garbage = await userinfo(APP, 'not.a.token');
    assert.equal(garbage.status, 401);
    assert.deepEqual(cors(garbage.headers), { vary: 'Origin' });

    const refused = await post('oauth/revoke', { token: refreshToken, client_id: spa }, { origin: STRANGER });
    assert.equal(refused.status, 200);
    assert.deepEqual(cors(refused.headers), { vary: 'Origin' });
    const revoked = await post('oauth/revoke', { token: refreshToken, client_id: spa }, { origin: APP });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.headers.get('access-control-allow-origin'), APP);
    assert.equal(revoked.headers.get('access-control-allow-credentials'), null);
  });

  test('the management API and the hosted pages answer no CORS, whatever the origin', async () => {
    for (const origin of [APP, EXPLICIT, server.base]) {
      const res = await fetch(`${server.base}/organizations/acme/clients`, {
        headers: { origin, authorization: `Bearer ${owner}` },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(cors(res.headers), {}, origin);
      const pre = await fetch(`${server.base}/organizations/acme/clients`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      assert.equal(pre.headers.get('access-control-allow-origin'), null);
      const login = await fetch(new URL('login', issuer), { headers: { origin } });
      assert.equal(login.headers.get('access-control-allow-origin'), null);
    }
  });
});
