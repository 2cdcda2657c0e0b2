import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { updateOrgSettings } from '../../src/domain/directory/org-settings.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { assertAccessible, launchChromium } from '../console/support/console-browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  signIn,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Chromium with a CDP virtual authenticator (CTAP2, platform, resident keys, user verification):
 * a passkey added on the profile page signs in on the login page with nothing typed, counts as two
 * factors (also where the org requires a second factor), and stops working once removed.
 */
describe('passkeys in Chromium', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let issuer: string;
  let org: Org;
  let clientId: string;
  let accessToken: string;

  before(async () => {
    if (skip) return;
    server = await startServer();
    issuer = server.issuer('acme');
    org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    ({ clientId } = await makeClient(server.deps, org, { name: 'Acme Notes', firstParty: true }));
    ({ accessToken } = await signIn(issuer, clientId, 'ada@acme.test'));
    browser = await launchChromium();
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    await server?.close();
  });

  async function authenticatorPage(
    context: BrowserContext,
  ): Promise<{ page: Page; cdp: CDPSession; id: string }> {
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
    return { page, cdp, id: authenticatorId };
  }

  async function openProfile(page: Page) {
    const key = (await api(issuer, 'POST', 'profile/session', accessToken)).body.key as string;
    await page.goto(new URL(`profile?key=${encodeURIComponent(key)}`, issuer).href);
    await page.waitForURL((u) => u.pathname === '/profile');
  }

  /** Authorizes with `scope=openid` through the login page's passkey button; returns the tokens. */
  async function passkeySignIn(page: Page) {
    const { url, verifier } = authorizeUrl(issuer, clientId, { scope: 'openid' });
    await page.goto(url);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((u) => u.href.startsWith(CALLBACK) || u.pathname === '/consent');
    // `openid` is asked for once: the first sign-in consents to it.
    if (new URL(page.url()).pathname === '/consent') await page.click('button[value=allow]');
    await page.waitForURL((u) => u.href.startsWith(CALLBACK));
    const code = new URL(page.url()).searchParams.get('code') ?? '';
    const { status, body } = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: clientId,
    });
    assert.equal(status, 200, JSON.stringify(body));
    return { access: decodeJwt(body.access_token as string), id: decodeJwt(body.id_token as string) };
  }

  test('add a passkey, sign in with it, require MFA, remove it', { skip }, async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const { page, cdp, id } = await authenticatorPage(context);

    // The page without a passkey: the add control is shown once the script saw WebAuthn.
    await openProfile(page);
    await page.locator('#passkey-register').waitFor({ state: 'visible' });
    assert.equal(await page.locator('[data-passkey-unsupported]').isVisible(), false);
    assert.match((await page.textContent('.card')) ?? '', /You have no passkeys yet/);
    await assertAccessible(page, 'profile page with passkeys');

    await page.fill('#passkey_name', 'Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.waitForURL((u) => u.pathname === '/profile/passkeys');
    const card = (await page.textContent('.card')) ?? '';
    assert.match(card, /Passkey “Work laptop” added\./);
    assert.match(card, /Work laptop\s*Added [A-Z][a-z]{2} \d{1,2}, \d{4} · never used/);
    await assertAccessible(page, 'profile page listing a passkey');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId: id });
    assert.equal(credentials.length, 1);
    const credential = credentials[0];
    assert.ok(credential?.isResidentCredential, 'a discoverable credential');
    assert.equal(credential?.rpId, 'acme.localhost');

    // A fresh sign-in in this browser (no login cookie yet): no address, no password.
    await page.goto(authorizeUrl(issuer, clientId).url);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor({ state: 'visible' });
    await assertAccessible(page, 'login page with the passkey button');
    const first = await passkeySignIn(page);
    for (const claims of [first.access, first.id]) {
      assert.deepEqual(claims.amr, ['hwk', 'user', 'mfa']);
      assert.equal(claims.acr, 'urn:tessera:acr:mfa');
    }

    // The org now requires a second factor: a passkey sign-in is one, no code is asked for.
    await updateOrgSettings(server.deps, org, { requireMfa: true }, SYSTEM);
    await context.clearCookies();
    const second = await passkeySignIn(page);
    assert.equal(second.access.acr, 'urn:tessera:acr:mfa');
    // …and the browser session it started still counts afterwards (it is not password-only).
    await page.goto(new URL('login', issuer).href);
    assert.match((await page.textContent('.card')) ?? '', /You are signed in/);

    // Removed on the profile page, the passkey no longer signs in.
    await openProfile(page);
    assert.match((await page.textContent('.card')) ?? '', /Work laptop\s*Added .+ · last used/);
    await page.getByRole('button', { name: 'Remove the passkey Work laptop' }).click();
    await page.waitForURL((u) => u.pathname === '/profile/passkeys/remove');
    assert.match((await page.textContent('.card')) ?? '', /Passkey “Work laptop” removed\./);
    await context.clearCookies();
    await page.goto(authorizeUrl(issuer, clientId).url);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    const problem = page.locator('#passkey-sign-in [role=alert]');
    await problem.waitFor({ state: 'visible' });
    assert.match((await problem.textContent()) ?? '', /not registered here/);
    assert.equal(new URL(page.url()).pathname, '/login');
    await assertAccessible(page, 'login page with a passkey refusal');

    // Audited without key material.
    const entries = await server.db
      .selectFrom('audit_events')
      .select(['key', 'data'])
      .where('org_id', '=', org.id)
      .where('key', 'in', ['passkey.created', 'passkey.deleted', 'user.login'])
      .orderBy('id')
      .execute();
    const keys = entries.map((e) => e.key);
    assert.deepEqual(
      keys.filter((k) => k.startsWith('passkey.')),
      ['passkey.created', 'passkey.deleted'],
    );
    const passkeyLogins = entries.filter((e) => e.key === 'user.login' && e.data.includes('"hwk"'));
    assert.equal(passkeyLogins.length, 2);
    for (const entry of entries) {
      assert.ok(!entry.data.includes(credential?.credentialId ?? '?'), 'no credential id');
      assert.ok(!/publicKey|public_key|privateKey/.test(entry.data), 'no key');
    }
    const created = JSON.parse(entries.find((e) => e.key === 'passkey.created')?.data ?? '{}');
    assert.equal(created.name, 'Work laptop');
    await context.close();
  });

  test('without WebAuthn the login page keeps its password form and shows no passkey button', {
    skip,
  }, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(authorizeUrl(issuer, clientId).url);
    await page.waitForURL((u) => u.pathname === '/login');
    assert.equal(await page.locator('#password').isVisible(), true);
    assert.equal(await page.getByRole('button', { name: 'Sign in with a passkey' }).isVisible(), false);
    await context.close();
  });
});
