import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Org } from '../../src/domain/types.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { authorizeUrl, CALLBACK, makeClient, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { TestSmtp } from '../sign-in/support/smtp.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  assertAccessible,
  DESKTOP,
  launchChromium,
  PHONE,
  review,
  signInToConsole,
} from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

/**
 * The hosted pages people meet on the way to an app or the console (login, its error state,
 * sign-up, consent, profile) pass the same accessibility check as the console, at both sizes.
 */
describe('hosted pages: accessibility and screenshots', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let clientId: string;
  let acme: Org;
  const smtp = new TestSmtp();

  before(async () => {
    if (skip) return;
    await smtp.start();
    server = await startServer({
      consoleDir: await consoleBuild(),
      webhooks: false,
      env: { TESSERA_SMTP_URL: smtp.url },
    });
    acme = await ownedOrg(server, 'acme');
    await makeUser(server.deps, acme, 'ada@acme.test');
    ({ clientId } = await makeClient(server.deps, acme, { name: 'Acme Notes', firstParty: false }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp.close();
  });

  test('login, a failed login, sign-up and consent on an org issuer', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.route(`${new URL(CALLBACK).origin}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
    );
    await page.goto(authorizeUrl(server.issuer('acme'), clientId).url);
    await page.waitForURL((u) => u.pathname === '/login');
    await review(page, 'hosted-login');

    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', 'not the password');
    await page.click('button[type=submit]');
    await page.getByText('Incorrect email or password.').waitFor();
    await review(page, 'hosted-login-failed');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL((u) => u.pathname === '/signup');
    await review(page, 'hosted-signup');
    await page.getByRole('link', { name: 'Sign in' }).click();

    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/consent');
    await review(page, 'hosted-consent');
    await page.click('button[value=allow]');
    await page.waitForURL((u) => u.href.startsWith(CALLBACK));
    await context.close();
  });

  test('the console asks no consent for itself; its consent page with prompt=consent; the profile page', {
    skip,
  }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${server.base}/console/`);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.fill('#email', 'owner@acme.test');
    await page.fill('#password', 'owner password 1');
    await page.click('button[type=submit]');
    // The console's own client: no consent page, straight into the console.
    await page.waitForSelector('header.topbar');

    await page.getByRole('button', { name: 'Your profile' }).click();
    await page.waitForURL((u) => u.pathname === '/profile' && u.search === '');
    await page.getByRole('heading', { name: 'Your profile' }).waitFor();
    await review(page, 'hosted-profile');

    // Asked for explicitly (prompt=consent), its consent page names every scope in plain words.
    const consentUrl = new URL('/oauth/authorize', server.base);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: 'cli_console',
      redirect_uri: `${server.base}/console/callback`,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 'review',
      prompt: 'consent',
    })) {
      consentUrl.searchParams.set(name, value);
    }
    await page.goto(consentUrl.href);
    await page.waitForURL((u) => u.pathname === '/consent');
    assert.match(
      (await page.textContent('.card')) ?? '',
      /Tessera console wants to use your account owner@acme\.test/,
    );
    await review(page, 'hosted-consent-console');
    await context.close();

    // The next sign-in asks nothing more.
    const again = await browser.newContext({ viewport: DESKTOP });
    const next = await signInToConsole(again, server, 'owner@acme.test');
    // The app shows its bar first, then goes on from /console/ to the first org.
    await next.waitForURL((u) => u.pathname === '/console/o/acme/settings');
    await again.close();
  });

  test('the domains sign-up: its form, the mailed answer and the mailed link’s page', { skip }, async () => {
    const owner = await (await consoleOf(server)).token('owner@acme.test');
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const settings = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
      sign_up: 'domains',
      sign_up_domains: ['acme.test'],
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    const seen = smtp.mails.length;
    await page.goto(`${server.issuer('acme')}signup`);
    await review(page, 'hosted-signup-domains');
    await page.fill('#email', 'linus@acme.test');
    await page.click('button[type=submit]');
    await page.getByText('a link to finish it is on its way').waitFor();
    await review(page, 'hosted-signup-mailed');
    const link = (await smtp.next('linus@acme.test', seen)).link ?? assert.fail('no link in the mail');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Finish your account' }).waitFor();
    await review(page, 'hosted-signup-finish');
    await context.close();
  });

  /** axe at phone size (390×844), then axe and screenshots at desktop size (1280×800) as review does. */
  async function reviewBothSizes(page: Page, name: string): Promise<void> {
    await page.setViewportSize(PHONE);
    await assertAccessible(page, `${name} at phone size`);
    await page.setViewportSize(DESKTOP);
    await review(page, name);
  }

  test('the device pages: the code form, a wrong code, the confirmation, connected and denied', {
    skip,
  }, async () => {
    const issuer = server.issuer('acme');
    const { clientId: cliId } = await makeClient(server.deps, acme, {
      name: 'Acme CLI',
      redirectUris: [],
      grantTypes: ['urn:ietf:params:oauth:grant-type:device_code'],
    });
    const startDevice = async () => {
      const response = await fetch(new URL('oauth/device_authorization', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: cliId, scope: 'openid' }).toString(),
      });
      assert.equal(response.status, 200);
      return (await response.json()) as { user_code: string; verification_uri: string };
    };
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const first = await startDevice();
    await page.goto(first.verification_uri);
    await page.getByRole('heading', { name: 'Connect a device' }).waitFor();
    await reviewBothSizes(page, 'hosted-device-code');

    await page.fill('#user_code', 'BCDF-GHJK');
    await page.click('button[type=submit]');
    await page.waitForLoadState();
    await page.getByRole('heading', { name: 'Connect a device' }).waitFor();
    await reviewBothSizes(page, 'hosted-device-code-error');

    await page.fill('#user_code', first.user_code);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/login');
    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Allow a device?' }).waitFor();
    await reviewBothSizes(page, 'hosted-device-confirm');
    await page.click('button[value=allow]');
    await page.getByRole('heading', { name: 'Device connected' }).waitFor();
    await reviewBothSizes(page, 'hosted-device-connected');

    const second = await startDevice();
    await page.goto(second.verification_uri);
    await page.fill('#user_code', second.user_code);
    await page.click('button[type=submit]');
    await page.getByRole('heading', { name: 'Allow a device?' }).waitFor();
    await page.click('button[value=deny]');
    await page.getByRole('heading', { name: 'Request denied' }).waitFor();
    await reviewBothSizes(page, 'hosted-device-denied');
    await context.close();
  });

  test('the signed-out page with its front-channel frames; the error page of an unknown pushed request', {
    skip,
  }, async () => {
    const issuer = server.issuer('acme');
    // The front-channel page is on the fixtures' loopback client host, answered here: no request leaves.
    const frontChannel = `${new URL(CALLBACK).origin}/front-channel-logout`;
    const { clientId: rp } = await makeClient(server.deps, acme, {
      name: 'Acme Wiki',
      firstParty: true,
      frontchannelLogoutUri: frontChannel,
      frontchannelLogoutSessionRequired: true,
    });
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const framed: string[] = [];
    await page.route(`${new URL(CALLBACK).origin}/**`, (route) => {
      if (route.request().url().startsWith(frontChannel)) framed.push(route.request().url());
      return route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><html lang="en"><title>Signed out</title><p>Signed out</p></html>',
      });
    });
    await page.goto(authorizeUrl(issuer, rp, { scope: 'openid' }).url);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.href.startsWith(CALLBACK));

    await page.goto(new URL('oauth/logout', issuer).href);
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    await page.click('button[value=yes]');
    await page.getByRole('heading', { name: 'You have signed out' }).waitFor();
    assert.equal(await page.locator('iframe').count(), 1);
    await reviewBothSizes(page, 'hosted-signed-out-frames');
    assert.ok(framed.length >= 1, 'the front-channel page was framed');

    const par = new URL('oauth/authorize', issuer);
    par.searchParams.set('client_id', rp);
    par.searchParams.set('request_uri', 'urn:ietf:params:oauth:request_uri:unknown');
    const answer = await page.goto(par.href);
    assert.equal(answer?.status(), 400);
    await reviewBothSizes(page, 'hosted-par-error');
    await context.close();
  });
});
