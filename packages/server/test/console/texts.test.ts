import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { MESSAGE_KEYS } from '../../src/domain/texts/index.js';
import type { Org } from '../../src/domain/types.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
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
 * The texts screen (issue 47, docs/languages.md): an owner picks a language, finds a message by
 * its key or its words with the English one beside it, writes the org's own (the API's refusal shown
 * at the field), goes back to the catalog's, and sets the org's default language; what is saved is
 * what the hosted pages say. Markup in a text is text, on the screen as on the pages. A member is
 * told why there is nothing to see.
 */
const MARKUP = '<img src=x onerror="document.title=\'pwned\'"> Bei Acme anmelden';

describe('console: texts', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let acme: Org;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    acme = await ownedOrg(server, 'acme');
    await addConsoleMember(server, acme, 'mel@console.test', 'member');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const hostedLogin = async (query = '') =>
    (await fetch(`${server.issuer('acme')}login${query}`, { headers: { 'accept-language': '' } })).text();

  test('an owner finds, overrides and resets a message, and sets the default language', {
    skip,
  }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/texts');
    await page.getByRole('heading', { name: 'Texts', level: 1 }).waitFor();
    await page
      .getByRole('navigation', { name: /sections/ })
      .getByRole('link', { name: 'Texts' })
      .waitFor();
    const entry = (key: string) => page.getByRole('listitem', { name: key, exact: true });
    await entry('login.title').waitFor();
    assert.equal(await page.locator('.text-entry').count(), MESSAGE_KEYS.length, 'every key of the catalog');
    await review(page, 'texts-en');

    // German: the English message beside the catalog's.
    await page.getByLabel('Language', { exact: true }).selectOption('de');
    await page.waitForURL((u) => u.search === '?lang=de');
    await entry('login.forgot').getByText('Passwort vergessen?', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search keys and texts' }).fill('passwort vergessen');
    await page.getByText(/^\d+ of \d+ messages\.$/).waitFor();
    const found = await page.locator('.text-entry h3 code').allTextContents();
    assert.ok(found.includes('login.forgot'), found.join(' '));
    assert.ok(found.length < 10, found.join(' '));
    const forgot = entry('login.forgot');
    assert.deepEqual(await forgot.locator('dt').allTextContents(), ['English', 'Catalog, Deutsch (de)']);
    assert.deepEqual(await forgot.locator('dd').allTextContents(), [
      'Forgot password?',
      'Passwort vergessen?',
    ]);
    assert.equal(await forgot.locator('dd').nth(1).getAttribute('lang'), 'de');
    await review(page, 'texts-de-search');

    // The API's refusals, next to the field they are about.
    await page.getByRole('searchbox', { name: 'Search keys and texts' }).fill('login.title');
    const title = entry('login.title');
    await title.getByRole('button', { name: 'Edit login.title' }).click();
    const field = title.getByRole('textbox', { name: 'Text for login.title' });
    assert.equal(await field.inputValue(), 'Anmelden');
    for (const [typed, said] of [
      ['Hallo {email}', 'unknown argument {email}; this message takes none'],
      ['Hallo {', 'not a valid ICU message'],
    ]) {
      await field.fill(typed as string);
      await title.getByRole('button', { name: 'Save text login.title' }).click();
      const alert = title.getByRole('alert');
      await alert.filter({ hasText: said as string }).waitFor();
      assert.equal(await field.getAttribute('aria-invalid'), 'true');
      const described = (await field.getAttribute('aria-describedby')) ?? '';
      assert.ok(described.split(' ').includes((await alert.getAttribute('id')) ?? '-'), described);
    }
    await review(page, 'texts-refused');
    assert.deepEqual(
      (await call(server, 'GET', '/organizations/acme/texts/de', await ownerToken())).body.messages,
      {},
    );

    // Markup is text: on the screen, and on the hosted page.
    await field.fill(MARKUP);
    await title.getByRole('button', { name: 'Save text login.title' }).click();
    await page.getByRole('status').filter({ hasText: 'login.title saved.' }).waitFor();
    assert.equal(await title.getByTestId('own-text').textContent(), MARKUP);
    assert.equal(await page.locator('main img').count(), 0);
    assert.notEqual(await page.title(), 'pwned');
    assert.equal(await title.locator('.badge').textContent(), 'Changed');
    assert.match(
      await hostedLogin('?lang=de'),
      /<h1>&lt;img src=x onerror=&quot;document\.title=&#39;pwned&#39;&quot;&gt; Bei Acme anmelden<\/h1>/,
    );
    // Only the org's own texts: this one.
    await page.getByRole('searchbox', { name: 'Search keys and texts' }).fill('');
    await page.getByRole('checkbox', { name: 'Only acme’s own texts' }).check();
    assert.deepEqual(await page.locator('.text-entry h3 code').allTextContents(), ['login.title']);
    await review(page, 'texts-override');

    // Back to the catalog's words, after asking once more.
    await title.getByRole('button', { name: 'Reset to catalog login.title' }).click();
    await title.getByRole('button', { name: 'Reset', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'login.title is back to the catalog’s text.' })
      .waitFor();
    await page.getByText(/^0 of \d+ messages\.$/).waitFor();
    assert.match(await hostedLogin('?lang=de'), /<h1>Anmelden<\/h1>/);

    // The default language: what a page without any other choice speaks.
    assert.match(await hostedLogin(), /<h1>Sign in<\/h1>/);
    const language = page.getByRole('combobox', { name: 'Language of the pages when nothing else chooses' });
    await language.selectOption('ja');
    await page.getByRole('button', { name: 'Save default language' }).click();
    await page.getByRole('status').filter({ hasText: 'Default language saved: 日本語 (ja).' }).waitFor();
    assert.match(await hostedLogin(), /<html lang="ja" dir="ltr">/);
    assert.equal(
      (await call(server, 'GET', '/organizations/acme/settings', await ownerToken())).body.default_locale,
      'ja',
    );
    await language.selectOption('');
    await page.getByRole('button', { name: 'Save default language' }).click();
    await page.getByRole('status').filter({ hasText: 'Default language removed' }).waitFor();
    assert.match(await hostedLogin(), /<html lang="en" dir="ltr">/);

    // Arabic, right to left inside the list, at phone width too.
    await page.getByRole('checkbox', { name: 'Only acme’s own texts' }).uncheck();
    await page.getByLabel('Language', { exact: true }).selectOption('ar');
    await page.waitForURL((u) => u.search === '?lang=ar');
    await page.getByRole('searchbox', { name: 'Search keys and texts' }).fill('login.');
    const arabic = entry('login.title').locator('dd').nth(1);
    await arabic.waitFor();
    assert.equal(await arabic.getAttribute('dir'), 'rtl');
    await page.setViewportSize(PHONE);
    await review(page, 'texts-ar');
    // Every other language's texts on the screen, at phone width: accessible as the Arabic ones (the
    // login texts, as above: axe over all 315 keys and their full-length screenshots cost ~17 s a language).
    for (const locale of ['en', 'de', 'fr', 'es', 'ja', 'pt-BR']) {
      await page.getByLabel('Language', { exact: true }).selectOption(locale);
      await page.waitForURL((u) => u.search === `?lang=${locale}` || (locale === 'en' && u.search === ''));
      await page.getByRole('searchbox', { name: 'Search keys and texts' }).fill('login.');
      await entry('login.title').locator(`dd[lang="${locale}"]`).last().waitFor();
      await assertAccessible(page, `texts-${locale}`);
    }
    await context.close();
  });

  test('a member sees why there is nothing here; the API refuses them too', { skip }, async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await signInToConsole(context, server, 'mel@console.test', '/console/o/acme/texts');
    await page.getByRole('heading', { name: 'Texts', level: 1 }).waitFor();
    await page.getByText('Only owners of this organization can see and change the texts').waitFor();
    assert.equal(await page.locator('.text-entry').count(), 0);
    assert.equal(await page.getByRole('main').getByRole('button').count(), 0);
    await review(page, 'texts-member');
    const member = await (await consoleOf(server)).token('mel@console.test');
    const refused = await call(server, 'PATCH', '/organizations/acme/texts/de', member, {
      messages: { 'login.title': 'Gekapert' },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal((await call(server, 'GET', '/organizations/acme/texts/de', member)).status, 403);
    assert.match(await hostedLogin('?lang=de'), /<h1>Anmelden<\/h1>/);
    await context.close();
  });

  let owner: string | undefined;
  async function ownerToken() {
    owner ??= await (await consoleOf(server)).token('owner@acme.test');
    return owner;
  }
});
