import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { LOCALES, type Locale } from '../../src/domain/locales.js';
import { CATALOGS, MESSAGE_KEYS } from '../../src/domain/texts/index.js';
import type { Org } from '../../src/domain/types.js';
import { assertAccessible, launchChromium, PHONE } from '../console/support/console-browser.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { FormBrowser, locationOf, readForm } from '../sign-in/support/browser.js';
import { authorizeUrl, makeClient, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { TestSmtp } from '../sign-in/support/smtp.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { chromiumSkip } from '../support/environment.js';
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
    const smtp = new TestSmtp();

    before(async () => {
      if (skip) return;
      await smtp.start();
      server = await startServer({
        database,
        webhooks: false,
        env: { TESSERA_SMTP_URL: smtp.url },
      });
      acme = await ownedOrg(server, 'acme');
      await makeUser(server.deps, acme, 'ada@acme.test');
      ({ clientId } = await makeClient(server.deps, acme, { name: 'Acme Notes', firstParty: false }));
      owner = await (await consoleOf(server)).token('owner@acme.test');
    });
    after(async () => {
      await browser?.close();
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
      return pages;
    }

    storageTest(
      'every page in every language: no English left, lang and dir set, axe-clean',
      { skip },
      async () => {
        browser = await launchChromium();
        const context = await browser.newContext({ viewport: PHONE });
        const page = await context.newPage();
        mkdirSync(SCREENSHOTS, { recursive: true });
        for (const locale of LOCALES) {
          const pages = await everyPage(locale);
          for (const [name, html] of Object.entries(pages)) {
            assert.match(
              html,
              new RegExp(`<html lang="${locale}" dir="${locale === 'ar' ? 'rtl' : 'ltr'}">`),
              `${name} ${locale}`,
            );
            if (locale !== 'en')
              assert.deepEqual(englishLeftIn(html), [], `English left on ${name} in ${locale}`);
            // The page as served, its markup and stylesheet; nothing is fetched (no script runs).
            await page.setContent(html, { waitUntil: 'load' });
            await assertAccessible(page, `${name} (${locale})`);
            if (['login', 'consent', 'error'].includes(name) && ['en', 'de', 'ja', 'ar'].includes(locale)) {
              await page.screenshot({ path: `${SCREENSHOTS}${name}-${locale}-phone.png`, fullPage: true });
              const overflow = await page.evaluate(
                () => document.documentElement.scrollWidth - window.innerWidth,
              );
              assert.ok(overflow <= 0, `${name} in ${locale} scrolls sideways at phone width`);
            }
          }
        }
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
  });
}
