import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { screenshot } from '../support/screenshot.js';
import { startServer, type TestServer } from '../support/server.js';
import { authorizeUrl, CALLBACK, makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

const RESULTS = fileURLToPath(new URL('../../../../test-results/', import.meta.url));

/** A real browser through the hosted pages, on a phone-width screen, with no help from JavaScript. */
describe('headless Chromium signs in and consents', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let issuer: string;
  let clientId: string;

  before(async () => {
    if (skip) return;
    server = await startServer();
    issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    ({ clientId } = await makeClient(server.deps, org, { name: 'Acme Notes', firstParty: false }));
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    // A launch that failed leaves no browser: the server is closed all the same.
    await browser?.close();
    await server?.close();
  });

  test('sign in, consent, land on the redirect URI with a code', { skip }, async () => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 740 },
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    // Nothing listens on the client's redirect URI: answer it here and record where the browser landed.
    await page.route(`${new URL(CALLBACK).origin}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
    );
    const { url, state } = authorizeUrl(issuer, clientId);

    await page.goto(url);
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.equal(await page.title(), 'Sign in · acme');
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= 375, `no sideways scrolling on a phone (${scrollWidth}px)`);
    await screenshot(page, `${RESULTS}login-page.png`);

    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/consent');
    assert.match(
      (await page.textContent('.card')) ?? '',
      /Acme Notes wants to use your account ada@acme\.test/,
    );

    await page.click('button[value=allow]');
    await page.waitForURL((u) => u.href.startsWith(CALLBACK));
    const landed = new URL(page.url());
    assert.match(landed.searchParams.get('code') ?? '', /^tac_/);
    assert.equal(landed.searchParams.get('state'), state);
    assert.equal(landed.searchParams.get('iss'), issuer);

    const cookies = await context.cookies(issuer);
    const session = cookies.find((c) => c.name === 'tessera_session');
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Lax');
    await context.close();
  });
});
