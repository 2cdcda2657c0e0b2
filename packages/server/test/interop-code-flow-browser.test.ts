import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { AuthorizationCode } from 'simple-oauth2';
import { makeClient, makeOrg, makeUser, PASSWORD } from './sign-in/support/fixtures.js';
import { launchChromium } from './support/chromium.js';
import { chromiumSkip } from './support/environment.js';
import { startServer, type TestServer } from './support/server.js';

/**
 * Independent OAuth libraries, each with its defaults, complete the authorization code flow with
 * PKCE (S256) and a state against Tessera (DESIGN §14): the library builds the authorization URL,
 * Chromium signs in on the hosted login page and lands on the client's loopback callback, the
 * library exchanges the code with its default client authentication and calls userinfo. Python
 * Authlib and Go (x/oauth2 + coreos/go-oidc, test/support/go-oauth) run as child processes from
 * Debian's packages (.ci/run installs them). One server, one browser, one callback server for the file.
 */

const EMAIL = 'ada@acme.test';

/** A python3 that has Authlib and requests (Debian's python3-authlib, python3-requests), or null. */
function pythonWithAuthlib(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import authlib, requests'], { stdio: 'ignore' });
    if (probe.status === 0) return python;
  }
  return null;
}

/** The skip reason for the Authlib test, or false; throws when CI requires Chromium (and so Authlib). */
function authlibSkip(python: string | null): false | string {
  if (python) return false;
  const reason =
    'SKIPPED: python3 with authlib and requests not found (apt-get install python3-authlib python3-requests)';
  const required = (process.env.TESSERA_TEST_REQUIRE ?? '').split(',').map((s) => s.trim());
  if (required.includes('chromium')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

/** Debian's Go sources (golang-golang-x-oauth2-dev, golang-github-coreos-go-oidc-dev) are built in GOPATH mode. */
const GOCODE = '/usr/share/gocode';
const GO_SOURCES = ['golang.org/x/oauth2/clientcredentials', 'github.com/coreos/go-oidc'];
const GO_PROGRAM = fileURLToPath(new URL('./support/go-oauth/main.go', import.meta.url));

/** The skip reason for the Go test, or false: `go` and Debian's x/oauth2 and go-oidc sources must be there. */
function goSkip(): false | string {
  const hasGo = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
  if (hasGo && GO_SOURCES.every((p) => existsSync(join(GOCODE, 'src', p)))) return false;
  const reason =
    'SKIPPED: go or its OAuth sources not found (apt-get install golang-go golang-golang-x-oauth2-dev golang-github-coreos-go-oidc-dev)';
  const required = (process.env.TESSERA_TEST_REQUIRE ?? '').split(',').map((s) => s.trim());
  if (required.includes('chromium')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

/** Builds test/support/go-oauth against Debian's sources, offline, in a directory of its own. */
function buildGoClient(dir: string): string {
  const binary = join(dir, 'go-oauth');
  const built = spawnSync('go', ['build', '-o', binary, GO_PROGRAM], {
    env: {
      ...process.env,
      GO111MODULE: 'off',
      GOPATH: `${GOCODE}:${dir}`,
      GOFLAGS: '',
      GOCACHE: join(dir, 'cache'),
      GOPROXY: 'off',
    },
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`go build failed: ${built.stderr}`);
  return binary;
}

/**
 * Authlib's OAuth2Session with its defaults (client_secret_basic) and S256 PKCE: prints the
 * authorization URL, reads the callback URL from stdin, fetches the token and userinfo.
 */
const AUTHLIB_SCRIPT = `
import json, sys
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
client_id, client_secret, redirect_uri, authorize_url, token_url, userinfo_url = sys.argv[1:7]
session = OAuth2Session(client_id, client_secret, scope='openid email', redirect_uri=redirect_uri,
                        code_challenge_method='S256')
verifier = generate_token(48)
url, state = session.create_authorization_url(authorize_url, code_verifier=verifier)
print(json.dumps({'url': url, 'state': state}), flush=True)
callback = sys.stdin.readline().strip()
token = session.fetch_token(token_url, authorization_response=callback, state=state, code_verifier=verifier)
userinfo = session.get(userinfo_url)
method = session.token_endpoint_auth_method
print(json.dumps({
    'method': method if isinstance(method, str) else 'custom',
    'token': token,
    'userinfo_status': userinfo.status_code,
    'userinfo': userinfo.json(),
}), flush=True)
`;

/** The child's stdout split into lines as they come, and its end. */
function lines(child: ChildProcessWithoutNullStreams) {
  const queue: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else queue.push(line);
    }
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    async next(): Promise<string> {
      const queued = queue.shift();
      if (queued !== undefined) return queued;
      return Promise.race([
        new Promise<string>((resolve) => waiters.push(resolve)),
        closed.then((code) => {
          throw new Error(`the child exited (${code}): ${stderr}`);
        }),
      ]);
    },
  };
}

/** A client's loopback callback: answers /callback 200 and records the URLs it was sent there. */
async function startCallbackServer(): Promise<{ server: Server; uri: string; arrivals: string[] }> {
  const arrivals: string[] = [];
  const server = createServer((request, response) => {
    const url = request.url ?? '';
    if (!url.startsWith('/callback')) return void response.writeHead(404).end();
    arrivals.push(url);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in; you may close this page.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, uri: `http://127.0.0.1:${port}/callback`, arrivals };
}

describe('OAuth libraries with their defaults: code + PKCE with a browser sign-in', () => {
  const skip = chromiumSkip();
  const python = pythonWithAuthlib();
  const pythonSkip = skip || authlibSkip(python);
  const golangSkip = skip || goSkip();
  let server: TestServer;
  let browser: Browser;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let issuer: string;
  let clientId: string;
  let clientSecret: string;
  let userId: string;
  /** Where the Go client is built, once, by the first Go test. */
  let goDir: string | undefined;
  const goClient = () => {
    if (goDir === undefined) goDir = mkdtempSync(join(tmpdir(), 'tessera-go-'));
    const binary = join(goDir, 'go-oauth');
    return existsSync(binary) ? binary : buildGoClient(goDir);
  };

  /** Kills a child's whole process group (it was started detached). */
  const killGroup = (child: ChildProcessWithoutNullStreams) => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };

  before(async () => {
    if (skip) return;
    server = await startServer({ webhooks: false });
    issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    ({
      user: { id: userId },
    } = await makeUser(server.deps, org, EMAIL));
    callback = await startCallbackServer();
    const made = await makeClient(server.deps, org, {
      name: 'Acme web',
      kind: 'confidential',
      redirectUris: [callback.uri],
    });
    clientId = made.clientId;
    clientSecret = made.secret as string;
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    if (goDir) rmSync(goDir, { recursive: true, force: true });
    await browser?.close();
    await new Promise((resolve) => (callback ? callback.server.close(resolve) : resolve(null)));
    await server?.close();
  });

  /**
   * What the user does: opens the library's authorization URL in a fresh browser, signs in on the
   * org's hosted login page and lands on the client's callback. Returns the callback URL.
   */
  async function browserSignIn(authorizationUrl: string): Promise<string> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(authorizationUrl);
      assert.equal(new URL(page.url()).origin, new URL(issuer).origin, 'the org host shows the login');
      assert.equal(new URL(page.url()).pathname, '/login');
      await page.fill('#email', EMAIL);
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForURL((u) => u.pathname === '/consent' || u.href.startsWith(callback.uri));
      if (new URL(page.url()).pathname === '/consent') await page.click('button[value=allow]');
      await page.waitForURL((u) => u.href.startsWith(callback.uri));
      assert.match((await page.textContent('body')) ?? '', /Signed in/);
      const landed = page.url();
      const { pathname, search } = new URL(landed);
      assert.equal(callback.arrivals.at(-1), `${pathname}${search}`, 'the callback server was reached');
      return landed;
    } finally {
      await context.close();
    }
  }

  test('oauth4webapi (strict): ClientSecretBasic, PKCE, state, nonce and claims; the ID token validated', {
    skip,
  }, async () => {
    const options = { [oauth.allowInsecureRequests]: true };
    const as = await oauth.processDiscoveryResponse(
      new URL(issuer),
      await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oidc', ...options }),
    );
    const client: oauth.Client = { client_id: clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: callback.uri,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      // OIDC Core §5.5: the family name in the ID token, the given name from userinfo, beyond the scope.
      claims: JSON.stringify({
        id_token: { family_name: { essential: true } },
        userinfo: { given_name: null },
      }),
    }).toString();

    const landed = await browserSignIn(url.href);
    const params = oauth.validateAuthResponse(as, client, new URL(landed), state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(clientSecret),
      params,
      callback.uri,
      verifier,
      options,
    );
    assert.equal(response.status, 200);
    const result = await oauth.processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    assert.equal(result.token_type, 'bearer');
    const claims = oauth.getValidatedIdTokenClaims(result);
    assert.equal(claims?.sub, userId);
    assert.equal(claims?.iss, issuer);
    assert.equal(claims?.family_name, 'Lovelace');
    assert.equal(claims?.given_name, undefined);
    const userinfo = await oauth.processUserInfoResponse(
      as,
      client,
      userId,
      await oauth.userInfoRequest(as, client, result.access_token, options),
    );
    assert.equal(userinfo.sub, userId);
    assert.equal(userinfo.email, EMAIL);
    assert.equal(userinfo.given_name, 'Ada');
    assert.equal(userinfo.family_name, undefined);
  });

  test('openid-client with a client secret and no method named: PKCE, state, nonce, userinfo', {
    skip,
  }, async () => {
    // A bare secret and no method: openid-client's default, client_secret_post.
    const config = await oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback.uri,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });

    const landed = await browserSignIn(url.href);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(landed), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.claims()?.sub, userId);
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, userId);
    assert.equal(userinfo.sub, userId);
    assert.equal(userinfo.email, EMAIL);
  });

  test('simple-oauth2 AuthorizationCode with its defaults (Basic), PKCE passed explicitly', {
    skip,
  }, async () => {
    const host = issuer.slice(0, -1);
    const client = new AuthorizationCode({
      client: { id: clientId, secret: clientSecret },
      auth: {
        tokenHost: host,
        tokenPath: '/oauth/token',
        authorizeHost: host,
        authorizePath: '/oauth/authorize',
      },
    });
    // simple-oauth2 does no PKCE of its own: the challenge and verifier are extra parameters.
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    // Its types name only the standard parameters; the library passes any others through.
    const authorizeParams = {
      redirect_uri: callback.uri,
      scope: 'openid email',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    const url = client.authorizeURL(authorizeParams);

    const landed = new URL(await browserSignIn(url));
    assert.equal(landed.searchParams.get('state'), state);
    const tokenParams = {
      code: landed.searchParams.get('code') ?? '',
      redirect_uri: callback.uri,
      code_verifier: verifier,
    };
    const token = await client.getToken(tokenParams);
    const accessToken = token.token.access_token as string;
    assert.equal(decodeJwt(accessToken).sub, userId);
    assert.equal(typeof token.token.id_token, 'string');
    const userinfo = await fetch(new URL('oauth/userinfo', issuer), {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    assert.equal(userinfo.status, 200);
    const body = (await userinfo.json()) as { sub: string; email: string };
    assert.equal(body.sub, userId);
    assert.equal(body.email, EMAIL);
  });

  test('Python Authlib OAuth2Session with its defaults (client_secret_basic) and S256, in a child process', {
    skip: pythonSkip,
  }, async () => {
    // Python resolves no *.localhost names: the library's calls go to loopback with the org named by
    // the ?host= override; the browser opens the org host itself.
    const port = server.port;
    const loopback = (path: string) => `http://127.0.0.1:${port}${path}?host=acme.localhost:${port}`;
    const child = spawn(
      python as string,
      [
        '-c',
        AUTHLIB_SCRIPT,
        clientId,
        clientSecret,
        callback.uri,
        new URL('oauth/authorize', issuer).href,
        loopback('/oauth/token'),
        loopback('/oauth/userinfo'),
      ],
      { detached: true, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    try {
      const out = lines(child);
      const start = JSON.parse(await out.next()) as { url: string; state: string };
      const authorization = new URL(start.url);
      assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorization.searchParams.get('state'), start.state);

      const landed = await browserSignIn(start.url);
      child.stdin.write(`${landed}\n`);
      const result = JSON.parse(await out.next()) as {
        method: string;
        token: { access_token: string; token_type: string; id_token?: string };
        userinfo_status: number;
        userinfo: { sub: string; email: string };
      };
      assert.equal(result.method, 'client_secret_basic');
      assert.equal(result.token.token_type, 'Bearer');
      assert.equal(decodeJwt(result.token.access_token).sub, userId);
      assert.equal(typeof result.token.id_token, 'string');
      assert.equal(result.userinfo_status, 200);
      assert.equal(result.userinfo.sub, userId);
      assert.equal(result.userinfo.email, EMAIL);
    } finally {
      if (child.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  });
  test('Go x/oauth2 clientcredentials with its defaults: auto-detected auth style, Basic on the first try', {
    skip: golangSkip,
  }, async () => {
    const child = spawn(goClient(), ['machine', `${issuer}oauth/token`, clientId, clientSecret], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const result = JSON.parse(await lines(child).next()) as {
        access_token: string;
        token_type: string;
        valid: boolean;
        requests: { basic: boolean; secret_in_body: boolean; status: number }[];
      };
      // AuthStyleAutoDetect tries the header first and the body only after a refusal: one request.
      assert.deepEqual(result.requests, [{ basic: true, secret_in_body: false, status: 200 }]);
      assert.equal(result.token_type, 'Bearer');
      assert.equal(result.valid, true);
      const claims = decodeJwt(result.access_token);
      assert.equal(claims.sub, clientId);
      assert.equal(claims.client_id, clientId);
    } finally {
      killGroup(child);
    }
  });

  test('Go x/oauth2 + coreos/go-oidc: code + S256 PKCE with a browser sign-in; the verifier accepts the ID token', {
    skip: golangSkip,
  }, async () => {
    const child = spawn(goClient(), ['code', issuer, clientId, clientSecret, callback.uri], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    try {
      const out = lines(child);
      const start = JSON.parse(await out.next()) as { url: string; state: string };
      const authorization = new URL(start.url);
      assert.equal(authorization.origin + authorization.pathname, `${issuer}oauth/authorize`);
      assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorization.searchParams.get('state'), start.state);

      child.stdin.write(`${await browserSignIn(start.url)}\n`);
      const result = JSON.parse(await out.next()) as {
        token_type: string;
        id_token: string;
        sub: string;
        issuer: string;
        audience: string[];
        userinfo: { sub: string; email: string };
        requests: { basic: boolean; secret_in_body: boolean; status: number }[];
      };
      // go-oidc's verifier (its default: RS256 only) checked signature, issuer, audience and expiry.
      assert.equal(
        JSON.parse(Buffer.from(result.id_token.split('.')[0] ?? '', 'base64url').toString()).alg,
        'RS256',
      );
      assert.equal(result.sub, userId);
      assert.equal(result.issuer, issuer);
      assert.deepEqual(result.audience, [clientId]);
      assert.equal(result.token_type, 'Bearer');
      assert.deepEqual(result.userinfo, { sub: userId, email: EMAIL });
      assert.deepEqual(result.requests, [{ basic: true, secret_in_body: false, status: 200 }]);
    } finally {
      killGroup(child);
    }
  });
});
