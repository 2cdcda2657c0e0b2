import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { AuthorizationCode, ClientCredentials } from 'simple-oauth2';
import type { PublicKeySet } from '../src/domain/types.js';
import { FormBrowser, signInThroughPages } from './sign-in/support/browser.js';
import {
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeUser,
  PASSWORD,
  signIn,
} from './sign-in/support/fixtures.js';
import { orgWithMachineClient } from './support/fixtures.js';
import { startServer, type TestServer } from './support/server.js';

/**
 * Independent OAuth libraries, each with its default client authentication, get machine tokens
 * from Tessera (DESIGN §14); oauth4webapi's resource-server validator accepts Tessera's access
 * tokens as RFC 9068 tokens.
 */

/** A python3 that has Authlib and requests (Debian's python3-authlib, python3-requests), or null. */
function pythonWithAuthlib(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import authlib, requests'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return null;
}

/** Authlib's OAuth2Session with its defaults (client_secret_basic) fetching a client_credentials token. */
const AUTHLIB_SCRIPT = `
import json, sys
from authlib.integrations.requests_client import OAuth2Session
client_id, client_secret, token_url = sys.argv[1:4]
session = OAuth2Session(client_id, client_secret)
token = session.fetch_token(token_url, grant_type='client_credentials')
print(json.dumps({'method': session.token_endpoint_auth_method if isinstance(session.token_endpoint_auth_method, str) else 'custom', 'token': token}))
`;

/**
 * Authlib's `private_key_jwt` as its docs show it (PrivateKeyJWT given the token endpoint's URL, which
 * becomes `aud`), with its default assertion: RS256, `exp` an hour after `iat`.
 */
const AUTHLIB_PRIVATE_KEY_JWT_SCRIPT = `
import json, sys
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7523 import PrivateKeyJWT
client_id, private_key, token_url, token_endpoint = sys.argv[1:5]
session = OAuth2Session(client_id, private_key, token_endpoint_auth_method='private_key_jwt')
session.register_client_auth_method(PrivateKeyJWT(token_endpoint))
token = session.fetch_token(token_url, grant_type='client_credentials')
print(json.dumps({'token': token}))
`;

/** Runs the script in its own process group, killed whole if it outlives the test. */
function runPython(
  python: string,
  args: string[],
  script = AUTHLIB_SCRIPT,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-c', script, ...args], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('OAuth libraries with their default client authentication', () => {
  let server: TestServer;
  let issuer: string;
  let acme: Awaited<ReturnType<typeof orgWithMachineClient>>;
  let as: oauth.AuthorizationServer;
  const python = pythonWithAuthlib();

  before(async () => {
    server = await startServer();
    acme = await orgWithMachineClient(server.deps, 'acme');
    issuer = server.issuer('acme');
    const discovered = await oauth.discoveryRequest(new URL(issuer), {
      algorithm: 'oauth2',
      [oauth.allowInsecureRequests]: true,
    });
    as = await oauth.processDiscoveryResponse(new URL(issuer), discovered);
  });
  after(() => server.close());

  /** oauth4webapi's RFC 9068 validation of `token` as a resource server whose audience is `audience`. */
  const validate = (token: string, audience: string) =>
    oauth.validateJwtAccessToken(
      as,
      new Request('http://127.0.0.1/api', { headers: { authorization: `Bearer ${token}` } }),
      audience,
      { [oauth.allowInsecureRequests]: true },
    );

  test('oauth4webapi (strict) with ClientSecretBasic; validateJwtAccessToken accepts the token', async () => {
    const client: oauth.Client = { client_id: acme.clientId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(acme.clientSecret),
      new URLSearchParams(),
      { [oauth.allowInsecureRequests]: true },
    );
    const result = await oauth.processClientCredentialsResponse(as, client, response);
    assert.equal(result.token_type, 'bearer');
    const claims = await validate(result.access_token, acme.clientId);
    assert.equal(claims.client_id, acme.clientId);
    assert.equal(claims.sub, acme.clientId);
    assert.equal(claims.iss, issuer);
  });

  test('oauth4webapi introspects (RFC 7662) with ClientSecretBasic: active with claims, then garbage inactive', async () => {
    const client: oauth.Client = { client_id: acme.clientId };
    const auth = oauth.ClientSecretBasic(acme.clientSecret);
    const insecure = { [oauth.allowInsecureRequests]: true };
    const issued = await oauth.processClientCredentialsResponse(
      as,
      client,
      await oauth.clientCredentialsGrantRequest(as, client, auth, new URLSearchParams(), insecure),
    );
    const active = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, issued.access_token, insecure),
    );
    assert.equal(active.active, true);
    assert.equal(active.client_id, acme.clientId);
    assert.equal(active.sub, acme.clientId);
    assert.equal(active.iss, issuer);
    const inactive = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, 'not-a-token', insecure),
    );
    assert.deepEqual(inactive, { active: false });
  });

  test('oauth4webapi validateJwtAccessToken accepts a user token of the code flow', async () => {
    const { clientId } = await makeClient(server.deps, acme.org, { name: 'Web app' });
    await makeUser(server.deps, acme.org, 'ada@acme.test');
    const { accessToken } = await signIn(issuer, clientId, 'ada@acme.test');
    const claims = await validate(accessToken, clientId);
    assert.equal(claims.client_id, clientId);
    assert.equal(claims.typ, 'user');
  });

  test('openid-client with a client secret and no method named', async () => {
    const config = await oidc.discovery(new URL(issuer), acme.clientId, acme.clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const tokens = await oidc.clientCredentialsGrant(config);
    assert.equal(decodeJwt(tokens.access_token).client_id, acme.clientId);
    // And with Basic named, as openid-client users often configure it.
    const basic = await oidc.discovery(
      new URL(issuer),
      acme.clientId,
      undefined,
      oidc.ClientSecretBasic(acme.clientSecret),
      { execute: [oidc.allowInsecureRequests] },
    );
    assert.equal(decodeJwt((await oidc.clientCredentialsGrant(basic)).access_token).sub, acme.clientId);
  });

  test('simple-oauth2 with its defaults (credentials in the Authorization header)', async () => {
    const client = new ClientCredentials({
      client: { id: acme.clientId, secret: acme.clientSecret },
      auth: { tokenHost: issuer.slice(0, -1), tokenPath: '/oauth/token' },
    });
    const token = await client.getToken({});
    assert.equal(decodeJwt(token.token.access_token as string).client_id, acme.clientId);
  });

  test('simple-oauth2 revokeAll() with its defaults ends the session: the revocation answers {} as JSON', async () => {
    const { clientId, secret } = await makeClient(server.deps, acme.org, {
      name: 'Revoking app',
      kind: 'confidential',
      firstParty: true,
    });
    await makeUser(server.deps, acme.org, 'rev@acme.test');
    const client = new AuthorizationCode({
      client: { id: clientId, secret: secret as string },
      auth: { tokenHost: issuer.slice(0, -1), tokenPath: '/oauth/token', revokePath: '/oauth/revoke' },
    });
    const { url, verifier } = authorizeUrl(issuer, clientId);
    const callback = await signInThroughPages(new FormBrowser(), url, {
      email: 'rev@acme.test',
      password: PASSWORD,
    });
    // PKCE as an extra parameter, which simple-oauth2 passes on (its types do not name it).
    const tokenParams = {
      code: new URL(callback).searchParams.get('code') ?? '',
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    };
    const token = await client.getToken(tokenParams);
    const access = String(token.token.access_token);
    const refresh = String(token.token.refresh_token);
    assert.match(refresh, /^\S{20,}$/, 'a refresh token to revoke');
    // Both revocations (access_token, then refresh_token), Basic authentication, JSON parsed strictly.
    await token.revokeAll();
    const basic = Buffer.from(`${clientId}:${secret}`).toString('base64');
    const answer = await fetch(new URL('oauth/revoke', issuer), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refresh }),
    });
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(await answer.text(), '{}');
    // The session is over: its refresh token no longer refreshes, its access token is inactive.
    await assert.rejects(token.refresh(), /invalid_grant|Bad Request/);
    const introspected = await fetch(new URL('oauth/introspect', issuer), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: access }),
    });
    assert.deepEqual(await introspected.json(), { active: false });
  });

  test('Python Authlib private_key_jwt with its default hour-long assertion, in a child process', async (t) => {
    if (!python) {
      console.log(
        'SKIPPED: python3 with authlib and requests not found (apt-get install python3-authlib python3-requests)',
      );
      t.skip('python3 with authlib not found');
      return;
    }
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { clientId } = await makeClient(server.deps, acme.org, {
      name: 'Keyed Python service',
      kind: 'confidential',
      redirectUris: [],
      grantTypes: ['client_credentials'],
      jwks: { keys: [publicKey.export({ format: 'jwk' })] } as PublicKeySet,
    });
    const tokenUrl = `http://127.0.0.1:${server.port}/oauth/token?host=acme.localhost:${server.port}`;
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const run = await runPython(
      python,
      [clientId, pem, tokenUrl, `${issuer}oauth/token`],
      AUTHLIB_PRIVATE_KEY_JWT_SCRIPT,
    );
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { token: { access_token: string; token_type: string } };
    assert.equal(out.token.token_type, 'Bearer');
    assert.equal(decodeJwt(out.token.access_token).client_id, clientId);
    // Its assertion (signed just before the request) lived an hour, and its jti is kept until then
    // and the 5 s of skew: measured from the token issued for it, in whole seconds as both are.
    const [row] = await server.db
      .selectFrom('client_assertion_jtis')
      .select('expires_at')
      .where('client_id', '=', clientId)
      .execute();
    const issuedAt = decodeJwt(out.token.access_token).iat as number;
    const kept = Number(row?.expires_at) / 1000 - issuedAt;
    assert.ok(kept >= 3600 && kept <= 3606, `kept ${kept} s past the token's iat`);
  });

  test('Python Authlib with its defaults (client_secret_basic), in a child process', async (t) => {
    if (!python) {
      console.log(
        'SKIPPED: python3 with authlib and requests not found (apt-get install python3-authlib python3-requests)',
      );
      t.skip('python3 with authlib not found');
      return;
    }
    // Python resolves no *.localhost names: loopback, with the org named by the ?host= override.
    const tokenUrl = `http://127.0.0.1:${server.port}/oauth/token?host=acme.localhost:${server.port}`;
    const run = await runPython(python, [acme.clientId, acme.clientSecret, tokenUrl]);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as {
      method: string;
      token: { access_token: string; token_type: string };
    };
    assert.equal(out.method, 'client_secret_basic');
    assert.equal(out.token.token_type, 'Bearer');
    assert.equal(decodeJwt(out.token.access_token).client_id, acme.clientId);
  });
});
