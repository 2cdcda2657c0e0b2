import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { ClientCredentials } from 'simple-oauth2';
import { makeClient, makeUser, signIn } from './sign-in/support/fixtures.js';
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

/** Runs the script in its own process group, killed whole if it outlives the test. */
function runPython(
  python: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-c', AUTHLIB_SCRIPT, ...args], {
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
