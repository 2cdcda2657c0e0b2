import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { clock } from '../../src/domain/clock.js';
import { endSessionsOfUser } from '../../src/domain/directory/users.js';
import { SYSTEM } from '../../src/domain/types.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { addConsoleMember, ownedOrg } from '../management/support/console.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  DESKTOP,
  launchChromium,
  OWNER_PASSWORD,
  review,
  signInToConsole,
} from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

const realNow = clock.now;

/** Token requests the page makes, by grant type. */
function tokenRequests(requests: Request[], grant: string): number {
  return requests.filter(
    (r) =>
      new URL(r.url()).pathname === '/oauth/token' &&
      new URLSearchParams(r.postData() ?? '').get('grant_type') === grant,
  ).length;
}

/** Holds every request of `context` to `path` until the function returned is called. */
async function hold(context: BrowserContext, path: string): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await context.route(
    (u) => u.pathname === path,
    async (route) => {
      await released;
      await route.continue();
    },
  );
  return release;
}

/**
 * The members page with both its lists answered. The heading shows before they are; a session
 * ended (or a clock moved) while one is still in flight sends the page to sign-in on its own,
 * racing whatever the test does next.
 */
async function membersLoaded(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Members' }).waitFor();
  await page.getByRole('table', { name: 'Members of acme' }).waitFor();
  await page.getByText('No pending invitations', { exact: true }).waitFor();
}

/**
 * Who sees what (owner, member, stranger), and the console session: tokens in memory, an expired
 * access token refreshed without the owner noticing, an ended session back through sign-in to
 * the same page.
 */
describe('console: roles and the session', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    const acme = await ownedOrg(server, 'acme');
    await ownedOrg(server, 'beta');
    await addConsoleMember(server, acme, 'mel@console.test', 'member');
    browser = await launchChromium();
  });
  afterEach(() => {
    clock.now = realNow;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('a member sees read-only views, and a stranger’s org is not listed', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'mel@console.test');
    await page.waitForURL((u) => u.pathname === '/console/o/acme/settings');

    const switcher = page.getByLabel('Organization', { exact: true });
    assert.deepEqual(await switcher.locator('option').allTextContents(), [
      'acme (acme)',
      '+ Create organization',
    ]);
    const nav = page.getByRole('navigation', { name: 'acme sections' });
    assert.deepEqual(await nav.getByRole('link').allTextContents(), ['Settings', 'Members']);
    assert.equal(await page.getByText('You are a member', { exact: true }).count(), 1);

    await page.getByText('you can look, but only owners can change it').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0);
    assert.equal(await page.getByRole('textbox').count(), 0);
    await review(page, 'settings-member');

    // Another org, typed into the address bar: not among theirs.
    await page.goto(`${server.base}/console/o/beta/settings`);
    await page.getByText('No such organization among yours.').waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'beta sections' }).count(), 0);
    await context.close();
  });

  test('an expired access token is refreshed silently, once, and the page loads', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const requests: Request[] = [];
    context.on('request', (r) => requests.push(r));
    const page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/members');
    await membersLoaded(page);
    assert.equal(tokenRequests(requests, 'authorization_code'), 1);
    assert.equal(tokenRequests(requests, 'refresh_token'), 0);

    // 16 minutes on: the access token (15 minutes) has expired, the refresh token has not.
    clock.now = () => realNow() + 16 * 60_000;
    const answers: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/organizations/acme/settings') answers.push(r.status());
    });
    await page
      .getByRole('navigation', { name: 'acme sections' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByLabel('Name', { exact: true }).waitFor();
    assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'acme');
    assert.deepEqual(answers, [401, 200], 'refused once as expired, then answered with the new token');
    assert.equal(tokenRequests(requests, 'refresh_token'), 1);
    assert.equal(new URL(page.url()).pathname, '/console/o/acme/settings', 'no trip through sign-in');
    const logins = requests.filter((r) => new URL(r.url()).pathname === '/login' && r.method() === 'GET');
    assert.equal(logins.length, 1, 'the login page was shown once, at the start');

    // No token is kept where a script or another tab could read it later.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    assert.equal(stored, '{}');
    await context.close();
  });

  test('an ended session goes back through sign-in and returns to the same page', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(
      context,
      server,
      'owner@acme.test',
      '/console/o/acme/members?from=test',
    );
    await membersLoaded(page);

    // Every session of the owner ends (as "sign out everywhere" would): the refresh token dies too.
    const consoleOrg = await findConsoleOrg(server.db);
    assert.ok(consoleOrg);
    const owner = await server.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', consoleOrg.id)
      .where('email', '=', 'owner@acme.test')
      .executeTakeFirstOrThrow();
    await endSessionsOfUser(server.deps, consoleOrg, owner.id, SYSTEM);
    clock.now = () => realNow() + 16 * 60_000;

    await page
      .getByRole('navigation', { name: 'acme sections' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.waitForURL((u) => u.pathname === '/login');
    clock.now = realNow;
    await page.fill('#email', 'owner@acme.test');
    await page.fill('#password', OWNER_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/console/o/acme/settings');
    await page.getByLabel('Name', { exact: true }).waitFor();

    // A reload forgets the tokens (memory only) and comes back to the same page through the login session.
    await page.goto(`${server.base}/console/o/acme/members?from=reload`);
    await page.waitForURL((u) => u.pathname === '/console/o/acme/members' && u.search === '?from=reload');
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await context.close();
  });

  test('sign out while the page is still loading signs out, and does not sign back in', {
    skip,
  }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    // The org list is held until sign-out has begun, and the revocation until the page has acted on
    // that list: what the page asks for next, after its tokens are gone, must not start a sign-in
    // (the hosted login is still alive then, so it would come straight back signed in).
    const releaseOrgs = await hold(context, '/organizations');
    const releaseRevocation = await hold(context, '/oauth/revoke');
    const page = await signInToConsole(context, server, 'owner@acme.test');
    await page.getByRole('button', { name: 'Sign out' }).click();
    releaseOrgs();
    // The list arrives after sign-out began: the home page moves on to the first org's settings,
    // whose page asks the API for more.
    await page.waitForURL((u) => u.pathname === '/console/o/acme/settings');
    // The page's title is set after the settings screen's own effects ran, its API call among them: a
    // sign-in started by that call would have recorded its pending request (state, verifier) by now.
    await page.waitForFunction(() => document.title.startsWith('Settings · '));
    assert.equal(await page.evaluate(() => sessionStorage.getItem('tessera.console.sign-in')), null);
    releaseRevocation();
    await page.waitForURL((u) => u.pathname === '/console/signed-out');
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    assert.equal(await page.locator('#password').count(), 1);
    await context.close();
  });

  test('sign out ends the hosted login too: signing in again asks for the password', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'owner@acme.test');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/console/signed-out');
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    await review(page, 'signed-out');

    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    assert.equal(await page.locator('#password').count(), 1);
    await context.close();
  });
});
