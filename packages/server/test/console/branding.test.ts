import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { makeClient } from '../sign-in/support/fixtures.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { DESKTOP, launchChromium, review, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

const LOGO = fileURLToPath(new URL('../branding/fixtures/logo.png', import.meta.url));

/**
 * The Branding screen: an owner sets the name, logo, colours and links with the contrast shown as
 * they type, sees the preview follow, saves, and the API stores what was typed; a colour below AA
 * is refused in the API's words; a client's own brand on its page; members see the owners-only note.
 */
describe('console: branding', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let clientId: string;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild() });
    const org = await ownedOrg(server, 'brand');
    await addConsoleMember(server, org, 'mel@console.test', 'member');
    ({ clientId } = await makeClient(server.deps, org, { name: 'Brand Notes' }));
    token = await (await consoleOf(server)).token('owner@brand.test');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    page = await signInToConsole(context, server, 'owner@brand.test', '/console/o/brand/branding');
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  test('an owner sets the brand with a live preview and the contrast shown', { skip }, async () => {
    const form = page.getByRole('form', { name: 'Branding' });
    await form.getByLabel('Display name').fill('Brand <i>Co</i>');
    await form.getByLabel('Logo').setInputFiles(LOGO);
    await form.getByLabel('Primary colour', { exact: true }).fill('#808080');
    await page.getByText('below WCAG AA (4.5:1), will be refused').waitFor();
    await form.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('primary: #808080 reaches only 3.98:1').waitFor();
    await form.getByLabel('Primary colour', { exact: true }).fill('#0b6e4f');
    await page.getByText('Text on it: white, contrast 6.25:1 — passes WCAG AA').waitFor();
    await form.getByLabel('Background colour', { exact: true }).fill('#f7f3e8');
    await form.getByLabel('Terms of service URL').fill('https://brand.example/terms');
    const preview = page.locator('.brand-preview');
    assert.equal(await preview.locator('strong').textContent(), 'Brand <i>Co</i>');
    assert.equal(
      await preview.locator('.brand-preview-button').evaluate((e) => getComputedStyle(e).backgroundColor),
      'rgb(11, 110, 79)',
    );
    await review(page, 'branding');
    await form.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved.').waitFor();
    const stored = await call(server, 'GET', '/organizations/brand/branding', token);
    assert.equal(stored.body.display_name, 'Brand <i>Co</i>');
    assert.equal(stored.body.primary, '#0b6e4f');
    assert.equal(stored.body.background, '#f7f3e8');
    assert.equal(stored.body.terms_url, 'https://brand.example/terms');
    assert.equal(stored.body.logo.width, 240);
    assert.equal(await preview.locator('img').evaluate((i) => (i as HTMLImageElement).naturalWidth), 240);
  });

  test('a client’s own brand on its page', { skip }, async () => {
    await page.goto(`${server.base}/console/o/brand/clients/${clientId}`);
    const form = page.getByRole('form', { name: 'Branding' });
    await form.getByLabel('Primary colour', { exact: true }).fill('#7a1fa2');
    await form.getByRole('button', { name: 'Save branding' }).click();
    await page.getByText('Branding saved.').waitFor();
    const stored = await call(server, 'GET', `/organizations/brand/clients/${clientId}/branding`, token);
    assert.equal(stored.body.primary, '#7a1fa2');
    assert.equal(stored.body.display_name, null);
    await review(page, 'client-branding');
  });

  test('members see that branding is for owners', { skip }, async () => {
    const member = await browser.newContext({ viewport: DESKTOP });
    const memberPage = await signInToConsole(member, server, 'mel@console.test', '/console/o/brand/branding');
    await memberPage.getByText('set by the organization’s owners').waitFor();
    assert.equal(await memberPage.getByRole('form', { name: 'Branding' }).count(), 0);
    await review(memberPage, 'branding-member');
    await member.close();
  });
});
