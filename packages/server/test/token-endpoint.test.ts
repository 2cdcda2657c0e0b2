import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { createClient } from '../src/domain/directory/clients.js';
import { SYSTEM } from '../src/domain/types.js';
import { orgWithMachineClient } from './support/fixtures.js';
import { startServer, type TestServer } from './support/server.js';

describe('POST /oauth/token with client_credentials', () => {
  let server: TestServer;
  let acme: Awaited<ReturnType<typeof orgWithMachineClient>>;
  let publicClientId: string;
  const logs: string[] = [];
  const responses: string[] = [];

  before(async () => {
    server = await startServer({ logs });
    acme = await orgWithMachineClient(server.deps, 'acme');
    const { client } = await createClient(
      server.deps,
      acme.org,
      { name: 'SPA', kind: 'public', redirectUris: ['http://localhost:3000/cb'] },
      SYSTEM,
    );
    publicClientId = client.id;
  });
  after(() => server.close());

  async function token(body: string | URLSearchParams | Record<string, string>, init: RequestInit = {}) {
    const form =
      typeof body === 'string' || body instanceof URLSearchParams ? body : new URLSearchParams(body);
    const res = await fetch(`${server.issuer('acme')}oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
      ...init,
    });
    const text = await res.text();
    responses.push(text);
    return { status: res.status, headers: res.headers, body: JSON.parse(text) as Record<string, unknown> };
  }

  const good = () => ({
    grant_type: 'client_credentials',
    client_id: acme.clientId,
    client_secret: acme.clientSecret,
  });

  test('issues a machine token with exactly the spec claims', async () => {
    const res = await token(good());
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'token_type']);
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 900);
    const jwt = res.body.access_token as string;
    const header = decodeProtectedHeader(jwt);
    assert.deepEqual(Object.keys(header).sort(), ['alg', 'kid', 'typ']);
    assert.equal(header.alg, 'RS256');
    assert.equal(header.typ, 'at+jwt');
    const claims = decodeJwt(jwt);
    // The spec's claims, plus RFC 9068's client_id (DESIGN §14).
    assert.deepEqual(Object.keys(claims).sort(), [
      'aud',
      'client_id',
      'exp',
      'iat',
      'iss',
      'jti',
      'sub',
      'typ',
    ]);
    assert.equal(claims.client_id, acme.clientId);
    assert.equal(claims.typ, 'client');
    assert.equal(claims.iss, server.issuer('acme'));
    assert.equal(claims.sub, acme.clientId);
    assert.equal(claims.aud, acme.clientId);
    assert.equal((claims.exp as number) - (claims.iat as number), 900);
    const again = decodeJwt((await token(good())).body.access_token as string);
    assert.notEqual(again.jti, claims.jti);
  });

  const invalidClient = { error: 'invalid_client', error_description: 'client authentication failed' };

  test('invalid_client (401): the same answer for an unknown client and for a wrong secret', async () => {
    const unknown = await token({ ...good(), client_id: 'cli_doesnotexist0000000' });
    const wrong = await token({ ...good(), client_secret: `${acme.clientSecret.slice(0, -1)}x` });
    const missing = await token({ grant_type: 'client_credentials', client_id: acme.clientId });
    for (const res of [unknown, wrong, missing]) {
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, invalidClient);
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
  });

  test('a client of another org is unknown here', async () => {
    const globex = await orgWithMachineClient(server.deps, 'globex');
    const res = await token({ ...good(), client_id: globex.clientId, client_secret: globex.clientSecret });
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, invalidClient);
  });

  test('unsupported_grant_type', async () => {
    const res = await token({ ...good(), grant_type: 'password' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: 'unsupported_grant_type',
      error_description: 'this grant type is not supported',
    });
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  test('unauthorized_client: a public client may not use client_credentials', async () => {
    const res = await token({ grant_type: 'client_credentials', client_id: publicClientId });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, {
      error: 'unauthorized_client',
      error_description: 'this client may not use the client_credentials grant',
    });
  });

  test('invalid_request: missing and repeated parameters, and non-form bodies', async () => {
    const cases: [string | URLSearchParams, string][] = [
      [new URLSearchParams({ client_id: acme.clientId }), 'grant_type is required'],
      [new URLSearchParams({ grant_type: 'client_credentials' }), 'client_id is required'],
      [
        `${new URLSearchParams(good())}&client_id=${acme.clientId}`,
        'parameter given more than once: client_id',
      ],
      [
        `${new URLSearchParams(good())}&grant_type=client_credentials`,
        'parameter given more than once: grant_type',
      ],
      [`${new URLSearchParams(good())}&foo=1&foo=2`, 'parameter given more than once: foo'],
    ];
    for (const [body, description] of cases) {
      const res = await token(body);
      assert.equal(res.status, 400, description);
      assert.deepEqual(res.body, { error: 'invalid_request', error_description: description });
      assert.equal(res.headers.get('cache-control'), 'no-store');
    }
    const json = await token(JSON.stringify(good()), { headers: { 'content-type': 'application/json' } });
    assert.equal(json.status, 400);
    assert.deepEqual(json.body, {
      error: 'invalid_request',
      error_description: 'the body must be application/x-www-form-urlencoded',
    });
  });

  test('unknown parameters and empty values are ignored (RFC 6749 §3.2)', async () => {
    const res = await token(`${new URLSearchParams(good())}&foo=bar&nonce=&client_assertion=`);
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.access_token, 'string');
  });

  test('an unknown org host is 404', async () => {
    const res = await fetch(`${server.issuer('nope')}oauth/token`, {
      method: 'POST',
      body: new URLSearchParams(good()),
    });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: 'not_found', error_detail: 'no organization at this host' });
  });

  test('no response and no log line contains a secret', () => {
    assert.ok(logs.length > 10, 'requests were logged');
    const everything = `${logs.join('\n')}\n${responses.filter((r) => !r.includes('access_token')).join('\n')}`;
    assert.equal(everything.includes(acme.clientSecret), false);
    assert.equal(everything.includes(acme.clientSecret.slice(4, 20)), false);
    assert.doesNotMatch(logs.join('\n'), /eyJ[\w-]+\.eyJ/, 'no token in the logs');
    assert.doesNotMatch(logs.join('\n'), /client_secret=|tcs_/);
  });
});
