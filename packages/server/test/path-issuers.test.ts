import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTokenMinter, createVerifier } from '@tessera/koa';
import { createSdk } from '@tessera/sdk';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import type { Org } from '../src/domain/types.js';
import { call, consoleOf, ownedOrg } from './management/support/console.js';
import { MemoryProvider } from './management/support/mcp-provider.js';
import { startFilesServer } from './resources/support/mcp-files-server.js';
import { FormBrowser, locationOf, signInThroughPages } from './sign-in/support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeUser,
  PASSWORD,
  signIn,
} from './sign-in/support/fixtures.js';
import { launchChromium } from './support/chromium.js';
import { chromiumSkip } from './support/environment.js';
import { startServer, type TestServer } from './support/server.js';

// Path issuers (TESSERA_ISSUER_STYLE=path): every org at `${TESSERA_URL}/o/<slug>/` on one host, so
// a Node client reaches a development issuer on `localhost` as it is, with no `hostOverride` and no
// resolver for `*.localhost`. One server for the file; SQLite only (routing and pages, no storage).

describe('path issuers: every org under /o/<slug>/ on the base host', () => {
  let tessera: TestServer;
  let acme: Org;
  let beta: Org;
  let acmeIssuer: string;
  let owner: string;
  let adaId: string;

  before(async () => {
    tessera = await startServer({
      env: { TESSERA_ISSUER_STYLE: 'path', TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
    });
    acme = await ownedOrg(tessera, 'acme');
    beta = await ownedOrg(tessera, 'beta');
    acmeIssuer = tessera.issuer('acme');
    adaId = (await makeUser(tessera.deps, acme, 'ada@acme.test')).user.id;
    await makeUser(tessera.deps, beta, 'bo@beta.test');
    owner = await (await consoleOf(tessera)).token('owner@acme.test');
  });
  after(() => tessera?.close());

  const json = async (url: string, init?: RequestInit) => {
    const res = await fetch(url, init);
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };

  test('an org issuer is the base URL with /o/<slug>/; the console stays at the base URL', async () => {
    assert.equal(acmeIssuer, `${tessera.base}/o/acme/`);
    const console = await json(`${tessera.base}/.well-known/openid-configuration`);
    assert.equal(console.body.issuer, `${tessera.base}/`);
    assert.equal(console.body.token_endpoint, `${tessera.base}/oauth/token`);
    // The API document names the org's address in the same form.
    const doc = await json(`${tessera.base}/openapi.json`);
    const servers = doc.body.servers as { url: string }[];
    assert.deepEqual(
      servers.map((s) => s.url),
      [tessera.base, `${tessera.base}/o/{org}`],
    );
  });

  test('discovery at RFC 8414’s inserted form and OIDC’s appended form: 200, the same document', async () => {
    const inserted = await json(`${tessera.base}/.well-known/oauth-authorization-server/o/acme`);
    const appended = await json(`${tessera.base}/o/acme/.well-known/openid-configuration`);
    const insertedOidc = await json(`${tessera.base}/.well-known/openid-configuration/o/acme`);
    const withSlash = await json(`${tessera.base}/.well-known/oauth-authorization-server/o/acme/`);
    for (const answer of [inserted, appended, insertedOidc, withSlash]) assert.equal(answer.status, 200);
    assert.deepEqual(inserted.body, appended.body);
    assert.deepEqual(insertedOidc.body, appended.body);
    assert.deepEqual(withSlash.body, appended.body);
    const doc = appended.body;
    assert.equal(doc.issuer, acmeIssuer);
    for (const [name, path] of [
      ['authorization_endpoint', 'oauth/authorize'],
      ['token_endpoint', 'oauth/token'],
      ['jwks_uri', '.well-known/jwks.json'],
      ['userinfo_endpoint', 'oauth/userinfo'],
      ['revocation_endpoint', 'oauth/revoke'],
      ['introspection_endpoint', 'oauth/introspect'],
    ] as const) {
      assert.equal(doc[name], `${acmeIssuer}${path}`, name);
    }
    // The key set the document names is acme's own.
    const keys = await json(String(doc.jwks_uri));
    assert.equal(keys.status, 200);
    const consoleKeys = await json(`${tessera.base}/.well-known/jwks.json`);
    assert.notDeepEqual(keys.body, consoleKeys.body);
  });

  test('an unknown slug, the console’s slug and an org host are 404 with the error body', async () => {
    const notFound = { error: 'not_found', error_detail: 'no organization at this address' };
    for (const url of [
      `${tessera.base}/o/ghost/.well-known/openid-configuration`,
      `${tessera.base}/.well-known/oauth-authorization-server/o/ghost`,
      `${tessera.base}/o/console/.well-known/openid-configuration`,
      `${tessera.base}/.well-known/oauth-authorization-server/o/console`,
      `${tessera.base}/.well-known/openid-configuration?host=acme.localhost:${tessera.port}`,
    ]) {
      const res = await json(url);
      assert.equal(res.status, 404, url);
      assert.deepEqual(res.body, notFound, url);
    }
    // A slug no org could have is no org's prefix: the path has no route.
    const odd = await json(`${tessera.base}/o/ACME/.well-known/openid-configuration`);
    assert.equal(odd.status, 404);
    assert.equal(odd.body.error, 'not_found');
    // The org's host form is not served beside the path form: one issuer per org.
    const byHost = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: tessera.port, path: '/.well-known/openid-configuration' },
        (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.setHeader('host', `acme.localhost:${tessera.port}`);
      req.on('error', reject).end();
    });
    assert.equal(byHost.status, 404);
    assert.deepEqual(JSON.parse(byHost.body), notFound);
  });

  test('the management API stays at the base host: under an org’s path a console token is no one’s', async () => {
    const atBase = await call(tessera, 'GET', '/organizations/acme/settings', owner);
    assert.equal(atBase.status, 200, atBase.text);
    assert.equal(atBase.body.issuer, acmeIssuer);
    const underPath = await fetch(`${acmeIssuer}organizations/acme/settings`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    // As on an org host: the request is acme's, and acme never issued the console's token.
    assert.equal(underPath.status, 401);
    assert.equal(underPath.headers.get('www-authenticate'), 'Bearer realm="tessera", error="invalid_token"');
  });

  test('openid-client with its own fetch: discovery at both forms, the code flow with PKCE, a refresh', async () => {
    const { clientId } = await makeClient(tessera.deps, acme, { name: 'Acme Notes' });
    // Node resolves `localhost` on its own; nothing here names `*.localhost`.
    assert.equal(new URL(acmeIssuer).hostname, 'localhost');
    const options = { execute: [oidc.allowInsecureRequests] };
    const byOidc = await oidc.discovery(new URL(acmeIssuer), clientId, undefined, oidc.None(), options);
    const byOAuth = await oidc.discovery(new URL(acmeIssuer), clientId, undefined, oidc.None(), {
      ...options,
      algorithm: 'oauth2',
    });
    assert.equal(byOidc.serverMetadata().issuer, acmeIssuer);
    assert.deepEqual(byOAuth.serverMetadata(), byOidc.serverMetadata());

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorize = oidc.buildAuthorizationUrl(byOAuth, {
      redirect_uri: CALLBACK,
      scope: 'openid email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    assert.equal(authorize.origin + authorize.pathname, `${acmeIssuer}oauth/authorize`);
    const back = await signInThroughPages(new FormBrowser(), authorize.href, {
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    const tokens = await oidc.authorizationCodeGrant(byOAuth, new URL(back), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal(tokens.claims()?.iss, acmeIssuer);
    assert.equal(tokens.claims()?.email, 'ada@acme.test');
    assert.equal(decodeJwt(tokens.access_token).iss, acmeIssuer);
    const userinfo = await oidc.fetchUserInfo(byOAuth, tokens.access_token, String(tokens.claims()?.sub));
    assert.equal(userinfo.email, 'ada@acme.test');

    const refreshed = await oidc.refreshTokenGrant(
      byOAuth,
      tokens.refresh_token ?? assert.fail('no refresh'),
    );
    assert.equal(decodeJwt(refreshed.access_token).iss, acmeIssuer);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);

    // acme's token is not beta's: beta's userinfo refuses it.
    const cross = await fetch(`${tessera.issuer('beta')}oauth/userinfo`, {
      headers: { authorization: `Bearer ${refreshed.access_token}` },
    });
    assert.equal(cross.status, 401);
  });
  test('pushed authorization requests (RFC 9126) under the org’s path; another org’s path does not know them', async () => {
    const { clientId } = await makeClient(tessera.deps, acme, { name: 'Acme PAR' });
    const config = await oidc.discovery(new URL(acmeIssuer), clientId, undefined, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
    assert.equal(config.serverMetadata().pushed_authorization_request_endpoint, `${acmeIssuer}oauth/par`);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: CALLBACK,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    assert.equal(url.origin + url.pathname, `${acmeIssuer}oauth/authorize`);
    // beta's path: no such request there (acme's stays usable).
    const atBeta = new URL('oauth/authorize', tessera.issuer('beta'));
    atBeta.search = url.search;
    const refused = await fetch(atBeta, { redirect: 'manual' });
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('tessera-error-code'), 'authorize.client.unknown');
    const back = await signInThroughPages(new FormBrowser(), url.href, {
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back), { pkceCodeVerifier: verifier });
    assert.equal(tokens.claims()?.iss, acmeIssuer);
  });

  test('@tessera/sdk and @tessera/koa with the org’s path address and no hostOverride', async () => {
    const { clientId, secret } = await makeClient(tessera.deps, acme, {
      name: 'acme service',
      kind: 'confidential',
      redirectUris: [],
    });
    const sdk = createSdk({ api: `${tessera.base}/o/acme`, issuer: acmeIssuer, clientId });
    const minted = await sdk.token.clientCredentials({ clientId, clientSecret: secret ?? '' });
    const claims = await sdk.verify(minted.accessToken);
    assert.deepEqual([claims.iss, claims.sub], [acmeIssuer, clientId]);
    const minter = createTokenMinter({
      api: `${tessera.base}/o/acme`,
      issuer: acmeIssuer,
      clientId,
      clientSecret: secret ?? '',
    });
    const verify = createVerifier({
      issuer: acmeIssuer,
      clientId: 'cli_web',
      accept: ['client'],
      trustedClients: [clientId],
    });
    const verified = await verify(await minter.token());
    assert.deepEqual([verified?.kind, verified?.claims.iss], ['client', acmeIssuer]);
    // beta's issuer does not take acme's token.
    const betaVerify = createVerifier({
      issuer: tessera.issuer('beta'),
      clientId: 'cli_web',
      accept: ['client'],
      trustedClients: [clientId],
    });
    assert.equal(await betaVerify(await minter.token()), null);
  });

  test('the MCP SDK client against a Koa MCP server behind @tessera/koa: 401, RFC 9728, RFC 8414 inserted, DCR, a tool', async () => {
    const files = await startFilesServer(acmeIssuer);
    try {
      const api = (method: string, path: string, body?: unknown) =>
        call(tessera, method, `/organizations/acme${path}`, owner, body);
      assert.equal((await api('PATCH', '/settings', { dynamic_registration: true })).status, 200);
      const created = await api('POST', '/resources', {
        identifier: files.resource,
        name: 'Files',
        scopes: [
          { name: 'files:read', description: 'Read your files' },
          { name: 'files:write', description: 'Change your files' },
        ],
      });
      assert.equal(created.status, 201, created.text);
      const reader = await api('POST', '/roles', {
        name: 'reader',
        permissions: [{ resource: files.resource, scope: 'files:read' }],
      });
      assert.equal((await api('PUT', `/users/${adaId}/roles`, { roles: [reader.body.id] })).status, 200);

      const sent: URL[] = [];
      const recording: typeof fetch = (input, init) => {
        sent.push(new URL(input instanceof Request ? input.url : String(input)));
        return fetch(input, init);
      };
      const provider = new MemoryProvider(CALLBACK, 'Path MCP client');
      const transport = () =>
        new StreamableHTTPClientTransport(new URL(files.resource), {
          authProvider: provider,
          fetch: recording,
        });
      const first = transport();
      await assert.rejects(new Client({ name: 'path', version: '1.0.0' }).connect(first), UnauthorizedError);
      const authorize = provider.authorizationUrl ?? assert.fail('the SDK sent nobody to sign in');
      assert.equal(authorize.origin + authorize.pathname, `${acmeIssuer}oauth/authorize`);
      const back = new URL(
        await signInThroughPages(new FormBrowser(), authorize.href, {
          email: 'ada@acme.test',
          password: PASSWORD,
        }),
      );
      assert.equal(back.searchParams.get('iss'), acmeIssuer);
      await first.finishAuth(back.searchParams.get('code') ?? assert.fail(`no code: ${back.href}`));
      const client = new Client({ name: 'path', version: '1.0.0' });
      await client.connect(transport());
      const result = (await client.callTool({ name: 'read_file' })) as { content: { text: string }[] };
      assert.equal(result.content[0]?.text, 'hello from files');
      await client.close();

      // What the SDK found on its own, on loopback names Node resolves: the metadata at RFC 8414's
      // inserted form first (no fallback was needed), registration and tokens under acme's path.
      const paths = sent.map((u) => `${u.host}${u.pathname}`);
      const tesseraHost = `localhost:${tessera.port}`;
      assert.ok(
        paths.includes(`${tesseraHost}/.well-known/oauth-authorization-server/o/acme`),
        paths.join(' '),
      );
      assert.ok(paths.includes(`${tesseraHost}/o/acme/oauth/register`), paths.join(' '));
      assert.ok(paths.includes(`${tesseraHost}/o/acme/oauth/token`), paths.join(' '));
      assert.equal(paths.filter((p) => p.includes('openid-configuration')).length, 0, paths.join(' '));
      for (const url of sent) assert.ok(['localhost', '127.0.0.1'].includes(url.hostname), url.href);
      const token = decodeJwt(provider.saved?.access_token ?? '');
      assert.deepEqual([token.iss, token.scope], [acmeIssuer, 'files:read']);
      assert.deepEqual(files.calls.at(-1), { tool: 'read_file', sub: adaId });
    } finally {
      await files.close();
    }
  });
  test('Chromium: cookies stay on their org’s path, and a passkey of one org signs in nowhere else', {
    skip: chromiumSkip(),
  }, async () => {
    const { clientId: acmeClient } = await makeClient(tessera.deps, acme, {
      name: 'Acme Notes',
      firstParty: true,
    });
    const { clientId: betaClient } = await makeClient(tessera.deps, beta, {
      name: 'Beta Notes',
      firstParty: true,
    });
    const betaIssuer = tessera.issuer('beta');
    const { accessToken } = await signIn(acmeIssuer, acmeClient, 'ada@acme.test');
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.route(`${new URL(CALLBACK).origin}/**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
      );
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
        },
      });
      const cookieHeaders: { url: string; cookie: string }[] = [];
      page.on('request', async (r) => {
        cookieHeaders.push({ url: r.url(), cookie: (await r.allHeaders()).cookie ?? '' });
      });

      // Signed in at acme through its pages: acme's cookies carry its name and path only.
      await page.goto(authorizeUrl(acmeIssuer, acmeClient).url);
      await page.waitForURL((u) => u.pathname === '/o/acme/login');
      const csp = (await page.request.get(page.url())).headers()['content-security-policy'] ?? '';
      // No script an org controls can run on the shared origin: only this origin's own files and hashes.
      const directive = (name: string) =>
        csp.split('; ').find((d) => d.startsWith(`${name} `)) ?? assert.fail(`no ${name}: ${csp}`);
      assert.match(directive('script-src'), /^script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*$/);
      assert.equal(directive('connect-src'), "connect-src 'self'");
      assert.equal(directive('default-src'), "default-src 'none'");
      await page.fill('#email', 'ada@acme.test');
      await page.fill('#password', PASSWORD);
      await page.click('button[type=submit]');
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      const cookies = await context.cookies();
      const session =
        cookies.find((c) => c.name === 'tessera_session.acme') ?? assert.fail('no session cookie');
      assert.deepEqual([session.path, session.httpOnly, session.sameSite], ['/o/acme/', true, 'Lax']);
      for (const c of cookies) assert.ok(c.path.startsWith('/o/acme/') && c.name.endsWith('.acme'), c.name);

      // At beta's pages the browser sends none of them, and beta does not know this person.
      cookieHeaders.length = 0;
      await page.goto(new URL('login', betaIssuer).href);
      assert.doesNotMatch((await page.textContent('.card')) ?? '', /You are signed in/);
      const atBeta = cookieHeaders.filter((h) => h.url.startsWith(betaIssuer));
      assert.ok(atBeta.length > 0);
      for (const h of atBeta) assert.doesNotMatch(h.cookie, /acme/, h.url);
      // Planted under beta's name and path, acme's session is still no session at beta.
      await context.addCookies([{ ...session, name: 'tessera_session.beta', path: '/o/beta/' }]);
      await page.goto(new URL('login', betaIssuer).href);
      assert.doesNotMatch((await page.textContent('.card')) ?? '', /You are signed in/);
      await page.goto(new URL('login', acmeIssuer).href);
      assert.match((await page.textContent('.card')) ?? '', /You are signed in/);

      // A passkey added on acme's profile page: its relying party is the shared host.
      const key = (await api(acmeIssuer, 'POST', 'profile/session', accessToken)).body.key as string;
      await page.goto(new URL(`profile?key=${encodeURIComponent(key)}`, acmeIssuer).href);
      await page.locator('#passkey-register').waitFor({ state: 'visible' });
      await page.fill('#passkey_name', 'Laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.waitForURL((u) => u.pathname === '/o/acme/profile/passkeys');
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(credentials.length, 1);
      assert.equal(credentials[0]?.rpId, 'localhost');

      // The browser offers it on beta's login page too (same relying party): beta refuses it.
      await context.clearCookies();
      await page.goto(authorizeUrl(betaIssuer, betaClient).url);
      const refusal = page.waitForResponse((r) => r.url().startsWith(`${betaIssuer}login/passkey?`));
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      // Refused without `unknown_credential`: the page must not ask the browser to forget a passkey
      // that is acme's (WebAuthn's signalUnknownCredential would drop it for the whole host).
      const refused = await refusal;
      assert.equal(refused.status(), 400);
      assert.deepEqual(await refused.json(), {
        error: 'invalid_request',
        error_detail:
          'This passkey is not registered here. Sign in with your password, or use another passkey.',
      });
      const problem = page.locator('#passkey-sign-in [role=alert]');
      await problem.waitFor({ state: 'visible' });
      assert.match((await problem.textContent()) ?? '', /not registered here/);
      assert.equal(new URL(page.url()).pathname, '/o/beta/login');
      assert.deepEqual(
        (await context.cookies()).filter((c) => c.name.startsWith('tessera_session')),
        [],
        'no session anywhere',
      );

      // At acme the same passkey signs in.
      await page.goto(authorizeUrl(acmeIssuer, acmeClient).url);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      assert.ok(new URL(page.url()).searchParams.get('code'));
      assert.equal((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length, 1);
      await context.close();
    } finally {
      await browser.close();
    }
  });
  test('one org is another’s OpenID provider in development: beta signs in through acme’s path issuer', async () => {
    // The issue with host issuers: beta's callback would be on `beta.localhost`, which acme cannot take as
    // an http redirect URI (only localhost, 127.0.0.1 and [::1] may be http). Under path issuers it is
    // on `localhost`, and TESSERA_OUTBOUND_ALLOW_PRIVATE=1 lets beta reach acme on loopback.
    const acmeOwner = owner;
    const betaOwner = await (await consoleOf(tessera)).token('owner@beta.test');
    const upstream = await call(tessera, 'POST', '/organizations/acme/clients', acmeOwner, {
      client_name: 'Beta',
      type: 'confidential',
      redirect_uris: ['http://localhost/placeholder'],
    });
    assert.equal(upstream.status, 201, upstream.text);
    const connection = await call(tessera, 'POST', '/organizations/beta/connections', betaOwner, {
      type: 'oidc',
      name: 'Acme',
      domains: ['acme.test'],
      jit: true,
      issuer: acmeIssuer,
      client_id: upstream.body.client_id,
      client_secret: upstream.body.client_secret,
    });
    assert.equal(connection.status, 201, connection.text);
    const betaIssuer = tessera.issuer('beta');
    const callback = `${betaIssuer}sso/${connection.body.id}/callback`;
    assert.equal(connection.body.callback_url, callback);
    const redirect = await call(
      tessera,
      'PATCH',
      `/organizations/acme/clients/${upstream.body.client_id}`,
      acmeOwner,
      {
        redirect_uris: [callback],
      },
    );
    assert.equal(redirect.status, 200, redirect.text);

    const { clientId } = await makeClient(tessera.deps, beta, { name: 'Beta Notes', firstParty: true });
    const browser = new FormBrowser();
    const { url } = authorizeUrl(betaIssuer, clientId);
    const login = locationOf(await browser.get(url), url);
    assert.equal(new URL(login).pathname, '/o/beta/login');
    const page = await (await browser.get(login)).text();
    const start = /<a class="sso" href="([^"]+)">Sign in with Acme<\/a>/.exec(page)?.[1] ?? assert.fail(page);
    const startUrl = new URL(start.replaceAll('&amp;', '&'), login).href;
    const atAcme = locationOf(await browser.get(startUrl), startUrl);
    assert.equal(new URL(atAcme).origin + new URL(atAcme).pathname, `${acmeIssuer}oauth/authorize`);
    const backAtBeta = await signInThroughPages(browser, atAcme, {
      email: 'ada@acme.test',
      password: PASSWORD,
    });
    assert.equal(new URL(backAtBeta).origin + new URL(backAtBeta).pathname, callback);
    const done = new URL(
      await signInThroughPages(browser, backAtBeta, { email: 'ada@acme.test', password: PASSWORD }),
    );
    assert.equal(done.origin + done.pathname, CALLBACK);
    assert.equal(done.searchParams.get('iss'), betaIssuer);
    const user = await tessera.db
      .selectFrom('users')
      .select(['org_id', 'email'])
      .where('org_id', '=', beta.id)
      .where('email', '=', 'ada@acme.test')
      .executeTakeFirst();
    assert.deepEqual(user, { org_id: beta.id, email: 'ada@acme.test' });
  });
});
