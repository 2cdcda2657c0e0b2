import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { authorizeUrl, CALLBACK, makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

/**
 * Chromium through response_mode=form_post (the page's own script submits the form, under its CSP),
 * prompt=login (the password asked again although the browser is signed in) and a relying party's
 * cross-site POST to the authorization endpoint (SameSite=Lax keeps the login cookie off it). One
 * browser.
 */
describe('headless Chromium: form_post, prompt=login and a cross-site POST', () => {
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
    ({ clientId } = await makeClient(server.deps, org, { name: 'Acme web' }));
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    await server?.close();
  });

  /** A fresh browser context whose client callback records what reached it (method, query, body). */
  async function contextWithCallback(javaScriptEnabled: boolean) {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    const arrivals: { method: string; url: string; body: string | null }[] = [];
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.route(`${new URL(CALLBACK).origin}/**`, (route) => {
      const request = route.request();
      arrivals.push({ method: request.method(), url: request.url(), body: request.postData() });
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' });
    });
    return { context, page, arrivals, violations };
  }

  async function signIn(page: import('playwright-core').Page) {
    await page.fill('#password', PASSWORD);
    if ((await page.inputValue('#email')) === '') await page.fill('#email', 'ada@acme.test');
    await page.click('button[type=submit]');
  }

  test('form_post: after the login page, the code is POSTed to the redirect URI by the page itself', {
    skip,
  }, async () => {
    const { context, page, arrivals, violations } = await contextWithCallback(true);
    try {
      const { url, state } = authorizeUrl(issuer, clientId, {
        response_mode: 'form_post',
        login_hint: 'ada@acme.test',
      });
      await page.goto(url);
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal(await page.inputValue('#email'), 'ada@acme.test', 'login_hint fills the email');
      await signIn(page);
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      const arrived = arrivals.at(-1);
      assert.equal(arrived?.method, 'POST');
      assert.equal(arrived?.url, CALLBACK, 'nothing in the address');
      const fields = new URLSearchParams(arrived?.body ?? '');
      assert.match(fields.get('code') ?? '', /^tac_/);
      assert.equal(fields.get('state'), state);
      assert.equal(fields.get('iss'), issuer);
      assert.deepEqual(violations, [], 'the CSP allowed the script and the form');
    } finally {
      await context.close();
    }
  });

  test('form_post without JavaScript: the Continue button posts the code', { skip }, async () => {
    const { context, page, arrivals } = await contextWithCallback(false);
    try {
      const { url } = authorizeUrl(issuer, clientId, { response_mode: 'form_post' });
      await page.goto(url);
      await signIn(page);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      assert.equal(arrivals.at(-1)?.method, 'POST');
      assert.match(new URLSearchParams(arrivals.at(-1)?.body ?? '').get('code') ?? '', /^tac_/);
    } finally {
      await context.close();
    }
  });

  test('prompt=login: a signed-in browser is shown the login page again, then gets its code', {
    skip,
  }, async () => {
    const { context, page, arrivals } = await contextWithCallback(false);
    try {
      await page.goto(authorizeUrl(issuer, clientId).url);
      await signIn(page);
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      // Signed in; a request with prompt=login shows the login page, the signed-in address filled in.
      const { url, state } = authorizeUrl(issuer, clientId, { prompt: 'login' });
      await page.goto(url);
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal(await page.inputValue('#email'), 'ada@acme.test');
      await signIn(page);
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      const landed = new URL(page.url());
      assert.match(landed.searchParams.get('code') ?? '', /^tac_/);
      assert.equal(landed.searchParams.get('state'), state);
      assert.equal(arrivals.length, 2);
    } finally {
      await context.close();
    }
  });

  test('a cross-site POST to /oauth/authorize: the 303 to its GET carries the login cookie, so prompt=none gets a code', {
    skip,
  }, async () => {
    const { context, page, arrivals } = await contextWithCallback(true);
    try {
      await page.goto(authorizeUrl(issuer, clientId).url);
      await signIn(page);
      await page.waitForURL((u) => u.href.startsWith(CALLBACK));
      // The relying party's own page (another site: 127.0.0.1, not acme.localhost) posts the request.
      const { url, state } = authorizeUrl(issuer, clientId, { prompt: 'none' });
      const request = new URL(url);
      const inputs = [...request.searchParams]
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
        .join('');
      const start = `${new URL(CALLBACK).origin}/start`;
      await page.route(start, (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/html',
          body: `<form method="post" action="${request.origin}${request.pathname}">${inputs}</form><script>document.forms[0].submit()</script>`,
        }),
      );
      const cookiesSent: Record<string, boolean> = {};
      page.on('request', async (r) => {
        if (!r.url().startsWith(`${request.origin}/oauth/authorize`)) return;
        const cookie = (await r.allHeaders()).cookie ?? '';
        cookiesSent[r.method()] = cookie.includes('tessera_session');
      });
      await page.goto(start);
      await page.waitForURL((u) => u.href.startsWith(`${CALLBACK}?`));
      const landed = new URL(page.url());
      assert.match(landed.searchParams.get('code') ?? '', /^tac_/, 'signed in: no login_required');
      assert.equal(landed.searchParams.get('state'), state);
      assert.deepEqual(
        cookiesSent,
        { POST: false, GET: true },
        'the cookie stayed off the POST, came with its GET',
      );
      assert.equal(arrivals.length, 2);
    } finally {
      await context.close();
    }
  });
});
