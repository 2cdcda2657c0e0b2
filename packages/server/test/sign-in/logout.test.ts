import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { clock } from '../../src/domain/clock.js';
import type { Org } from '../../src/domain/types.js';
import { launchChromium } from '../support/chromium.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, readForm, signInThroughPages } from './support/browser.js';
import {
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  tokenRequest,
} from './support/fixtures.js';

const SIGNED_OUT = 'http://127.0.0.1:8765/signed-out';
const HOUR_MS = 3600_000;

/** A cookieless GET of the logout endpoint (no browser sign-in), redirects not followed. */
async function logoutWithoutCookies(issuer: string, params: Record<string, string>) {
  const response = await fetch(`${issuer}oauth/logout?${new URLSearchParams(params)}`, {
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), page: await response.text() };
}

/** What the authorization endpoint does for this browser now: sign it in silently, or show the login form. */
async function authorizeAgain(browser: FormBrowser, issuer: string, clientId: string): Promise<string> {
  const response = await browser.get(authorizeUrl(issuer, clientId, { scope: 'openid' }).url);
  assert.equal(response.status, 302);
  const location = new URL(response.headers.get('location') ?? '', issuer);
  return location.href.startsWith(CALLBACK) ? 'code' : location.pathname;
}

for (const database of httpSuite()) {
  describe(`RP-Initiated Logout on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let issuer: string;
    let org: Org;
    let clientId: string;
    let otherClientId: string;
    // A client the org did not make itself (first_party false), registering the same URI.
    let thirdPartyId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      issuer = server.issuer('acme');
      org = await makeOrg(server, 'acme');
      await makeUser(server.deps, org, 'ada@acme.test');
      await makeUser(server.deps, org, 'bob@acme.test');
      ({ clientId } = await makeClient(server.deps, org, { postLogoutRedirectUris: [SIGNED_OUT] }));
      ({ clientId: otherClientId } = await makeClient(server.deps, org, { name: 'Other' }));
      ({ clientId: thirdPartyId } = await makeClient(server.deps, org, {
        name: 'Third party',
        firstParty: false,
        postLogoutRedirectUris: [SIGNED_OUT],
      }));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    /** `email` signed in to the client with `scope=openid` in `browser`: their tokens. */
    async function signedIn(browser: FormBrowser, client = clientId, email = 'ada@acme.test') {
      const { url, verifier } = authorizeUrl(issuer, client, { scope: 'openid' });
      const callback = await signInThroughPages(browser, url, { email, password: PASSWORD });
      const { status, body } = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code: new URL(callback).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: client,
      });
      assert.equal(status, 200);
      return body as { id_token: string; refresh_token: string; access_token: string };
    }

    test('discovery names the end session endpoint', { skip }, async () => {
      const doc = (await (await fetch(`${issuer}.well-known/openid-configuration`)).json()) as Record<
        string,
        string
      >;
      assert.equal(doc.end_session_endpoint, `${issuer}oauth/logout`);
    });

    test('with the ID token as hint: signed out at once, back at the registered URI with state', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const tokens = await signedIn(browser);
      const other = await signedIn(browser, otherClientId);
      assert.equal(await authorizeAgain(browser, issuer, clientId), 'code', 'signed in: no prompt');

      const logout = new URL('oauth/logout', issuer);
      logout.search = new URLSearchParams({
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'st-42',
      }).toString();
      const response = await browser.get(logout.href);
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), `${SIGNED_OUT}?state=st-42`);
      assert.match(response.headers.getSetCookie().join('\n'), /tessera_session=;/);

      // The login form again, and every OAuth session of that browser has ended.
      assert.equal(await authorizeAgain(browser, issuer, clientId), '/login');
      for (const [token, client] of [
        [tokens.refresh_token, clientId],
        [other.refresh_token, otherClientId],
      ] as const) {
        const refreshed = await tokenRequest(issuer, {
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: client,
        });
        assert.equal(refreshed.status, 400);
        assert.equal((refreshed.body as { error: string }).error, 'invalid_grant');
      }
    });

    test('another browser of the same person stays signed in', { skip }, async () => {
      const here = new FormBrowser();
      const there = new FormBrowser();
      const tokens = await signedIn(here);
      const elsewhere = await signedIn(there);
      const logout = `${issuer}oauth/logout?id_token_hint=${tokens.id_token}`;
      const response = await here.get(logout);
      assert.equal(response.status, 200);
      assert.match(await response.text(), /<h1>You have signed out<\/h1>/);
      assert.equal(await authorizeAgain(there, issuer, clientId), 'code');
      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: elsewhere.refresh_token,
        client_id: clientId,
      });
      assert.equal(refreshed.status, 200);
    });

    test('a relying party’s form POST is answered with a 303 to the same request as a GET', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const tokens = await signedIn(browser);
      const fields = {
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'st-post',
      };
      const posted = await browser.post(`${issuer}oauth/logout`, { ...fields, ui_locales: 'en' });
      assert.equal(posted.status, 303);
      const get = new URL(posted.headers.get('location') ?? '', issuer);
      assert.equal(get.origin + get.pathname, `${issuer}oauth/logout`);
      assert.deepEqual(Object.fromEntries(get.searchParams), fields, 'the parameters it reads, nothing else');
      assert.equal(await authorizeAgain(browser, issuer, clientId), 'code', 'the POST itself ended nothing');
      const response = await browser.get(get.href);
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), `${SIGNED_OUT}?state=st-post`);
      assert.equal(await authorizeAgain(browser, issuer, clientId), '/login');
    });

    test('without a hint the person confirms first; a forged sign-out link changes nothing', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      await signedIn(browser);
      const url = `${issuer}oauth/logout?client_id=${clientId}&post_logout_redirect_uri=${encodeURIComponent(SIGNED_OUT)}&state=s1`;
      const page = await browser.get(url);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /<h1>Sign out\?<\/h1>/);
      assert.match(html, /You are signed in as <strong>ada@acme\.test<\/strong>/);
      assert.match(
        page.headers.get('content-security-policy') ?? '',
        /form-action 'self' http:\/\/127\.0\.0\.1:8765/,
      );
      // Not confirmed (no CSRF token): still signed in.
      const forged = await browser.post(`${issuer}oauth/logout`, { confirm: 'yes', client_id: clientId });
      assert.equal(forged.status, 200);
      assert.equal(await authorizeAgain(browser, issuer, clientId), 'code');

      const form = readForm(html);
      assert.deepEqual(Object.keys(form.hidden).sort(), [
        'client_id',
        'csrf',
        'post_logout_redirect_uri',
        'state',
      ]);
      const confirmed = await browser.post(new URL(form.action, issuer).href, {
        ...form.hidden,
        confirm: 'yes',
      });
      assert.equal(confirmed.status, 303);
      assert.equal(confirmed.headers.get('location'), `${SIGNED_OUT}?state=s1`);
      assert.equal(await authorizeAgain(browser, issuer, clientId), '/login');
    });

    test('a hint naming someone else asks first', { skip }, async () => {
      const bobs = new FormBrowser();
      const bob = await signedIn(bobs, clientId, 'bob@acme.test');
      const adas = new FormBrowser();
      await signedIn(adas);
      const page = await adas.get(`${issuer}oauth/logout?id_token_hint=${bob.id_token}`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<h1>Sign out\?<\/h1>/);
      assert.equal(await authorizeAgain(adas, issuer, clientId), 'code');
    });

    test('refused, as a page and never a redirect: an unregistered URI, a forged hint, a mismatched client', {
      skip,
    }, async () => {
      const { id_token: idToken } = await signedIn(new FormBrowser());
      const cases: [Record<string, string>, string][] = [
        [
          { client_id: clientId, post_logout_redirect_uri: 'http://127.0.0.1:8765/elsewhere' },
          'post_logout_redirect_uri is not registered for this client',
        ],
        [
          { client_id: otherClientId, post_logout_redirect_uri: SIGNED_OUT },
          'post_logout_redirect_uri is not registered for this client',
        ],
        [
          { post_logout_redirect_uri: SIGNED_OUT },
          'post_logout_redirect_uri needs client_id or id_token_hint',
        ],
        [{ id_token_hint: `${idToken.slice(0, -4)}AAAA` }, 'id_token_hint is not an ID token of this issuer'],
        [
          { id_token_hint: idToken, client_id: otherClientId },
          'client_id is not the audience of id_token_hint',
        ],
        [{ client_id: 'cli_nobody' }, 'no such client'],
      ];
      for (const [params, message] of cases) {
        const response = await fetch(`${issuer}oauth/logout?${new URLSearchParams(params)}`, {
          redirect: 'manual',
        });
        assert.equal(response.status, 400, JSON.stringify(params));
        assert.equal(response.headers.get('location'), null);
        assert.match(await response.text(), new RegExp(message), JSON.stringify(params));
      }
    });

    test('a self-registered post-logout URI without a hint of its client: the signed-out page, no redirect', {
      skip,
    }, async () => {
      // The attack as reported: register through /oauth/register, then send anyone to the logout URL.
      const registered = await fetch(`${server.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: ['http://127.0.0.1:9000/cb'],
          post_logout_redirect_uris: ['http://127.0.0.1:9000/bye'],
        }),
      });
      assert.equal(registered.status, 201);
      const { client_id: registeredId } = (await registered.json()) as { client_id: string };
      const cases: [string, Record<string, string>][] = [
        [
          `${server.base}/`,
          { client_id: registeredId, post_logout_redirect_uri: 'http://127.0.0.1:9000/bye', state: 's' },
        ],
        [issuer, { client_id: thirdPartyId, post_logout_redirect_uri: SIGNED_OUT, state: 's' }],
      ];
      for (const [at, params] of cases) {
        const answer = await logoutWithoutCookies(at, params);
        assert.equal(answer.status, 200, JSON.stringify(params));
        assert.equal(answer.location, null, JSON.stringify(params));
        assert.match(answer.page, /<h1>You have signed out<\/h1>/);
      }

      // Signed in here, no hint: the confirmation carries no redirect URI, and a form that adds one
      // is not a confirmation (its CSRF token is bound to the fields the page gave).
      const browser = new FormBrowser();
      await signedIn(browser);
      const url = `${issuer}oauth/logout?client_id=${thirdPartyId}&post_logout_redirect_uri=${encodeURIComponent(SIGNED_OUT)}&state=s2`;
      const page = await browser.get(url);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /<strong>Third party<\/strong> asks to sign you out/);
      assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /127\.0\.0\.1:8765/);
      const form = readForm(html);
      assert.deepEqual(Object.keys(form.hidden).sort(), ['client_id', 'csrf']);
      const forged = await browser.post(new URL(form.action, issuer).href, {
        ...form.hidden,
        post_logout_redirect_uri: SIGNED_OUT,
        confirm: 'yes',
      });
      assert.equal(forged.status, 200);
      assert.equal(forged.headers.get('location'), null);
      assert.match(await forged.text(), /<h1>Sign out\?<\/h1>/);
      assert.equal(await authorizeAgain(browser, issuer, clientId), 'code', 'still signed in');
      const confirmed = await browser.post(new URL(form.action, issuer).href, {
        ...form.hidden,
        confirm: 'yes',
      });
      assert.equal(confirmed.status, 200);
      assert.equal(confirmed.headers.get('location'), null);
      assert.match(await confirmed.text(), /<h1>You have signed out<\/h1>/);
      assert.equal(await authorizeAgain(browser, issuer, clientId), '/login');
    });

    test('redirected with a valid hint of that client, or to a first-party client’s URI without one', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const tokens = await signedIn(browser, thirdPartyId);
      const withHint = new URL('oauth/logout', issuer);
      withHint.search = new URLSearchParams({
        id_token_hint: tokens.id_token,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'st-3p',
      }).toString();
      const out = await browser.get(withHint.href);
      assert.equal(out.status, 303);
      assert.equal(out.headers.get('location'), `${SIGNED_OUT}?state=st-3p`);
      assert.equal(await authorizeAgain(browser, issuer, clientId), '/login');

      // The org's own client: its registered URI is the org's choice, no hint needed.
      const firstParty = await logoutWithoutCookies(issuer, {
        client_id: clientId,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'st-1p',
      });
      assert.equal(firstParty.status, 303);
      assert.equal(firstParty.location, `${SIGNED_OUT}?state=st-1p`);
    });

    test('a hint without this browser’s sign-in ends nothing: the session and its refresh token go on', {
      skip,
    }, async () => {
      const victim = new FormBrowser();
      const tokens = await signedIn(victim);
      const cases: [Record<string, string>, number][] = [
        [{ id_token_hint: tokens.id_token }, 200],
        [{ id_token_hint: tokens.id_token, post_logout_redirect_uri: SIGNED_OUT }, 303],
      ];
      for (const [params, status] of cases) {
        assert.equal((await logoutWithoutCookies(issuer, params)).status, status);
      }
      assert.equal(await authorizeAgain(victim, issuer, clientId), 'code', 'still signed in');
      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      assert.equal(refreshed.status, 200);
    });

    test('an expired hint is taken for 12 hours past its exp, for the redirect only', { skip }, async () => {
      const realNow = clock.now;
      const { id_token: idToken, refresh_token: refreshToken } = await signedIn(
        new FormBrowser(),
        thirdPartyId,
      );
      const exp = decodeJwt(idToken).exp ?? assert.fail('no exp');
      const params = { id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT };
      try {
        clock.now = () => exp * 1000 + 11 * HOUR_MS;
        const within = await logoutWithoutCookies(issuer, params);
        assert.equal(within.status, 303);
        assert.equal(within.location, SIGNED_OUT);
        clock.now = () => exp * 1000 + 12 * HOUR_MS + 60_000;
        const beyond = await logoutWithoutCookies(issuer, params);
        assert.equal(beyond.status, 400);
        assert.equal(beyond.location, null);
        assert.match(beyond.page, /id_token_hint expired more than 12 hours ago/);
      } finally {
        clock.now = realNow;
      }
      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: thirdPartyId,
      });
      assert.equal(refreshed.status, 200, 'the hint ended nothing');
    });

    test('the profile page has a sign-out button that ends the browser’s sign-in', { skip }, async () => {
      const browser = new FormBrowser();
      const { access_token: accessToken } = await signedIn(browser);
      const key = (await (
        await fetch(`${issuer}profile/session`, {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).json()) as { key: string };
      const opened = await browser.get(`${issuer}profile?key=${key.key}`);
      assert.equal(opened.status, 303);
      const profile = await browser.get(`${issuer}profile`);
      const html = await profile.text();
      const form = readForm(html, '/oauth/logout');
      assert.match(
        html,
        /<button type="submit" name="confirm" value="yes" class="secondary">Sign out<\/button>/,
      );
      const out = await browser.post(new URL(form.action, issuer).href, { ...form.hidden, confirm: 'yes' });
      assert.equal(out.status, 200);
      assert.match(await out.text(), /<h1>You have signed out<\/h1>/);
      assert.equal(await authorizeAgain(browser, issuer, clientId), '/login');
      assert.equal((await browser.get(`${issuer}profile`)).status, 401, 'the profile page is closed too');
    });

    test('dynamic registration keeps post_logout_redirect_uris, by the redirect URI rule', {
      skip,
    }, async () => {
      const register = (body: unknown) =>
        fetch(`${server.base}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const ok = await register({
        redirect_uris: ['http://127.0.0.1:9000/cb'],
        post_logout_redirect_uris: ['http://127.0.0.1:9000/bye'],
      });
      assert.equal(ok.status, 201);
      const client = (await ok.json()) as Record<string, unknown>;
      assert.deepEqual(client.post_logout_redirect_uris, ['http://127.0.0.1:9000/bye']);
      const plain = (await (
        await register({ redirect_uris: ['http://127.0.0.1:9000/cb'] })
      ).json()) as Record<string, unknown>;
      assert.equal('post_logout_redirect_uris' in plain, false, 'the spec’s object when none is registered');
      const bad = await register({
        redirect_uris: ['http://127.0.0.1:9000/cb'],
        post_logout_redirect_uris: ['http://evil.test/bye'],
      });
      assert.equal(bad.status, 400);
      const error = (await bad.json()) as { error: string; error_description: string };
      assert.equal(error.error, 'invalid_client_metadata');
      assert.match(error.error_description, /^post_logout_redirect_uris\[0\] /);
    });
  });
}

describe('RP-Initiated Logout in Chromium', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let issuer: string;
  let clientId: string;
  // The application: a real server on loopback that answers its redirect URIs.
  let app: Server;
  let appBase: string;

  before(async () => {
    if (skip) return;
    app = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end('at the client'),
    );
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appBase = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    server = await startServer({ webhooks: false });
    issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    ({ clientId } = await makeClient(server.deps, org, {
      redirectUris: [`${appBase}/callback`],
      postLogoutRedirectUris: [`${appBase}/signed-out`],
    }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    app?.close();
  });

  test('sign in, log out with id_token_hint, land with state; the next sign-in shows the login form', {
    skip,
  }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const first = authorizeUrl(issuer, clientId, { scope: 'openid', redirect_uri: `${appBase}/callback` });
    await page.goto(first.url);
    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    // First party: no consent page (DESIGN §14), straight back to the client.
    await page.waitForURL((u) => u.href.startsWith(`${appBase}/callback`));
    const { body } = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code: new URL(page.url()).searchParams.get('code') ?? '',
      redirect_uri: `${appBase}/callback`,
      code_verifier: first.verifier,
      client_id: clientId,
    });
    const idToken = (body as { id_token: string }).id_token;

    const logout = new URL('oauth/logout', issuer);
    logout.search = new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: `${appBase}/signed-out`,
      state: 'xyz',
    }).toString();
    await page.goto(logout.href);
    await page.waitForURL((u) => u.href.startsWith(`${appBase}/signed-out`));
    assert.equal(new URL(page.url()).searchParams.get('state'), 'xyz');

    await page.goto(
      authorizeUrl(issuer, clientId, { scope: 'openid', redirect_uri: `${appBase}/callback` }).url,
    );
    await page.waitForURL((u) => u.pathname === '/login');
    assert.equal(await page.locator('#password').count(), 1);
    await context.close();
  });
  test('a cross-site POST from the application ends the sign-in too (its 303 to the GET carries the cookie)', {
    skip,
  }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const first = authorizeUrl(issuer, clientId, { scope: 'openid', redirect_uri: `${appBase}/callback` });
    await page.goto(first.url);
    await page.fill('#email', 'ada@acme.test');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.href.startsWith(`${appBase}/callback`));
    const { body } = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code: new URL(page.url()).searchParams.get('code') ?? '',
      redirect_uri: `${appBase}/callback`,
      code_verifier: first.verifier,
      client_id: clientId,
    });
    const { id_token: idToken, refresh_token: refreshToken } = body as Record<string, string>;

    // The application's own page (another site than acme.localhost) posts the logout form.
    const fields = {
      id_token_hint: idToken,
      post_logout_redirect_uri: `${appBase}/signed-out`,
      state: 'by-post',
    };
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
      .join('');
    await page.route(`${appBase}/sign-out`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<form method="post" action="${issuer}oauth/logout">${inputs}</form><script>document.forms[0].submit()</script>`,
      }),
    );
    await page.goto(`${appBase}/sign-out`);
    await page.waitForURL((u) => u.href.startsWith(`${appBase}/signed-out`));
    assert.equal(new URL(page.url()).searchParams.get('state'), 'by-post');
    // Ended on the server, not only forgotten by the browser: the session's refresh token is dead.
    const refreshed = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken ?? '',
      client_id: clientId,
    });
    assert.equal(refreshed.status, 400, 'the OAuth session opened from that sign-in has ended');

    await page.goto(
      authorizeUrl(issuer, clientId, { scope: 'openid', redirect_uri: `${appBase}/callback` }).url,
    );
    await page.waitForURL((u) => u.pathname === '/login' || u.href.startsWith(`${appBase}/callback`));
    assert.equal(new URL(page.url()).pathname, '/login', 'signed out: the login form, not a code');
    await context.close();
  });
});
