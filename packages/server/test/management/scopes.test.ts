import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { MANAGEMENT_SCOPES, type ManagementScope } from '../../src/domain/directory/console-scopes.js';
import { SWITCH_TENANT_GRANT } from '../../src/domain/tokens/switch-tenant.js';
import { OPERATIONS } from '../../src/http/openapi/document.js';
import { FormBrowser, locationOf } from '../sign-in/support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeUser,
  PASSWORD,
  signIn,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, consoleOf, FULL_CONSOLE_SCOPE, OWNER_PASSWORD, ownedOrg } from './support/console.js';

const OWNER = 'owner@acme.test';
const DEFAULT_SCOPE = 'openid profile email org:read events:read';
const HOOK = { url: 'https://hooks.example.com/tessera', events: ['tenant.*'] };
const CALLBACK_HOST = new URL(CALLBACK).host;
const THIRD_PARTY = 'This application was registered by a third party, not by the organization.';

/** What a management route answers a token without `scope`. */
function assertInsufficient(res: { status: number; headers: Headers; body: unknown }, scope: string) {
  assert.equal(res.status, 403);
  assert.deepEqual(res.body, {
    error: 'insufficient_scope',
    error_detail: `this token lacks the ${scope} scope`,
  });
  assert.equal(
    res.headers.get('www-authenticate'),
    `Bearer realm="tessera", error="insufficient_scope", scope="${scope}"`,
  );
}

for (const database of httpSuite()) {
  describe(`console token scopes on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let konsole: Awaited<ReturnType<typeof consoleOf>>;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      konsole = await consoleOf(server);
      await ownedOrg(server, 'acme');
    });
    after(async () => {
      if (!skip) await server?.close();
    });

    /** A client registered through POST /oauth/register (RFC 7591), returning to CALLBACK. */
    async function register(name: string): Promise<string> {
      const res = await fetch(`${server.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [CALLBACK], client_name: name }),
      });
      assert.equal(res.status, 201);
      return ((await res.json()) as { client_id: string }).client_id;
    }

    /**
     * The code flow through the hosted pages with `browser` (whose login cookie carries over):
     * the consent page's HTML when one was shown (then allowed), and the token response.
     */
    async function authorize(browser: FormBrowser, clientId: string, scope: string | null) {
      const { url, verifier } = authorizeUrl(konsole.issuer, clientId, { scope });
      let consent: string | null = null;
      let at = url;
      let response = await browser.get(at);
      for (let step = 0; step < 8; step++) {
        const next = locationOf(response, at);
        const path = new URL(next).pathname;
        if (path !== '/login' && path !== '/consent') {
          const code = new URL(next).searchParams.get('code') ?? '';
          const token = await tokenRequest(konsole.issuer, {
            grant_type: 'authorization_code',
            code,
            redirect_uri: CALLBACK,
            code_verifier: verifier,
            client_id: clientId,
          });
          assert.equal(token.status, 200, JSON.stringify(token.body));
          return { consent, token: token.body };
        }
        at = next;
        const page = await browser.get(at);
        const html = await page.text();
        if (path === '/consent') consent = html;
        const fields: Record<string, string> =
          path === '/login' ? { email: OWNER, password: OWNER_PASSWORD } : { decision: 'allow' };
        response = await browser.submit(at, html, fields);
      }
      throw new Error('too many redirects');
    }

    test('a registered client that asks no scope reads events and webhooks, and changes nothing', {
      skip,
    }, async () => {
      const clientId = await register('Scope Reader');
      const { consent, token } = await authorize(new FormBrowser(), clientId, null);
      assert.ok(consent, 'a registered client goes through consent');
      assert.equal(token.scope, DEFAULT_SCOPE);
      const at = token.access_token as string;

      assert.equal((await call(server, 'GET', '/organizations/acme/events', at)).status, 200);
      const hooks = await call(server, 'GET', '/organizations/acme/webhooks', at);
      assert.equal(hooks.status, 200);
      assertInsufficient(await call(server, 'POST', '/organizations/acme/webhooks', at, HOOK), 'org:write');
      // A test event changes nothing, but it sends: org:write, like a retry.
      assertInsufficient(
        await call(server, 'POST', '/organizations/acme/webhooks/whk_00000000000000000000/test', at),
        'org:write',
      );
      const users = await call(server, 'GET', '/organizations/acme/users', at);
      assert.equal(users.status, 200);
      const userId = users.body[0]?.id ?? 'usr_unknown';
      assertInsufficient(
        await call(server, 'POST', `/organizations/acme/users/${userId}/impersonation`, at, {}),
        'users:impersonate',
      );
    });

    test('management scopes on an org issuer are invalid_scope', { skip }, async () => {
      const org = await ownedOrg(server, 'beta');
      const { clientId } = await makeClient(server.deps, org, { name: 'Beta app' });
      const browser = new FormBrowser();
      const { url, state } = authorizeUrl(server.issuer('beta'), clientId, { scope: 'openid org:read' });
      const res = await browser.get(url);
      const back = new URL(locationOf(res, url));
      assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
      assert.equal(back.searchParams.get('error'), 'invalid_scope');
      assert.equal(back.searchParams.get('state'), state);
    });

    test('a first-party client asks again for a wider scope, not for the same or a narrower one', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const first = await authorize(browser, konsole.clientId, 'openid org:read');
      assert.ok(first.consent, 'first time: consent');
      assert.equal(first.token.scope, 'openid org:read');
      const same = await authorize(browser, konsole.clientId, 'openid org:read');
      assert.equal(same.consent, null, 'the same scope: no consent');
      const wider = await authorize(browser, konsole.clientId, 'openid org:read org:write');
      assert.ok(wider.consent, 'a wider scope: consent again');
      assert.match(wider.consent ?? '', new RegExp(MANAGEMENT_SCOPES['org:write']));
      assert.equal(wider.token.scope, 'openid org:read org:write');
      const narrower = await authorize(browser, konsole.clientId, 'org:write');
      assert.equal(narrower.consent, null, 'a narrower scope: no consent');
      assert.equal(narrower.token.scope, 'org:write');

      // A registered client is asked every time, whatever it asks.
      const registered = await register('Always Asks');
      for (let i = 0; i < 2; i++) {
        const again = await authorize(browser, registered, 'openid org:read');
        assert.ok(again.consent, `registered client, request ${i + 1}: consent`);
      }
    });

    test('refresh never widens the scope; it may narrow it for good', { skip }, async () => {
      const browser = new FormBrowser();
      const { token } = await authorize(browser, konsole.clientId, 'openid org:read events:read');
      const refresh = (refreshToken: string, scope?: string) =>
        tokenRequest(konsole.issuer, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: konsole.clientId,
          ...(scope === undefined ? {} : { scope }),
        });

      const wider = await refresh(token.refresh_token as string, 'openid org:read events:read org:write');
      assert.equal(wider.status, 400);
      assert.deepEqual(wider.body, {
        error: 'invalid_scope',
        error_description: 'scope may only narrow the scope the session was granted',
      });
      // The refused request left the refresh token unused.
      const kept = await refresh(token.refresh_token as string);
      assert.equal(kept.status, 200);
      assert.equal(kept.body.scope, 'openid org:read events:read');
      assert.equal(
        (await call(server, 'GET', '/organizations/acme/events', kept.body.access_token as string)).status,
        200,
      );

      const narrowed = await refresh(kept.body.refresh_token as string, 'org:read');
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.scope, 'org:read');
      const at = narrowed.body.access_token as string;
      assertInsufficient(await call(server, 'GET', '/organizations/acme/events', at), 'events:read');
      assert.equal((await call(server, 'GET', '/organizations/acme/webhooks', at)).status, 200);

      const back = await refresh(narrowed.body.refresh_token as string, 'org:read events:read');
      assert.equal(back.status, 400);
      assert.equal(back.body.error, 'invalid_scope');
      const later = await refresh(narrowed.body.refresh_token as string);
      assert.equal(later.status, 200);
      assert.equal(later.body.scope, 'org:read');
    });

    test('a tenant switch keeps the session scope', { skip }, async () => {
      const org = await ownedOrg(server, 'gamma');
      await makeUser(server.deps, org, 'ada@gamma.test');
      const { clientId } = await makeClient(server.deps, org, { name: 'Gamma app' });
      const issuer = server.issuer('gamma');
      const ada = await signIn(issuer, clientId, 'ada@gamma.test', new FormBrowser(), PASSWORD, {
        scope: 'openid email',
      });
      const sid = decodeJwt(ada.accessToken).sid as string;
      const scopeOf = async () =>
        (
          await server.db
            .selectFrom('oauth_sessions')
            .select('scope')
            .where('id', '=', sid)
            .executeTakeFirstOrThrow()
        ).scope;
      assert.equal(await scopeOf(), 'openid email');

      const team = await api(issuer, 'POST', 'tenants', ada.accessToken, { name: 'Team' });
      assert.equal(team.status, 201);
      const switched = await tokenRequest(issuer, {
        grant_type: SWITCH_TENANT_GRANT,
        access_token: ada.accessToken,
        tenant_id: team.body.id,
        client_id: clientId,
      });
      assert.equal(switched.status, 200);
      assert.equal(decodeJwt(switched.body.access_token as string).tnt, team.body.id);
      assert.equal(await scopeOf(), 'openid email');
      const info = await api(issuer, 'GET', 'oauth/userinfo', switched.body.access_token as string);
      assert.equal(info.status, 200);
      assert.equal(info.body.email, 'ada@gamma.test');
      assert.equal(info.body.given_name, undefined, 'profile was not granted, and still is not');
    });

    test('every console operation refuses a token lacking exactly its scope', { skip }, async () => {
      const scopes = Object.keys(MANAGEMENT_SCOPES) as ManagementScope[];
      const full = FULL_CONSOLE_SCOPE.split(' ');
      const lacking = new Map<ManagementScope, string>();
      for (const s of scopes) {
        lacking.set(s, await konsole.token(OWNER, full.filter((f) => f !== s).join(' ')));
      }
      const operations = OPERATIONS.filter((o) => o.auth === 'console');
      assert.ok(operations.length >= 30, `${operations.length} console operations`);
      for (const op of operations) {
        assert.ok(op.scope, `${op.method} ${op.path} names its scope`);
        const path = op.path
          .replace(':org', 'acme')
          .replace(/:([A-Za-z]+)/g, (_m, name: string) => `${name}_unknown`);
        const body = op.method === 'get' || op.method === 'delete' ? undefined : {};
        const res = await call(server, op.method.toUpperCase(), path, lacking.get(op.scope) ?? null, body);
        assert.equal(res.status, 403, `${op.method} ${op.path}: ${res.text}`);
        assertInsufficient(res, op.scope);
      }
    });

    describe('in Chromium', () => {
      const noBrowser = skip || chromiumSkip();
      let browser: Browser;
      before(async () => {
        if (noBrowser) return;
        browser = await launchChromium();
      });
      after(async () => {
        if (!noBrowser) await browser?.close();
      });

      test('consent to org:write names it, the redirect host and the third party; then writes work', {
        skip: noBrowser,
      }, async () => {
        const clientId = await register('Hook Maker');
        const context = await browser.newContext({ javaScriptEnabled: false });
        const page = await context.newPage();
        await page.route(`${new URL(CALLBACK).origin}/**`, (route) =>
          route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
        );
        const asked = 'openid org:read org:write users:impersonate';
        const { url, verifier } = authorizeUrl(konsole.issuer, clientId, { scope: asked });
        await page.goto(url);
        assert.equal(new URL(page.url()).pathname, '/login');
        await page.fill('#email', OWNER);
        await page.fill('#password', OWNER_PASSWORD);
        await page.click('button[type=submit]');
        await page.waitForURL((u) => u.pathname === '/consent');

        const listed = await page.locator('ul.scopes li').allTextContents();
        assert.deepEqual(listed, [
          'Know who you are',
          MANAGEMENT_SCOPES['org:read'],
          MANAGEMENT_SCOPES['org:write'],
        ]);
        assert.equal(await page.textContent('.redirect-host'), CALLBACK_HOST);
        assert.match((await page.textContent('.third-party')) ?? '', new RegExp(THIRD_PARTY));
        const text = (await page.textContent('body')) ?? '';
        assert.ok(!text.includes(MANAGEMENT_SCOPES['users:impersonate']), 'impersonation is not offered');

        await page.click('button[value=allow]');
        await page.waitForURL((u) => u.href.startsWith(CALLBACK));
        const code = new URL(page.url()).searchParams.get('code') ?? '';
        await context.close();
        const token = await tokenRequest(konsole.issuer, {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CALLBACK,
          code_verifier: verifier,
          client_id: clientId,
        });
        assert.equal(token.status, 200);
        assert.equal(token.body.scope, 'openid org:read org:write');
        const at = token.body.access_token as string;

        const created = await call(server, 'POST', '/organizations/acme/webhooks', at, HOOK);
        assert.equal(created.status, 201);
        assertInsufficient(
          await call(server, 'POST', '/organizations/acme/users/usr_unknown/impersonation', at, {}),
          'users:impersonate',
        );
      });
    });
  });
}
