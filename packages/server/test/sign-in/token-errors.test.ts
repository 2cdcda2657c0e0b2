import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { clock } from '../../src/domain/clock.js';
import { createApiResource } from '../../src/domain/resources/api-resources.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  tokenRequest,
} from './support/fixtures.js';

/** POST /oauth/token for the authorization_code and refresh_token grants: RFC 6749 §5.2 errors. */
describe('token endpoint errors of the user grants', () => {
  let server: TestServer;
  let issuer: string;
  let org: Org;
  let publicId: string;
  let otherPublicId: string;
  const browser = new FormBrowser();

  before(async () => {
    server = await startServer();
    issuer = server.issuer('acme');
    org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    ({ clientId: publicId } = await makeClient(server.deps, org));
    ({ clientId: otherPublicId } = await makeClient(server.deps, org, { name: 'Other app' }));
  });
  after(() => server.close());
  afterEach(() => {
    clock.now = () => Date.now();
  });

  /** A fresh code for `clientId` (the browser stays signed in between calls). */
  async function code(clientId: string, extra: Record<string, string | null> = {}) {
    const a = authorizeUrl(issuer, clientId, extra);
    const callback = await signInThroughPages(browser, a.url, { email: 'ada@acme.test', password: PASSWORD });
    return { code: new URL(callback).searchParams.get('code') as string, verifier: a.verifier };
  }

  function exchange(
    clientId: string,
    c: { code: string; verifier: string },
    extra: Record<string, string> = {},
  ) {
    return tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code: c.code,
      redirect_uri: CALLBACK,
      code_verifier: c.verifier,
      client_id: clientId,
      ...extra,
    });
  }

  test('invalid_request: a missing code or client_id, a repeated parameter; an unknown one is ignored', async () => {
    let r = await tokenRequest(issuer, { grant_type: 'authorization_code', client_id: publicId });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_request']);
    r = await tokenRequest(issuer, { grant_type: 'authorization_code', code: 'x' });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_request']);
    // RFC 6749 §3.2: a parameter the grant does not use is ignored.
    r = await exchange(publicId, await code(publicId), { scope: 'profile', foo: 'bar' });
    assert.equal(r.status, 200);
    const response = await fetch(new URL('oauth/token', issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&client_id=${publicId}&refresh_token=a&refresh_token=b`,
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { error: string }).error, 'invalid_request');
  });

  test('invalid_client: unknown client, wrong secret, a public client sending a secret', async () => {
    const { clientId, secret } = await makeClient(server.deps, org, { kind: 'confidential' });
    const c = await code(clientId);
    for (const fields of [
      { client_id: 'cli_unknown' } as Record<string, string>,
      { client_id: clientId, client_secret: 'wrong' },
      { client_id: clientId },
    ]) {
      const r = await exchange(clientId, c, fields);
      assert.deepEqual([r.status, r.body.error], [401, 'invalid_client']);
    }
    const r = await exchange(publicId, await code(publicId), { client_secret: 'anything' });
    assert.deepEqual([r.status, r.body.error], [401, 'invalid_client']);
    // The code was never consumed by those attempts: the right secret still redeems it.
    const ok = await exchange(clientId, c, { client_secret: secret as string });
    assert.equal(ok.status, 200);
  });

  test('invalid_grant: unknown code, wrong redirect_uri, missing or wrong code_verifier', async () => {
    let r = await exchange(publicId, { code: 'tac_unknown', verifier: 'x'.repeat(43) });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
    r = await exchange(publicId, await code(publicId), { redirect_uri: 'http://127.0.0.1:8765/other' });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
    const c = await code(publicId);
    r = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code: c.code,
      redirect_uri: CALLBACK,
      client_id: publicId,
    });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
    r = await exchange(publicId, c);
    assert.equal(r.status, 400, 'a failed exchange burns the code');
    r = await exchange(publicId, { ...(await code(publicId)), verifier: 'y'.repeat(43) });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
  });

  test('invalid_grant: a code_verifier for a request that had no code_challenge (PKCE downgrade)', async () => {
    const { clientId, secret } = await makeClient(server.deps, org, { kind: 'confidential' });
    const c = await code(clientId, { code_challenge: null, code_challenge_method: null });
    const r = await exchange(clientId, c, { client_secret: secret as string });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
    const c2 = await code(clientId, { code_challenge: null, code_challenge_method: null });
    const ok = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code: c2.code,
      redirect_uri: CALLBACK,
      client_id: clientId,
      client_secret: secret as string,
    });
    assert.equal(ok.status, 200, 'confidential clients may go without PKCE');
  });

  test("invalid_grant: another client's code, which stays usable by its own client", async () => {
    const c = await code(publicId);
    const r = await exchange(otherPublicId, c);
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
    assert.equal((await exchange(publicId, c)).status, 200);
  });

  test('invalid_grant: a code older than 60 seconds', async () => {
    const c = await code(publicId);
    const start = Date.now();
    clock.now = () => start + 61_000;
    const r = await exchange(publicId, c);
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
  });

  test('invalid_grant: a code used twice, and the session it opened is revoked', async () => {
    const c = await code(publicId);
    const first = await exchange(publicId, c);
    assert.equal(first.status, 200);
    const again = await exchange(publicId, c);
    assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
    assert.equal((await api(issuer, 'GET', 'users/me', first.body.access_token as string)).status, 401);
    const refresh = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token as string,
      client_id: publicId,
    });
    assert.deepEqual([refresh.status, refresh.body.error], [400, 'invalid_grant']);
  });

  test('an omitted redirect_uri (one registered) may be omitted at the token endpoint too', async () => {
    const c = await code(publicId, { redirect_uri: null });
    const r = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code: c.code,
      code_verifier: c.verifier,
      client_id: publicId,
    });
    assert.equal(r.status, 200);
  });

  test('unauthorized_client: no refresh token for a client without the refresh_token grant', async () => {
    const { clientId, secret } = await makeClient(server.deps, org, {
      kind: 'confidential',
      grantTypes: ['authorization_code'],
    });
    const c = await code(clientId);
    const r = await exchange(clientId, c, { client_secret: secret as string });
    assert.equal(r.status, 200);
    assert.deepEqual(Object.keys(r.body).sort(), ['access_token', 'expires_in', 'token_type']);
    const refresh = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: 'trt_anything',
      client_id: clientId,
      client_secret: secret as string,
    });
    assert.deepEqual([refresh.status, refresh.body.error], [400, 'unauthorized_client']);
  });

  test('invalid_grant for refresh: unknown token, and a token of another client (left intact)', async () => {
    const first = await exchange(publicId, await code(publicId));
    const token = first.body.refresh_token as string;
    let r = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: 'trt_unknown',
      client_id: publicId,
    });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
    r = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: otherPublicId,
    });
    assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
    r = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: publicId,
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.token_type, 'Bearer');
  });

  test('discovery lists the new endpoints and grants; an unknown grant is unsupported_grant_type', async () => {
    const doc = (await (await fetch(new URL('.well-known/openid-configuration', issuer))).json()) as Record<
      string,
      unknown
    >;
    assert.equal(doc.authorization_endpoint, `${issuer}oauth/authorize`);
    assert.equal(doc.revocation_endpoint, `${issuer}oauth/revoke`);
    assert.deepEqual(doc.revocation_endpoint_auth_methods_supported, [
      'client_secret_basic',
      'client_secret_post',
      'private_key_jwt',
      'none',
    ]);
    assert.deepEqual(doc.grant_types_supported, [
      'authorization_code',
      'refresh_token',
      'client_credentials',
      'urn:service:params:oauth:grant-type:switch-tenant',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      'urn:ietf:params:oauth:grant-type:device_code',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ]);
    const r = await tokenRequest(issuer, { grant_type: 'password', client_id: publicId });
    assert.deepEqual([r.status, r.body.error], [400, 'unsupported_grant_type']);
    // An org issuer offers the identity scopes; the console issuer adds the management API's.
    assert.deepEqual(doc.scopes_supported, [
      'openid',
      'profile',
      'email',
      'address',
      'phone',
      'offline_access',
    ]);
    const consoleDoc = (await (await fetch(`${server.base}/.well-known/openid-configuration`)).json()) as {
      scopes_supported: string[];
    };
    assert.deepEqual(consoleDoc.scopes_supported, [
      'openid',
      'profile',
      'email',
      'address',
      'phone',
      'offline_access',
      'org:read',
      'events:read',
      'org:write',
      'users:impersonate',
    ]);
  });

  test('the resource parameter (RFC 8707) is accepted on code and refresh requests', async () => {
    const resource = 'https://api.example/mcp';
    // DESIGN §15: a resource must be registered with the org (test/resources/ covers the rest).
    await createApiResource(server.deps, org, { identifier: resource, name: 'API' }, SYSTEM);
    const c = await code(publicId, { resource });
    const r = await exchange(publicId, c, { resource });
    assert.equal(r.status, 200);
    const refreshed = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: r.body.refresh_token as string,
      client_id: publicId,
      resource,
    });
    assert.equal(refreshed.status, 200);
  });
});
