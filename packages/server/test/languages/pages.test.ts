import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { insertUserWithTenant, prepareUser } from '../../src/domain/directory/users.js';
import { LOCALES, type Locale } from '../../src/domain/locales.js';
import { CATALOGS, MESSAGE_KEYS, Texts } from '../../src/domain/texts/index.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { launchChromium, PHONE, seriousViolations } from '../console/support/console-browser.js';
import { SteerableOidcUpstream } from '../federation/support/oidc-upstream.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { enrolOnProfile, secretOnPage, totpCode } from '../second-factor-and-delegation/support.js';
import { FormBrowser, locationOf, readForm } from '../sign-in/support/browser.js';
import { DEVICE_GRANT, enterCode, follow, startDevice } from '../sign-in/support/device-flow.js';
import { authorizeUrl, makeClient, makeUser, PASSWORD, signIn } from '../sign-in/support/fixtures.js';
import { TestSmtp } from '../sign-in/support/smtp.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { chromiumSkip } from '../support/environment.js';
import { screenshot } from '../support/screenshot.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * The user's language (issue 47, docs/languages.md): every hosted page in every language, with no
 * English left in a non-English page, axe-clean, Arabic right to left; `ui_locales`, the saved
 * locale, Accept-Language and the org's default choose it; the org's own words override the
 * catalog's, escaped, and are checked on write. Pages are fetched as HTML; one Chromium runs axe on
 * that HTML and keeps phone-width screenshots in test-results/languages/.
 */

const SCREENSHOTS = fileURLToPath(new URL('../../../../test-results/languages/', import.meta.url));

/** Words the same in English and another language, and names that are never translated. */
const SAME_IN_BOTH = new Set(['Code', 'Passkeys', 'Website', 'Error', 'Tessera', 'Authy', '1Password']);

/** A header as its RFC 2047 encoded words say (`=?UTF-8?Q?…?=`, as the mailer writes non-ASCII). */
const decodeHeader = (value: string) =>
  value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, q: string) =>
    Buffer.from(
      q
        .replace(/_/g, ' ')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
      'latin1',
    ).toString('utf8'),
  );

/** The text a person reads on a page: its text nodes (titles included), entities decoded. */
function pageText(page: string): string[] {
  return page
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ')
    .split(/<[^>]*>/)
    .map((s) =>
      s
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
        .trim(),
    )
    .filter((s) => s !== '');
}

/** A message's literal pieces: the text between its `{arguments}` (plural branches included). */
function piecesOf(message: string): string[] {
  let flat = message;
  // Innermost `{…}` first: an argument, or a plural/select branch whose words are pieces too.
  for (let i = 0; i < 10 && flat.includes('{'); i++) {
    flat = flat.replace(/\{([^{}]*)\}/g, (_, inner: string) =>
      /^\w+(,|$)/.test(inner) ? '\u0001' : `\u0001${inner}\u0001`,
    );
  }
  return flat
    .split('\u0001')
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => /[A-Za-z]{2,}/.test(p) && (p.includes(' ') || p.length >= 4));
}

const ENGLISH_PIECES = [...new Set(MESSAGE_KEYS.flatMap((key) => piecesOf(CATALOGS.en[key])))];

/** The English catalog's words found in `page`'s text, less the allow-list: what a translation missed. */
function englishLeftIn(page: string): string[] {
  const text = pageText(page);
  return ENGLISH_PIECES.filter(
    (piece) =>
      !SAME_IN_BOTH.has(piece) &&
      text.some((node) => node === piece || (piece.length >= 12 && node.includes(piece))),
  );
}

/** Each page type's screenshot in English and Arabic (right to left); the login page in every language. */
const SCREENSHOT_LOCALES: readonly Locale[] = ['en', 'ar'];

for (const database of storageSuite(
  'a user’s saved locale, an org’s default locale and its stored message overrides are written and read back',
)) {
  describe(`the user’s language (${database})`, async () => {
    const skip = (await databaseSkip(database)) || chromiumSkip();
    // What is not storage (the page matrix, negotiation, escaping) runs on SQLite only.
    const storageTest = storageTestsOn(database, [
      'the org’s default locale and a user’s saved locale choose the language',
      'owners override texts per language: checked on write, escaped on the page',
    ]);
    let server: TestServer;
    let acme: Org;
    let clientId: string;
    let owner: string;
    let browser: Browser | null = null;
    let upstream: SteerableOidcUpstream | undefined;
    const smtp = new TestSmtp();

    before(async () => {
      if (skip) return;
      await smtp.start();
      server = await startServer({
        database,
        webhooks: false,
        // The enterprise sign-in pages' upstream is an OpenID provider on 127.0.0.1.
        env: { TESSERA_SMTP_URL: smtp.url, TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      });
      acme = await ownedOrg(server, 'acme');
      await makeUser(server.deps, acme, 'ada@acme.test');
      ({ clientId } = await makeClient(server.deps, acme, { name: 'Acme Notes', firstParty: false }));
      owner = await (await consoleOf(server)).token('owner@acme.test');
    });
    after(async () => {
      await browser?.close();
      await upstream?.close();
      await server?.close();
      await smtp.close();
    });

    /** GET `url` in `locale` (the switcher's `lang`), with a fresh browser unless given one. */
    async function fetchPage(url: string, locale: Locale, b = new FormBrowser()) {
      const target = new URL(url);
      target.searchParams.set('lang', locale);
      const response = await b.get(target.href);
      return { status: response.status, headers: response.headers, html: await response.text() };
    }

    /** Every kind of hosted page a person can meet without an account of theirs, in `locale`. */
    async function everyPage(locale: Locale): Promise<Record<string, string>> {
      const issuer = server.issuer('acme');
      const pages: Record<string, string> = {};
      const b = new FormBrowser();
      const login = await fetchPage(authorizeUrl(issuer, clientId).url, locale, b);
      const loginUrl = locationOf(new Response(null, { status: 302, headers: login.headers }), issuer);
      pages.login = (await fetchPage(loginUrl, locale, b)).html;
      // A failed sign-in (its error message), then the consent page after a right one.
      const failed = await b.submit(loginUrl, pages.login, {
        email: 'ada@acme.test',
        password: 'wrong password',
      });
      pages['login-failed'] = await failed.text();
      const signedIn = await b.submit(loginUrl, pages.login, { email: 'ada@acme.test', password: PASSWORD });
      const consentUrl = locationOf(signedIn, loginUrl);
      pages.consent = (await fetchPage(consentUrl, locale, b)).html;
      pages['signed-in'] = (await fetchPage(`${issuer}login`, locale, b)).html;
      pages['sign-out'] = (await fetchPage(`${issuer}oauth/logout`, locale, b)).html;
      pages.signup = (await fetchPage(`${issuer}signup`, locale)).html;
      const forgot = new FormBrowser();
      pages.forgot = (await fetchPage(`${issuer}password/forgot`, locale, forgot)).html;
      const form = readForm(pages.forgot);
      const sent = await forgot.post(new URL(form.action, `${issuer}password/forgot`).href, {
        ...form.hidden,
        email: 'nobody@acme.test',
      });
      pages['forgot-sent'] = await sent.text();
      pages['reset-closed'] = (await fetchPage(`${issuer}password/reset?token=unknown`, locale)).html;
      pages['verify-closed'] = (await fetchPage(`${issuer}email/verify?token=unknown`, locale)).html;
      pages.device = (await fetchPage(`${issuer}device`, locale)).html;
      pages['invitation-closed'] = (await fetchPage(`${issuer}invitation?token=unknown`, locale)).html;
      pages['signed-out'] = (await fetchPage(`${issuer}oauth/logout`, locale)).html;
      pages.error = (await fetchPage(`${issuer}consent?req=arq_unknown`, locale)).html;

      // The pages behind an account, a mailed link or a connection, from what setUp() prepared.
      const at = await staged();
      pages.profile = (await fetchPage(at.profile.url, locale, at.profile.browser)).html;
      pages['second-factor'] = (await fetchPage(at.challenge.url, locale, at.challenge.browser)).html;
      pages['second-factor-enrol'] = (await fetchPage(at.enrol.url, locale, at.enrol.browser)).html;
      // Set up: the recovery codes, shown once (a person of the strict org per language).
      const enrolling = new FormBrowser();
      const email = `uma-${locale.toLowerCase()}@strict.test`;
      await makeUser(server.deps, at.strict, email);
      const enrolUrl = await passwordStep(server.issuer('strict'), at.strictClient, email, enrolling);
      const enrolPage = await fetchPage(enrolUrl, locale, enrolling);
      let enrolled = await enrolling.submit(enrolUrl, enrolPage.html, {
        code: totpCode(secretOnPage(enrolPage.html)),
      });
      if (enrolled.status === 303) enrolled = await enrolling.get(locationOf(enrolled, enrolUrl));
      pages['recovery-codes'] = await enrolled.text();
      pages.reset = (await fetchPage(at.reset, locale)).html;
      // A rule broken on a form: its words are the page's language too (the link is not spent).
      const resetBrowser = new FormBrowser();
      const resetPage = await fetchPage(at.reset, locale, resetBrowser);
      const weak = await resetBrowser.submit(at.reset, resetPage.html, {
        password: 'short',
        password_confirm: 'short',
      });
      pages['reset-weak'] = await weak.text();
      const signupBrowser = new FormBrowser();
      const signupPage = await fetchPage(`${issuer}signup`, locale, signupBrowser);
      const refused = await signupBrowser.submit(`${issuer}signup`, signupPage.html, {
        email: 'not an address',
        password: 'short',
        password_confirm: 'short',
      });
      pages['signup-refused'] = await refused.text();
      pages.invitation = (await fetchPage(at.invitation, locale)).html;
      pages['sso-link'] = (await fetchPage(at.ssoLink.url, locale, at.ssoLink.browser)).html;
      pages['sso-refused'] = (await fetchPage(`${issuer}sso/${at.connection}/callback`, locale)).html;
      pages['sso-link-sent'] = (
        await upstreamSignIn(at.connection, `lin-${locale.toLowerCase()}@corp.test`, locale)
      ).html;
      // A device allowed by the person signed in above (its confirmation, then its done page).
      const device = await startDevice(issuer, at.cliId);
      const entered = await enterCode(b, issuer, device.body.user_code as string);
      const confirm = await follow(b, entered.response, entered.pageUrl);
      pages['device-confirm'] = confirm.text;
      pages['device-done'] = await (await b.submit(confirm.url, confirm.text, { decision: 'allow' })).text();
      // A first-party application asking for form_post: the page that posts the code back.
      const formPost = authorizeUrl(issuer, at.portalId, { response_mode: 'form_post', ui_locales: locale });
      const posted = await b.get(formPost.url);
      assert.equal(posted.status, 200);
      pages['form-post'] = await posted.text();
      return pages;
    }

    /** The next mail to `to` after mail number `after`; a failure naming what came instead after 60 s. */
    async function mailTo(to: string, after: number, page = '') {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const got = smtp.mails.slice(after).map((m) => `${m.to} ${m.subject}`);
          reject(new Error(`no mail to ${to}; got: ${got.join(', ')}\n${pageText(page).join(' ')}`));
        }, 60_000);
      });
      try {
        return await Promise.race([smtp.next(to, after), late]);
      } finally {
        clearTimeout(timer);
      }
    }

    /** What the pages behind an account, a mailed link or a connection need, made once. */
    interface Stage {
      profile: { url: string; browser: FormBrowser };
      challenge: { url: string; browser: FormBrowser };
      enrol: { url: string; browser: FormBrowser };
      reset: string;
      invitation: string;
      ssoLink: { url: string; browser: FormBrowser };
      connection: string;
      cliId: string;
      portalId: string;
      /** The org that requires a second factor, and its client. */
      strict: Org;
      strictClient: string;
    }
    let stage: Promise<Stage> | undefined;
    const staged = () => {
      stage ??= setUp();
      return stage;
    };

    /** The login page, its password step and the page it leads to (a second factor's), in `b`. */
    async function passwordStep(issuer: string, client: string, email: string, b: FormBrowser) {
      const authorize = authorizeUrl(issuer, client).url;
      const loginUrl = locationOf(await b.get(authorize), authorize);
      const passed = await b.submit(loginUrl, await (await b.get(loginUrl)).text(), {
        email,
        password: PASSWORD,
      });
      return locationOf(passed, loginUrl);
    }

    /** A sign-in through the connection as `email` (an account of the org never verified): the page it ends on. */
    async function upstreamSignIn(connection: string, email: string, locale: Locale) {
      const issuer = server.issuer('acme');
      const b = new FormBrowser();
      await b.get(`${issuer}login?lang=${locale}`);
      (upstream as SteerableOidcUpstream).email = email;
      let url = `${issuer}sso/${connection}/start`;
      let response = await b.get(url);
      for (let hop = 0; hop < 6 && (response.status === 302 || response.status === 303); hop++) {
        url = locationOf(response, url);
        response = await b.get(url);
      }
      const html = await response.text();
      assert.equal(response.status, 200, html);
      return { browser: b, html };
    }

    async function setUp(): Promise<Stage> {
      const issuer = server.issuer('acme');
      const portalId = (await makeClient(server.deps, acme, { name: 'Acme Portal', firstParty: true }))
        .clientId;
      const cliId = (
        await makeClient(server.deps, acme, {
          name: 'Acme CLI',
          redirectUris: [],
          grantTypes: [DEVICE_GRANT],
          firstParty: true,
        })
      ).clientId;
      // Tom has an authenticator app: his profile shows it, and his sign-in asks for a code.
      await makeUser(server.deps, acme, 'tom@acme.test');
      const enrolled = await enrolOnProfile(
        issuer,
        (await signIn(issuer, portalId, 'tom@acme.test')).accessToken,
      );
      const challengeBrowser = new FormBrowser();
      const challenge = await passwordStep(issuer, clientId, 'tom@acme.test', challengeBrowser);
      assert.match(challenge, /second-factor/);
      // An org that requires a second factor: Uma is asked to set one up.
      const strict = await ownedOrg(server, 'strict');
      const strictOwner = await (await consoleOf(server)).token('owner@strict.test');
      const required = await call(server, 'PATCH', '/organizations/strict/settings', strictOwner, {
        require_mfa: true,
      });
      assert.equal(required.status, 200, required.text);
      await makeUser(server.deps, strict, 'uma@strict.test');
      const strictClient = (await makeClient(server.deps, strict, { name: 'Strict Notes', firstParty: true }))
        .clientId;
      const enrolBrowser = new FormBrowser();
      const enrol = await passwordStep(
        server.issuer('strict'),
        strictClient,
        'uma@strict.test',
        enrolBrowser,
      );
      assert.match(enrol, /enrol/);
      // A reset link that works, and an invitation that does.
      const forgot = new FormBrowser();
      const forgotUrl = `${issuer}password/forgot`;
      const seen = smtp.mails.length;
      await forgot.submit(forgotUrl, await (await forgot.get(forgotUrl)).text(), { email: 'ada@acme.test' });
      const reset = (await mailTo('ada@acme.test', seen)).link ?? assert.fail('no reset link');
      const invited = await call(server, 'POST', '/organizations/acme/invitations', owner, {
        email: 'new@acme.test',
        send_mail: false,
      });
      assert.equal(invited.status, 201, invited.text);
      // An enterprise connection: its button on the login page, its proof of an existing account.
      upstream = await SteerableOidcUpstream.start();
      const created = await call(server, 'POST', '/organizations/acme/connections', owner, {
        type: 'oidc',
        name: 'Corp SSO',
        domains: ['corp.test'],
        jit: true,
        issuer: upstream.issuer,
        client_id: 'tessera',
        client_secret: 'upstream client secret 0123456789',
      });
      assert.equal(created.status, 201, created.text);
      // Accounts made by sign-up and never verified: signing in through the connection mails a proof.
      for (const locale of ['proof', ...LOCALES]) {
        const email = `lin-${locale.toLowerCase()}@corp.test`;
        const { input, passwordHash } = await prepareUser({ email, password: PASSWORD });
        const signedUp = { input: { ...input, origin: 'sign_up' as const }, passwordHash };
        await server.deps.unitOfWork.run((tx) => insertUserWithTenant(tx, acme.id, signedUp, SYSTEM));
      }
      const connection = created.body.id as string;
      const sent = smtp.mails.length;
      const proof = await upstreamSignIn(connection, 'lin-proof@corp.test', 'en');
      const link =
        (await mailTo('lin-proof@corp.test', sent, proof.html)).link ?? assert.fail('no proof link');
      return {
        profile: enrolled,
        challenge: { url: challenge, browser: challengeBrowser },
        enrol: { url: enrol, browser: enrolBrowser },
        reset,
        invitation: invited.body.url as string,
        ssoLink: { url: link, browser: proof.browser },
        connection,
        cliId,
        portalId,
        strict,
        strictClient,
      };
    }

    storageTest(
      'every page in every language: no English left, lang and dir set, axe-clean',
      { skip },
      async () => {
        browser = await launchChromium();
        const context = await browser.newContext({ viewport: PHONE });
        const page = await context.newPage();
        const problems: string[] = [];
        for (const locale of LOCALES) {
          const pages = await everyPage(locale);
          for (const [name, html] of Object.entries(pages)) {
            if (!html.includes(`<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`))
              problems.push(`${name} (${locale}): not lang="${locale}" with its direction`);
            const english = locale === 'en' ? [] : englishLeftIn(html);
            if (english.length > 0)
              problems.push(`${name} (${locale}): English left: ${english.join(' | ')}`);
            // The page as served, its markup and stylesheet; nothing is fetched, no script runs (form_post's
            // would post the code away).
            await page.setContent(html.replace(/<script\b[\s\S]*?<\/script>/g, ''), { waitUntil: 'load' });
            problems.push(...(await seriousViolations(page)).map((v) => `${name} (${locale}): ${v}`));
            if (name === 'login' || SCREENSHOT_LOCALES.includes(locale)) {
              await screenshot(page, `${SCREENSHOTS}${name}-${locale}-phone.png`);
              const overflow = await page.evaluate(
                () => document.documentElement.scrollWidth - window.innerWidth,
              );
              if (overflow > 0) problems.push(`${name} (${locale}): scrolls sideways at phone width`);
            }
          }
        }
        assert.deepEqual(problems, []);
        await context.close();
      },
    );

    storageTest(
      'the English check catches English: an English page read as German fails it',
      { skip },
      async () => {
        const { html } = await fetchPage(`${server.issuer('acme')}password/forgot`, 'en');
        assert.ok(englishLeftIn(html).includes('Forgot your password?'), englishLeftIn(html).join(' | '));
      },
    );

    storageTest(
      'ui_locales=de: German pages through the flow and a German reset mail',
      { skip },
      async () => {
        const issuer = server.issuer('acme');
        const b = new FormBrowser();
        const authorize = authorizeUrl(issuer, clientId, { ui_locales: 'de-AT en' }).url;
        const loginUrl = locationOf(await b.get(authorize), authorize);
        const login = await (await b.get(loginUrl)).text();
        assert.match(login, /<html lang="de" dir="ltr">/);
        assert.match(login, /<h1>Anmelden<\/h1>/);
        // The forgot link keeps the request, so its page and the mail it sends are German too.
        const forgotHref =
          /href="([^"]*password\/forgot[^"]*)"/.exec(login)?.[1]?.replace(/&amp;/g, '&') ?? '';
        assert.match(forgotHref, /req=arq_/);
        const forgotUrl = new URL(forgotHref, loginUrl).href;
        const forgot = await (await b.get(forgotUrl)).text();
        assert.match(forgot, /<h1>Passwort vergessen\?<\/h1>/);
        const seen = smtp.mails.length;
        const sent = await b.submit(forgotUrl, forgot, { email: 'ada@acme.test' });
        assert.match(await sent.text(), /Sehen Sie in Ihr Postfach/);
        const mail = await smtp.next('ada@acme.test', seen);
        assert.equal(decodeHeader(mail.subject), 'Setzen Sie Ihr Passwort für acme zurück');
        assert.match(
          mail.text,
          /hat angefordert, das Passwort Ihres Kontos bei acme, ada@acme\.test, zurückzusetzen/,
        );
        assert.match(mail.html, /<html lang="de" dir="ltr">/);
        assert.match(mail.text, /Neues Passwort wählen:/);
      },
    );

    storageTest(
      'Arabic is right to left; the switcher links keep the request and set a cookie',
      {
        skip,
      },
      async () => {
        const issuer = server.issuer('acme');
        const b = new FormBrowser();
        const authorize = authorizeUrl(issuer, clientId).url;
        const loginUrl = locationOf(await b.get(authorize), authorize);
        const first = await (await b.get(loginUrl)).text();
        const arabic =
          /href="([^"]*)" lang="ar" hreflang="ar"/.exec(first)?.[1]?.replace(/&amp;/g, '&') ?? '';
        assert.match(arabic, /^\/login\?req=arq_[^&]+&lang=ar$/);
        const response = await b.get(new URL(arabic, issuer).href);
        assert.equal(response.headers.get('content-language'), 'ar');
        assert.match(await response.text(), /<html lang="ar" dir="rtl">/);
        // Remembered for the next page without `lang`.
        const next = await (await b.get(`${issuer}password/forgot`)).text();
        assert.match(next, /<html lang="ar" dir="rtl">/);
      },
    );

    storageTest('garbage, huge and header-shaped languages change nothing', { skip }, async () => {
      const issuer = server.issuer('acme');
      for (const lang of ['de%0d%0aSet-Cookie:%20x=1', 'xx', 'de'.repeat(5000), '../../etc']) {
        const response = await fetch(`${issuer}login?lang=${lang}`, { headers: { 'accept-language': 'fr' } });
        assert.equal(response.status, 200);
        assert.deepEqual(
          response.headers.getSetCookie().filter((c) => c.includes('tessera_locale')),
          [],
        );
        assert.equal(response.headers.get('content-language'), 'fr');
      }
      const huge = authorizeUrl(issuer, clientId, { ui_locales: `${'zz '.repeat(2000)}de` }).url;
      const b = new FormBrowser();
      const redirect = await b.get(huge);
      assert.equal(redirect.status, 302);
      const page = await b.get(locationOf(redirect, huge));
      assert.equal(page.headers.get('content-language'), 'en');
      // A cookie not signed by the server is no choice.
      const forged = await fetch(`${issuer}login`, { headers: { cookie: 'tessera_locale=ja' } });
      assert.equal(forged.headers.get('content-language'), 'en');
      // A crafted 12 KB query is not copied into the page once per language: the links keep only `lang`.
      const padded = `${issuer}oauth/authorize?client_id=nope&pad=${'x'.repeat(12_000)}`;
      const refused = await fetch(padded);
      assert.equal(refused.status, 400);
      const body = await refused.text();
      assert.ok(body.length < 12_000, `the page is ${body.length} characters`);
      assert.match(body, /href="\/oauth\/authorize\?lang=de" lang="de" hreflang="de"/);
    });

    storageTest('discovery names the languages', { skip }, async () => {
      const doc = (await (
        await fetch(`${server.issuer('acme')}.well-known/openid-configuration`)
      ).json()) as Record<string, unknown>;
      assert.deepEqual(doc.ui_locales_supported, ['en', 'de', 'fr', 'es', 'ja', 'pt-BR', 'ar']);
      assert.deepEqual(doc.claims_locales_supported, ['en', 'de', 'fr', 'es', 'ja', 'pt-BR', 'ar']);
    });

    storageTest(
      'the org’s default locale and a user’s saved locale choose the language',
      { skip },
      async () => {
        const other = await ownedOrg(server, 'bravo');
        await makeUser(server.deps, other, 'eve@bravo.test');
        const token = await (await consoleOf(server)).token('owner@bravo.test');
        const set = await call(server, 'PATCH', '/organizations/bravo/settings', token, {
          default_locale: 'ja',
        });
        assert.equal(set.status, 200, set.text);
        assert.equal(set.body.default_locale, 'ja');
        assert.equal(
          (await call(server, 'GET', '/organizations/bravo/settings', token)).body.default_locale,
          'ja',
        );
        const bad = await call(server, 'PATCH', '/organizations/bravo/settings', token, {
          default_locale: 'tlh',
        });
        assert.equal(bad.status, 400);
        assert.equal(bad.body.error, 'invalid_request');
        const issuer = server.issuer('bravo');
        const plain = await fetch(`${issuer}login`);
        assert.match(await plain.text(), /<h1>ログイン<\/h1>/);
        // Accept-Language comes before the org's default.
        const browserSays = await fetch(`${issuer}login`, {
          headers: { 'accept-language': 'es-MX,es;q=0.9' },
        });
        assert.match(await browserSays.text(), /<h1>Iniciar sesión<\/h1>/);
        // The saved locale comes before Accept-Language: the signed-in page of a user whose locale is pt-BR.
        const users = await call(server, 'GET', '/organizations/bravo/users?q=eve', token);
        const eve = users.body.find((u: { email: string }) => u.email === 'eve@bravo.test') ?? users.body[0];
        const saved = await call(server, 'PATCH', `/organizations/bravo/users/${eve.id}`, token, {
          locale: 'pt-BR',
        });
        assert.equal(saved.status, 200, saved.text);
        const b = new FormBrowser();
        const form = await (await b.get(`${issuer}login`)).text();
        assert.equal(
          (await b.submit(`${issuer}login`, form, { email: 'eve@bravo.test', password: PASSWORD })).status,
          303,
        );
        const signedIn = await b.request(`${issuer}login`, { headers: { 'accept-language': 'de' } });
        assert.match(await signedIn.text(), /<h1>Você está conectado<\/h1>/);
      },
    );

    storageTest(
      'owners override texts per language: checked on write, escaped on the page',
      { skip },
      async () => {
        const path = '/organizations/acme/texts/de';
        const put = await call(server, 'PATCH', path, owner, {
          messages: {
            'login.title': '<script>alert(1)</script> Willkommen bei Acme',
            'login.throttled': 'Bitte {minutes, plural, one {eine Minute} other {# Minuten}} warten.',
          },
        });
        assert.equal(put.status, 200, put.text);
        assert.deepEqual(put.body, {
          locale: 'de',
          catalog: CATALOGS.de,
          messages: {
            'login.throttled': 'Bitte {minutes, plural, one {eine Minute} other {# Minuten}} warten.',
            'login.title': '<script>alert(1)</script> Willkommen bei Acme',
          },
        });
        assert.deepEqual((await call(server, 'GET', path, owner)).body, put.body);
        const page = await (await fetch(`${server.issuer('acme')}login?lang=de`)).text();
        assert.match(page, /<h1>&lt;script&gt;alert\(1\)&lt;\/script&gt; Willkommen bei Acme<\/h1>/);
        assert.ok(!page.includes('<script>alert'));
        // Only German changed.
        assert.match(
          await (await fetch(`${server.issuer('acme')}login?lang=fr`)).text(),
          /<h1>Connexion<\/h1>/,
        );

        const refusals: [unknown, string][] = [
          [
            { messages: { 'login.nonsense': 'x' } },
            'messages.login.nonsense: no such message in the catalog',
          ],
          [{ messages: { 'login.title': 'Hallo {' } }, 'messages.login.title: not a valid ICU message'],
          [
            { messages: { 'login.title': 'Hallo {email}' } },
            'messages.login.title: unknown argument {email}; this message takes none',
          ],
          [
            { messages: { 'signed_in.as': '{email, plural, other {#}}' } },
            'messages.signed_in.as: {email} is text here, not a number',
          ],
          [
            { messages: { 'login.title': 42 } },
            'messages.login.title: Invalid input: expected string, received number',
          ],
          [{ messages: {}, extra: true }, 'unknown field: extra'],
        ];
        for (const [body, detail] of refusals) {
          const refused = await call(server, 'PATCH', path, owner, body);
          assert.equal(refused.status, 400, refused.text);
          assert.equal(refused.body.error, 'invalid_request');
          assert.match(refused.body.error_detail, new RegExp(detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        }
        assert.equal((await call(server, 'GET', '/organizations/acme/texts/tlh', owner)).status, 404);
        // null goes back to the catalog's words.
        const reset = await call(server, 'PATCH', path, owner, { messages: { 'login.title': null } });
        assert.deepEqual(Object.keys(reset.body.messages), ['login.throttled']);
        assert.match(
          await (await fetch(`${server.issuer('acme')}login?lang=de`)).text(),
          /<h1>Anmelden<\/h1>/,
        );
        await call(server, 'PATCH', path, owner, { messages: { 'login.throttled': null } });
      },
    );

    storageTest(
      'attacks on overrides: markup around a value, nested plurals and selects, huge, another org’s',
      { skip },
      async () => {
        const issuer = server.issuer('acme');
        const path = '/organizations/acme/texts/de';
        // Markup around a value that is markup itself (the signed-in address): the org's markup is text.
        const wrapped = '<a href="javascript:alert(1)">{email}</a> {email, select, other {[{email}]}}';
        const set = await call(server, 'PATCH', path, owner, { messages: { 'signed_in.as': wrapped } });
        assert.equal(set.status, 200, set.text);
        const b = new FormBrowser();
        const form = await (await b.get(`${issuer}login`)).text();
        await b.submit(`${issuer}login`, form, { email: 'ada@acme.test', password: PASSWORD });
        const page = await (await b.get(`${issuer}login?lang=de`)).text();
        assert.ok(
          page.includes(
            '<p>&lt;a href=&quot;javascript:alert(1)&quot;&gt;<strong>ada@acme.test</strong>&lt;/a&gt; [<strong>ada@acme.test</strong>]</p>',
          ),
          page,
        );
        assert.ok(!page.includes('<a href="javascript'));

        // Plurals in selects in plurals: checked, stored, formatted with the count.
        const nested =
          '{minutes, plural, one {{minutes, select, other {eine Minute}}} other {{minutes, plural, =2 {zwei Minuten} other {# Minuten}}}}';
        const deep = await call(server, 'PATCH', path, owner, {
          messages: { 'throttled.later': 'Später.', 'login.throttled': nested },
        });
        assert.equal(deep.status, 200, deep.text);
        const texts = new Texts('de', new Map(Object.entries(deep.body.messages as Record<string, string>)));
        assert.deepEqual(
          [1, 2, 5].map((minutes) => texts.t('login.throttled', { minutes })),
          ['eine Minute', 'zwei Minuten', '5 Minuten'],
        );
        // A text where the catalog's message takes a number must not take the count as a date.
        const dated = await call(server, 'PATCH', path, owner, {
          messages: { 'login.throttled': '{minutes, date, short}' },
        });
        assert.equal(dated.status, 400, dated.text);

        // Huge: one message over the limit, too many keys, a body far past both; nothing stored.
        const before = (await call(server, 'GET', path, owner)).body.messages;
        const huge: [unknown, number][] = [
          [{ messages: { 'login.title': 'x'.repeat(2001) } }, 400],
          [{ messages: Object.fromEntries(MESSAGE_KEYS.slice(0, 101).map((k) => [k, 'x'])) }, 400],
          [{ messages: { 'login.title': 'x'.repeat(3_000_000) } }, 413],
        ];
        for (const [body, status] of huge) {
          const refused = await call(server, 'PATCH', path, owner, body);
          assert.equal(refused.status, status, refused.text.slice(0, 200));
          assert.equal(refused.body.error, 'invalid_request');
        }
        assert.deepEqual((await call(server, 'GET', path, owner)).body.messages, before);

        // Another org: its pages keep the catalog's words, and its owner cannot read or write acme's.
        await ownedOrg(server, 'charlie');
        const charlie = await (await consoleOf(server)).token('owner@charlie.test');
        await call(server, 'PATCH', path, owner, { messages: { 'login.title': 'Nur bei Acme' } });
        assert.match(await (await fetch(`${issuer}login?lang=de`)).text(), /<h1>Nur bei Acme<\/h1>/);
        assert.match(
          await (await fetch(`${server.issuer('charlie')}login?lang=de`)).text(),
          /<h1>Anmelden<\/h1>/,
        );
        for (const method of ['GET', 'PATCH']) {
          const crossed = await call(
            server,
            method,
            path,
            charlie,
            method === 'GET' ? undefined : { messages: { 'login.title': 'x' } },
          );
          assert.ok([403, 404].includes(crossed.status), `${method} ${crossed.status}`);
        }
        const own = await call(server, 'GET', '/organizations/charlie/texts/de', charlie);
        assert.deepEqual(own.body.messages, {});
        assert.equal(own.body.catalog['login.title'], 'Anmelden');
        await call(server, 'PATCH', path, owner, {
          messages: {
            'login.title': null,
            'signed_in.as': null,
            'login.throttled': null,
            'throttled.later': null,
          },
        });
      },
    );

    storageTest('the passkey button’s refusals speak the page’s language', { skip }, async () => {
      const issuer = server.issuer('acme');
      const decode = (v: string) => v.replace(/&amp;/g, '&');
      const post = async (b: FormBrowser, url: string, body: unknown) => {
        const response = await b.request(new URL(url, issuer).href, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      for (const locale of LOCALES) {
        const b = new FormBrowser();
        const login = await (await b.get(`${issuer}login?lang=${locale}`)).text();
        const box =
          /<div id="passkey-sign-in" data-options="([^"]*)" data-verify="([^"]*)" data-csrf="([^"]*)"/.exec(
            login,
          );
        assert.ok(box, 'the login page offers a passkey');
        const [, options = '', verify = '', csrf = ''] = box.map(decode);
        const started = await post(b, options, { csrf });
        assert.equal(started.status, 200, JSON.stringify(started.body));
        // An answer no passkey of this org made: refused in the page's words, whatever the reason.
        const refused = await post(b, verify, {
          csrf,
          credential: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
            clientExtensionResults: {},
          },
        });
        assert.equal(refused.status, 400, JSON.stringify(refused.body));
        const words = (
          ['passkeys.refused.unknown', 'passkeys.refused.sign_in', 'passkeys.refused.expired'] as const
        ).map((key) => CATALOGS[locale][key]);
        assert.ok(
          words.includes(refused.body.error_detail as string),
          `${locale}: ${refused.body.error_detail}`,
        );
        // A sign-in request that is gone: the situation's words, in these endpoints' body.
        const gone = await post(b, `${issuer}login/passkey/options?req=arq_gone`, { csrf });
        assert.equal(gone.status, 400, JSON.stringify(gone.body));
        assert.equal(gone.body.error_detail, CATALOGS[locale]['situation.sign_in.request.expired']);
      }
    });
  });
}
