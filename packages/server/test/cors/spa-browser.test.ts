import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page, Request } from 'playwright-core';
import { makeClient, makeOrg, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { bundleSdk, type SpaConfig, serveSpa } from './support/spa.js';

/**
 * Everything a page reports going wrong: console errors, uncaught errors, failed requests. A request
 * whose answer reached the page, then reported `net::ERR_ABORTED`, is not one: under load Chromium may
 * tear down a fetch's loader once the page has read the body, before the loader's completion arrives
 * (seen on `/oauth/revoke`'s empty 200 and on the token endpoint's 400). The page read every answer:
 * the outcome asserts what it read from each call.
 */
function watch(page: Page): string[] {
  const problems: string[] = [];
  const answered = new Set<Request>();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => answered.add(r.request()));
  page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText;
    if (error === 'net::ERR_ABORTED' && answered.has(r)) return;
    problems.push(`requestfailed: ${r.method()} ${r.url()} ${error}`);
  });
  return problems;
}

/**
 * A single-page app on its own loopback origin, in Chromium, signs in with `@tessera/sdk` bundled
 * for the browser (code + PKCE through the hosted login page of the org issuer), verifies, refreshes,
 * calls userinfo and revokes, with no CORS error; the same page on an origin that is not allowed
 * cannot read the token endpoint's answers (DESIGN §14).
 */
describe('a browser SPA on another origin signs in with @tessera/sdk', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let spa: { origin: string; server: Server };
  let afar: { origin: string; server: Server };
  let config: SpaConfig;
  let userId: string;

  before(async () => {
    if (skip) return;
    server = await startServer({ webhooks: false });
    const issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    ({
      user: { id: userId },
    } = await makeUser(server.deps, org, 'ada@acme.test'));
    const bundle = await bundleSdk();
    // The client's redirect URI names the SPA's origin, so that origin is allowed by default; the
    // second server's port is known only once it listens.
    config = { api: issuer.slice(0, -1), issuer, clientId: '' };
    spa = await serveSpa(config, bundle);
    afar = await serveSpa(config, bundle);
    const { clientId } = await makeClient(server.deps, org, {
      name: 'Notes SPA',
      redirectUris: [`${spa.origin}/callback`],
    });
    config.clientId = clientId;
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    for (const s of [spa?.server, afar?.server]) await new Promise((r) => (s ? s.close(r) : r(null)));
    await server?.close();
  });

  test('sign in, verify, refresh, userinfo and revoke from http://127.0.0.1:<port>, no CORS error', {
    skip,
  }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${spa.origin}/`);
    await page.waitForURL((u) => u.pathname === '/login');
    assert.equal(new URL(page.url()).origin, new URL(config.issuer).origin);
    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/consent' || u.origin === spa.origin);
    if (new URL(page.url()).pathname === '/consent') await page.click('button[value=allow]');
    await page.waitForURL((u) => u.origin === spa.origin && u.pathname === '/callback');
    await page.waitForFunction(() => 'outcome' in window);
    // What went wrong up to here (the SDK's 30 s request timers outlive the answers they guard).
    const seen = [...problems];
    const outcome = await page.evaluate(() => (window as unknown as { outcome: unknown }).outcome);
    await context.close();
    assert.deepEqual(outcome, {
      signedIn: { sub: userId, aud: config.clientId, typ: 'user', refresh: 'string' },
      refreshed: true,
      userinfo: { status: 200, body: { sub: userId, email: 'ada@acme.test', email_verified: false } },
      revoked: true,
      // The spent refresh token's refusal is read like any answer: the error crosses origins too.
      afterRevoke: { status: 400, code: 'invalid_grant' },
    });
    // No CORS error, no failed request: Chromium logs only the refusal the page asked for.
    assert.deepEqual(seen, [
      'console: Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  });

  test('the same page on an origin that is not allowed cannot read the token endpoint', {
    skip,
  }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${afar.origin}/afar`);
    await page.waitForFunction(() => 'outcome' in window);
    const outcome = await page.evaluate(() => (window as unknown as { outcome: unknown }).outcome);
    assert.deepEqual(outcome, { status: 0, code: 'network_error' });
    assert.ok(
      problems.some((p) => p.includes('CORS') && p.includes('Access-Control-Allow-Origin')),
      problems.join('\n'),
    );
    await context.close();

    // The answer Chromium kept from the page, as plain HTTP sees it.
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: config.clientId,
    });
    for (const [origin, allowed] of [
      [afar.origin, null],
      [spa.origin, spa.origin],
    ] as const) {
      const res = await fetch(`${config.api}/oauth/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('access-control-allow-origin'), allowed);
      assert.equal(res.headers.get('access-control-allow-credentials'), null);
    }
  });
});
