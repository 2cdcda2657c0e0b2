import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { MAIL_LIMITS } from '../../src/domain/mail/mail-throttle.js';
import type { Org } from '../../src/domain/types.js';
import { launchChromium } from '../support/chromium.js';
import { tessera } from '../support/cli.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, readForm, signInThroughPages } from './support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  signIn,
  tokenRequest,
} from './support/fixtures.js';
import { type ReceivedMail, TestSmtp } from './support/smtp.js';

const NEW_PASSWORD = 'a brand new passphrase';

/** Signs in through the hosted pages with `openid email`: the token set, ID token included. */
async function openidSignIn(issuer: string, clientId: string, email: string, password: string) {
  const { url, verifier } = authorizeUrl(issuer, clientId, { scope: 'openid email' });
  const callback = await signInThroughPages(new FormBrowser(), url, { email, password });
  const { status, body } = await tokenRequest(issuer, {
    grant_type: 'authorization_code',
    code: new URL(callback).searchParams.get('code') ?? '',
    redirect_uri: CALLBACK,
    code_verifier: verifier,
    client_id: clientId,
  });
  assert.equal(status, 200, JSON.stringify(body));
  return { idToken: decodeJwt(body.id_token as string), accessToken: body.access_token as string };
}

/** One submission of the login form: its status (200/303 signed in, 400 refused). */
async function loginStatus(issuer: string, email: string, password: string): Promise<number> {
  const browser = new FormBrowser();
  const url = new URL('login', issuer).href;
  const page = await (await browser.get(url)).text();
  return (await browser.submit(url, page, { email, password })).status;
}

/** POST /password/forgot from `ip` and a fresh browser (unless given one): status, Retry-After and the page. */
async function askReset(issuer: string, email: string, ip = '203.0.113.7', browser = new FormBrowser()) {
  const url = new URL('password/forgot', issuer).href;
  const from = { 'x-forwarded-for': ip };
  const form = readForm(await (await browser.request(url, { headers: from })).text());
  const response = await browser.request(new URL(form.action, url).href, {
    method: 'POST',
    headers: { ...from, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form.hidden, email }).toString(),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    page: await response.text(),
  };
}

/**
 * Signs `email` in through the login page with `browser`, then ends that session the way time does
 * (the login cookie gone): a browser that signed in before, holding its device cookie.
 */
async function signedInBefore(issuer: string, email: string, browser: FormBrowser) {
  const url = new URL('login', issuer).href;
  const response = await browser.submit(url, await (await browser.get(url)).text(), {
    email,
    password: PASSWORD,
  });
  assert.equal(response.status, 303);
  const jar = browser.cookies(issuer);
  assert.ok(jar.has('tessera_device'), 'a device cookie');
  jar.delete('tessera_session');
  return browser;
}

const refresh = (issuer: string, clientId: string, refreshToken: string) =>
  tokenRequest(issuer, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

/** Opens the hosted profile page in `browser` with a profile key made from `accessToken`. */
async function openProfile(issuer: string, browser: FormBrowser, accessToken: string) {
  const key = (await api(issuer, 'POST', 'profile/session', accessToken)).body.key as string;
  const url = new URL(`profile?key=${encodeURIComponent(key)}`, issuer).href;
  const redirect = await browser.get(url);
  const profileUrl = locationOf(redirect, url);
  return { profileUrl, page: await (await browser.get(profileUrl)).text() };
}

function assertMailShape(mail: ReceivedMail, orgName: string) {
  assert.ok(mail.subject.includes(orgName), `the subject names the org: ${mail.subject}`);
  assert.ok(mail.text.length > 0, 'a plain-text part');
  assert.ok(mail.html.includes('<a href='), 'an HTML part with the link');
  assert.ok(mail.link !== null && mail.html.includes(mail.link.replace(/&/g, '&amp;')));
}

for (const database of storageSuite(
  "the mail throttles count through the password throttle's multi-row upsert (login-attempts.ts countAttempts)",
)) {
  describe(`mail on ${database}: reset, verification, password change`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'one requester asking too often for an address waits; others do, past the address’s ceiling',
      'anonymous requests for an address do not block its owner’s own browser',
    ]);
    // SQLite's run logs in to the SMTP server with a user and password; PostgreSQL's sends without.
    const smtp = new TestSmtp(database === 'sqlite' ? { user: 'tessera', pass: 'smtp pass' } : null);
    let server: TestServer;
    let org: Org;
    let issuer: string;
    let clientId: string;

    before(async () => {
      if (skip) return;
      await smtp.start();
      server = await startServer({
        database,
        env: {
          TESSERA_SMTP_URL: smtp.url,
          TESSERA_TRUST_PROXY: '1',
          TESSERA_MAIL_FROM: 'Acme <no-reply@acme.test>',
        },
      });
      org = await makeOrg(server, 'acme');
      issuer = server.issuer('acme');
      ({ clientId } = await makeClient(server.deps, org));
      await makeUser(server.deps, org, 'ada@acme.test');
      await makeUser(server.deps, org, 'bob@acme.test');
      await makeUser(server.deps, org, 'carol@acme.test');
    });
    after(async () => {
      if (skip) return;
      await server?.close();
      await smtp.close();
    });

    test('an unknown address gets the same page and no mail; a known one a one-time link', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const login = await (await browser.get(new URL('login', issuer).href)).text();
      assert.match(login, /<a href="\/password\/forgot">Forgot password\?<\/a>/);

      const sessions = [
        await signIn(issuer, clientId, 'ada@acme.test'),
        await signIn(issuer, clientId, 'ada@acme.test'),
      ];
      const before = smtp.mails.length;
      const unknown = await askReset(issuer, 'nobody@acme.test', '203.0.113.1');
      const known = await askReset(issuer, 'ada@acme.test', '203.0.113.2');
      assert.equal(unknown.status, 200);
      assert.equal(known.status, 200);
      assert.equal(unknown.page, known.page, 'the same page, byte for byte');
      assert.match(known.page, /If an account uses that address/);

      // Mails go out one at a time in the order their answers did: the unknown address's turn came
      // first, so by the time the known one's mail is here, it would have arrived too.
      const mail = await smtp.next('ada@acme.test', before);
      assert.deepEqual(
        smtp.mails.slice(before).map((m) => m.to),
        [['ada@acme.test']],
        'one mail, to the known address',
      );
      assert.equal(mail.from, 'no-reply@acme.test');
      assertMailShape(mail, 'acme');
      assert.match(mail.subject, /^Reset your acme password$/);
      const link = mail.link as string;
      assert.match(link, new RegExp(`^${issuer}password/reset\\?token=tpr_`));
      if (database === 'sqlite')
        assert.ok(smtp.authenticated.includes('tessera'), 'logged in to the SMTP server');

      // A link scanner's GET does not spend the link; the form does.
      const scanner = new FormBrowser();
      assert.equal((await scanner.get(link)).status, 200);
      assert.equal((await scanner.get(link)).status, 200);

      const skipChromium = chromiumSkip();
      if (skipChromium) {
        const person = new FormBrowser();
        const page = await (await person.get(link)).text();
        const done = await person.submit(link, page, {
          password: NEW_PASSWORD,
          password_confirm: NEW_PASSWORD,
        });
        assert.equal(done.status, 200);
      } else {
        let chrome: Browser | undefined;
        try {
          chrome = await launchChromium();
          const context = await chrome.newContext({ javaScriptEnabled: false });
          const page = await context.newPage();
          await page.goto(link);
          assert.equal(await page.title(), 'Choose a new password · acme');
          await page.fill('#password', NEW_PASSWORD);
          await page.fill('#password_confirm', NEW_PASSWORD);
          await page.click('button[type=submit]');
          await page.waitForSelector('text=Your password is changed');
          assert.equal(await page.title(), 'Password changed · acme');
        } finally {
          await chrome?.close();
        }
      }

      const again = await new FormBrowser().get(link);
      assert.equal(again.status, 400, 'the link works once');
      assert.match(await again.text(), /This link no longer works/);
      assert.equal(await loginStatus(issuer, 'ada@acme.test', PASSWORD), 400, 'the old password fails');
      await signIn(issuer, clientId, 'ada@acme.test', new FormBrowser(), NEW_PASSWORD);
      for (const session of sessions) {
        const res = await refresh(issuer, clientId, session.refreshToken);
        assert.equal(res.status, 400);
        assert.equal(res.body.error, 'invalid_grant', 'the sessions from before the reset ended');
      }
    });

    test('one requester asking too often for an address waits; others do, past the address’s ceiling', {
      skip,
    }, async () => {
      for (let i = 0; i < MAIL_LIMITS.perAddressAndIp; i++) {
        assert.equal((await askReset(issuer, 'flood@acme.test', '198.51.100.1')).status, 200);
      }
      const refused = await askReset(issuer, 'flood@acme.test', '198.51.100.1');
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.retryAfter) > 0 && Number(refused.retryAfter) <= 15 * 60);
      assert.match(refused.page, /Try again in \d+ minutes?\./);
      // That requester's count is not the address's: from elsewhere it may still be asked for...
      let accepted = MAIL_LIMITS.perAddressAndIp;
      for (let i = 2; accepted < MAIL_LIMITS.perAddress; i++, accepted++) {
        assert.equal((await askReset(issuer, 'flood@acme.test', `198.51.100.${i}`)).status, 200);
      }
      // ...until strangers together reach the address's ceiling for the hour.
      const ceiling = await askReset(issuer, 'flood@acme.test', '198.51.100.99');
      assert.equal(ceiling.status, 429);
      assert.ok(Number(ceiling.retryAfter) > 15 * 60 && Number(ceiling.retryAfter) <= 60 * 60);
      // Per client address, across addresses.
      let last = 0;
      for (let i = 0; i <= MAIL_LIMITS.perIp; i++) {
        last = (await askReset(issuer, `many${i}@acme.test`, '192.0.2.50')).status;
      }
      assert.equal(last, 429);
    });

    test('anonymous requests for an address do not block its owner’s own browser', { skip }, async () => {
      await makeUser(server.deps, org, 'erin@acme.test');
      await makeUser(server.deps, org, 'fred@acme.test');
      const own = await signedInBefore(issuer, 'erin@acme.test', new FormBrowser());
      const freds = await signedInBefore(issuer, 'fred@acme.test', new FormBrowser());
      let seen = smtp.mails.length;

      // The attack of issue #25: three requests from other addresses. The address stays open.
      const first = await askReset(issuer, 'erin@acme.test', '198.51.100.21');
      assert.equal(first.status, 200);
      for (const ip of ['198.51.100.22', '198.51.100.23', '198.51.100.24']) {
        assert.equal((await askReset(issuer, 'erin@acme.test', ip)).status, 200, ip);
      }
      // More strangers fill the address's ceiling: strangers wait now, a stranger's cookie with them.
      for (let i = 4; i < MAIL_LIMITS.perAddress; i++) {
        assert.equal((await askReset(issuer, 'erin@acme.test', `198.51.100.${30 + i}`)).status, 200);
      }
      assert.equal((await askReset(issuer, 'erin@acme.test', '198.51.100.60')).status, 429);
      assert.equal(
        (await askReset(issuer, 'erin@acme.test', '192.0.2.61', freds)).status,
        429,
        'fred’s cookie',
      );
      for (let i = 0; i < MAIL_LIMITS.perAddress; i++) {
        seen = smtp.mails.indexOf(await smtp.next('erin@acme.test', seen)) + 1;
      }

      // Erin's own browser asks, and the link comes.
      const before = smtp.mails.length;
      const mine = await askReset(issuer, 'erin@acme.test', '192.0.2.60', own);
      assert.equal(mine.status, 200);
      assert.equal(mine.page, first.page, 'the same page as anyone’s');
      const mail = await smtp.next('erin@acme.test', before);
      assert.match(mail.subject, /^Reset your acme password$/);
      assert.match(mail.link ?? '', /\/password\/reset\?token=/);

      // Her browser has a limit of its own.
      for (let i = 1; i < MAIL_LIMITS.perDevice; i++) {
        assert.equal((await askReset(issuer, 'erin@acme.test', `192.0.2.${60 + i}`, own)).status, 200);
      }
      const waits = await askReset(issuer, 'erin@acme.test', '192.0.2.60', own);
      assert.equal(waits.status, 429);
      assert.ok(Number(waits.retryAfter) > 0 && Number(waits.retryAfter) <= 15 * 60);
    });

    test('sign-up mails a verification link; following it sets email_verified', { skip }, async () => {
      const browser = new FormBrowser();
      const signupUrl = new URL('signup', issuer).href;
      const page = await (await browser.get(signupUrl)).text();
      const created = await browser.submit(signupUrl, page, { email: 'dora@acme.test', password: PASSWORD });
      assert.equal(created.status, 303, 'signed up and signed in');
      const mail = await smtp.next('dora@acme.test');
      assertMailShape(mail, 'acme');
      assert.equal(mail.subject, 'Confirm your email address for acme');
      const link = mail.link as string;
      assert.match(link, new RegExp(`^${issuer}email/verify\\?token=tev_`));

      const first = await openidSignIn(issuer, clientId, 'dora@acme.test', PASSWORD);
      assert.equal(first.idToken.email_verified, false);
      assert.equal(
        (await api(issuer, 'GET', 'oauth/userinfo', first.accessToken)).body.email_verified,
        false,
      );

      const person = new FormBrowser();
      const confirmPage = await (await person.get(link)).text();
      assert.match(confirmPage, /Confirm that <strong>dora@acme\.test<\/strong>/);
      const confirmed = await person.submit(link, confirmPage, {});
      assert.equal(confirmed.status, 200);
      assert.match(await confirmed.text(), /dora@acme\.test is confirmed/);
      assert.equal((await person.submit(link, confirmPage, {})).status, 400, 'once only');

      const second = await openidSignIn(issuer, clientId, 'dora@acme.test', PASSWORD);
      assert.equal(second.idToken.email_verified, true);
      const info = await api(issuer, 'GET', 'oauth/userinfo', second.accessToken);
      assert.equal(info.body.email_verified, true);
    });

    test('password change needs the current password and ends the other sessions', { skip }, async () => {
      const here = new FormBrowser();
      const mine = await signIn(issuer, clientId, 'bob@acme.test', here);
      const elsewhere = new FormBrowser();
      const other = await signIn(issuer, clientId, 'bob@acme.test', elsewhere);
      const { profileUrl, page } = await openProfile(issuer, here, mine.accessToken);
      const form = readForm(page, '/profile/password');
      const action = new URL(form.action, profileUrl).href;

      const wrong = await here.post(action, {
        ...form.hidden,
        current_password: 'not it at all',
        new_password: NEW_PASSWORD,
      });
      assert.equal(wrong.status, 400);
      assert.match(await wrong.text(), /Your current password is not right/);
      assert.equal((await refresh(issuer, clientId, other.refreshToken)).status, 200, 'nothing ended');

      const changed = await here.post(action, {
        ...form.hidden,
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      });
      assert.equal(changed.status, 200);
      assert.match(await changed.text(), /Your password is changed/);
      assert.equal(await loginStatus(issuer, 'bob@acme.test', PASSWORD), 400);
      // The other browser is signed out; this one stays signed in.
      const otherLogin = await elsewhere.get(new URL('login', issuer).href);
      assert.match(await otherLogin.text(), /<h1>Sign in<\/h1>/);
      const hereLogin = await here.get(new URL('login', issuer).href);
      assert.match(await hereLogin.text(), /You are signed in/);
      // Every OAuth session's refresh token is refused; the app signs in again from this browser.
      const latest = await refresh(issuer, clientId, other.refreshToken);
      assert.equal(latest.body.error, 'invalid_grant');
      assert.equal((await refresh(issuer, clientId, mine.refreshToken)).body.error, 'invalid_grant');
    });

    test('an address change needs the password, unverifies the address and mails both addresses', {
      skip,
    }, async () => {
      const here = new FormBrowser();
      const signedIn = await signIn(issuer, clientId, 'carol@acme.test', here);
      const { profileUrl, page } = await openProfile(issuer, here, signedIn.accessToken);
      const form = readForm(page, '/profile/email');
      const action = new URL(form.action, profileUrl).href;
      const wrong = await here.post(action, {
        ...form.hidden,
        step: 'change',
        email: 'caro@acme.test',
        password: 'nope nope',
      });
      assert.equal(wrong.status, 400);
      const taken = await here.post(action, {
        ...form.hidden,
        step: 'change',
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      assert.equal(taken.status, 409);
      const before = smtp.mails.length;
      const changed = await here.post(action, {
        ...form.hidden,
        step: 'change',
        email: 'caro@acme.test',
        password: PASSWORD,
      });
      assert.equal(changed.status, 200);
      assert.match(await changed.text(), /not confirmed yet/);
      const notice = await smtp.next('carol@acme.test', before);
      assert.match(notice.subject, /acme email address was changed/);
      assert.equal(notice.link, null, 'the notice has no link');
      const verify = await smtp.next('caro@acme.test', before);
      const person = new FormBrowser();
      const confirmPage = await (await person.get(verify.link as string)).text();
      assert.equal((await person.submit(verify.link as string, confirmPage, {})).status, 200);
      const tokens = await openidSignIn(issuer, clientId, 'caro@acme.test', PASSWORD);
      assert.equal(tokens.idToken.email, 'caro@acme.test');
      assert.equal(tokens.idToken.email_verified, true);
    });
  });
}

describe('mail configuration', () => {
  test('without TESSERA_SMTP_URL on loopback, each mail is one JSON log line', async () => {
    const logs: string[] = [];
    const server = await startServer({ logs });
    try {
      const org = await makeOrg(server, 'devco');
      await makeUser(server.deps, org, 'ada@devco.test');
      const issuer = server.issuer('devco');
      assert.equal((await askReset(issuer, 'ada@devco.test')).status, 200);
      const mailLines = () =>
        logs
          .flatMap((chunk) => chunk.split('\n'))
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.subject !== undefined);
      // The mail is written after the answer: wait for its line (the test's own time limit bounds this).
      while (mailLines().length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const lines = mailLines();
      assert.equal(lines.length, 1);
      const line = lines[0] as Record<string, unknown>;
      assert.equal(line.to, 'ada@devco.test');
      assert.equal(line.subject, 'Reset your devco password');
      assert.match(line.text as string, /password\/reset\?token=tpr_/);
    } finally {
      await server.close();
    }
  });

  test('a bad TESSERA_SMTP_URL or TESSERA_MAIL_FROM stops start-up with one line naming it', async () => {
    for (const bad of ['mail.example.com', 'http://mail.example.com', 'smtp://']) {
      assert.throws(
        () => loadConfig({ TESSERA_SMTP_URL: bad }),
        (e: unknown) =>
          e instanceof ConfigError && /^TESSERA_SMTP_URL must be an smtp:\/\/ or smtps:\/\//.test(e.message),
      );
    }
    assert.throws(
      () => loadConfig({ TESSERA_MAIL_FROM: 'Acme <no-reply>\r\nBcc: x@y.z' }),
      /^ConfigError: TESSERA_MAIL_FROM/,
    );
    const config = loadConfig({
      TESSERA_SMTP_URL: 'smtps://u:p@127.0.0.1:465',
      TESSERA_URL: 'https://id.acme.test',
    });
    assert.equal(config.smtpUrl, 'smtps://u:p@127.0.0.1:465');
    assert.equal(config.mailFrom, 'Tessera <no-reply@id.acme.test>');

    const run = await tessera(['serve'], { TESSERA_SMTP_URL: 'smtp//user:secret-pass@127.0.0.1' });
    assert.equal(run.code, 1);
    assert.equal(run.stdout.trim().split('\n').length, 1, 'one line');
    assert.equal(
      run.json?.msg,
      'TESSERA_SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@mail.example.com:465',
    );
    assert.ok(!run.stdout.includes('secret-pass'), 'the value is not repeated');
  });
});
