import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  DESKTOP,
  launchChromium,
  makeConsoleUser,
  review,
  signInToConsole,
} from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

/**
 * The page's title once it reads `expected`, or what it reads after 5 s: the console names the page
 * just after it draws it, so the title can trail the heading by a moment.
 */
async function settledTitle(page: Page, expected: string): Promise<string> {
  await page
    .waitForFunction((title) => document.title === title, expected, { timeout: 5_000 })
    .catch(() => {});
  return page.title();
}

/** Someone with a console account and no organization: the first-run page, then their first org. */
describe('console: first run', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    await makeConsoleUser(server, 'nova@console.test');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('/ on the console host sends browsers to /console/', { skip }, async () => {
    const root = await fetch(`${server.base}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/console/');
    const bare = await fetch(`${server.base}/console`, { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/console/');
    // An org host has no console.
    const onOrgHost = await fetch(`${server.issuer('console')}`.replace('console.', 'nowhere.'));
    assert.equal(onOrgHost.status, 404);
  });

  test('sign in with no org, see the first-run page, create one', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'nova@console.test');
    await page.getByRole('heading', { name: 'Welcome to Tessera' }).waitFor();
    await review(page, 'first-run');

    await page.getByLabel('Slug').fill('Not A Slug');
    await page.getByRole('button', { name: 'Create organization' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /slug/);

    await page.getByLabel('Slug').fill('nova');
    await page.getByLabel('Name', { exact: true }).fill('Nova Labs');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/nova/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    assert.equal(
      await settledTitle(page, 'Settings · Nova Labs · Tessera console'),
      'Settings · Nova Labs · Tessera console',
    );
    assert.equal(await page.getByLabel('Organization', { exact: true }).inputValue(), 'nova');
    await review(page, 'settings');

    // A page load asks for nothing that is not there (the favicon included).
    const missing: string[] = [];
    context.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    const icon = await page.locator('link[rel=icon]').getAttribute('href');
    assert.equal(icon, '/console/favicon.svg');
    const favicon = await context.request.get(`${server.base}${icon}`);
    assert.equal(favicon.status(), 200);
    assert.equal(favicon.headers()['content-type'], 'image/svg+xml');

    // Another organization from the top bar, not only from inside the organization menu.
    const newOrg = page.getByRole('banner').getByRole('link', { name: 'New organization' });
    assert.equal(await newOrg.getAttribute('aria-current'), null);
    await newOrg.click();
    await page.waitForURL((u) => u.pathname === '/console/new');
    await page.getByRole('heading', { name: 'New organization', level: 1 }).waitFor();
    assert.equal(
      await settledTitle(page, 'New organization · Tessera console'),
      'New organization · Tessera console',
    );
    assert.equal(await newOrg.getAttribute('aria-current'), 'page');
    await review(page, 'new-organization');
    assert.deepEqual(missing, [], 'no 404 while the console loads');
    await context.close();
  });
});
