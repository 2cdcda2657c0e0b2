import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { clock } from '../../src/domain/clock.js';
import { createUser } from '../../src/domain/directory/users.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { CALLBACK, makeClient, makeUser, signIn, tokenRequest } from '../sign-in/support/fixtures.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { DESKTOP, launchChromium, review, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

const realNow = clock.now;
const OTHER_CALLBACK = 'http://127.0.0.1:8765/other';

/**
 * The Users screens as acme's owner sees them: list, search, paging, a new user, one user's
 * names, access, sessions and impersonation, checked against what the API and the database keep.
 */
describe('console: users', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let acme: Org;
  let issuer: string;
  let owner: string;
  let publicClient: string;
  let supportDesk: string;
  let createdId: string;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    acme = await ownedOrg(server, 'acme');
    issuer = server.issuer('acme');
    owner = await (await consoleOf(server)).token('owner@acme.test');
    publicClient = (await makeClient(server.deps, acme)).clientId;
    supportDesk = (
      await makeClient(server.deps, acme, {
        name: 'Support desk',
        kind: 'confidential',
        redirectUris: [CALLBACK, OTHER_CALLBACK],
      })
    ).clientId;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/users');
  });
  after(async () => {
    clock.now = realNow;
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  const open = async (path: string, heading: string) => {
    await page.goto(`${server.base}${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
  const apiUser = async (id: string) => {
    const res = await call(server, 'GET', `/organizations/acme/users/${id}`, owner);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  /**
   * The emails of the table's rows, once it has one: the table (and its caption) can be drawn a moment
   * before the rows of a new search arrive, and a loaded run read none.
   */
  const emails = async () => {
    const cells = page.locator('tbody tr td:first-child');
    await cells.first().waitFor();
    return cells.allTextContents();
  };
  const userIdOf = async (email: string) =>
    (
      await server.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .where('org_id', '=', acme.id)
        .executeTakeFirstOrThrow()
    ).id;

  test('no users yet; "New user" creates one with its names and shows their page', { skip }, async () => {
    await page.waitForURL((u) => u.pathname === '/console/o/acme/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByText('No users yet.').waitFor();
    await review(page, 'users-empty');

    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('Email').fill('grace@acme.test');
    await form.getByLabel('Password').fill('a long password 1');
    await form.getByLabel('First name').fill('Grace');
    await form.getByLabel('Last name').fill('Hopper');
    await review(page, 'users-new');
    await form.getByRole('button', { name: 'Create user' }).click();

    await page.waitForURL((u) => /^\/console\/o\/acme\/users\/usr_[a-z0-9]+$/.test(u.pathname));
    await page.getByRole('heading', { level: 1, name: 'grace@acme.test' }).waitFor();
    createdId = page.url().split('/').pop() ?? '';
    const stored = await apiUser(createdId);
    assert.deepEqual(
      [stored.email, stored.first_name, stored.last_name, stored.disabled],
      ['grace@acme.test', 'Grace', 'Hopper', false],
    );
    // The password was taken: Grace signs in with it.
    const tokens = await signIn(issuer, publicClient, 'grace@acme.test', undefined, 'a long password 1');
    assert.ok(tokens.refreshToken);
  });

  test('more than 50 users: the list pages through them, following Link', { skip }, async () => {
    // One millisecond apart, so that "oldest first" is the order they are made in.
    const t0 = Date.now();
    for (let i = 1; i <= 55; i++) {
      const n = String(i).padStart(2, '0');
      clock.now = () => t0 + i;
      await createUser(
        server.deps,
        acme,
        { email: `person-${n}@acme.test`, password: null, firstName: 'Person', lastName: `No ${n}` },
        SYSTEM,
      );
    }
    clock.now = realNow;
    await open('/console/o/acme/users', 'Users');
    const pager = page.getByRole('navigation', { name: 'Pages of users' });
    await pager.getByText('Page 1 of 2').waitFor();
    const first = await emails();
    assert.equal(first.length, 50);
    assert.equal(first[0], 'grace@acme.test');
    assert.equal(first[49], 'person-49@acme.test');
    const row = page.getByRole('row', { name: /person-07@acme\.test/ });
    assert.deepEqual(
      await row
        .getByRole('cell')
        .allTextContents()
        .then((c) => c.slice(0, 3)),
      ['person-07@acme.test', 'Person No 07', 'Active'],
    );
    assert.equal(await pager.getByRole('button', { name: 'Previous' }).isDisabled(), true);
    await review(page, 'users-list');

    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2').waitFor();
    assert.deepEqual(await emails(), [
      'person-50@acme.test',
      'person-51@acme.test',
      'person-52@acme.test',
      'person-53@acme.test',
      'person-54@acme.test',
      'person-55@acme.test',
    ]);
    assert.equal(await pager.getByRole('button', { name: 'Next' }).isDisabled(), true);
    await pager.getByRole('button', { name: 'First' }).click();
    await pager.getByText('Page 1 of 2').waitFor();
    assert.equal((await emails())[0], 'grace@acme.test');
  });

  test('search: q in the address, results filtered, a reload keeps them; no match says so', {
    skip,
  }, async () => {
    await open('/console/o/acme/users', 'Users');
    const search = page.getByLabel('Search by email or name');
    await search.fill('HOPPER');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'HOPPER');
    await page.getByRole('table', { name: 'Users matching “HOPPER”' }).waitFor();
    assert.deepEqual(await emails(), ['grace@acme.test']);
    await review(page, 'users-search');

    await page.reload();
    await page.getByRole('table', { name: 'Users matching “HOPPER”' }).waitFor();
    assert.equal(await page.getByLabel('Search by email or name').inputValue(), 'HOPPER');
    assert.deepEqual(await emails(), ['grace@acme.test']);

    // By email, across pages of the full list: only the matches, on one page.
    await page.getByLabel('Search by email or name').fill('person-5');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'person-5');
    await page.getByRole('table', { name: 'Users matching “person-5”' }).waitFor();
    await page.getByRole('cell', { name: 'person-50@acme.test' }).waitFor();
    assert.deepEqual(await emails(), [
      'person-50@acme.test',
      'person-51@acme.test',
      'person-52@acme.test',
      'person-53@acme.test',
      'person-54@acme.test',
      'person-55@acme.test',
    ]);
    assert.equal(await page.getByRole('navigation', { name: 'Pages of users' }).count(), 0);

    await page.getByLabel('Search by email or name').fill('nobody-here');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'nobody-here');
    await page.getByText('No user matches “nobody-here”.').waitFor();
    assert.equal(await page.getByRole('table').count(), 0);
    await review(page, 'users-search-empty');

    await page.getByRole('button', { name: 'Show all' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/users' && u.search === '');
    await page.getByRole('navigation', { name: 'Pages of users' }).getByText('Page 1 of 2').waitFor();
  });

  test('edit a user’s names; an emptied field is stored as none', { skip }, async () => {
    await open('/console/o/acme/users?q=grace', 'Users');
    await page.getByRole('link', { name: 'grace@acme.test' }).click();
    await page.waitForURL((u) => u.pathname === `/console/o/acme/users/${createdId}`);
    await page.getByRole('heading', { level: 1, name: 'grace@acme.test' }).waitFor();
    const facts = page.locator('dl.facts');
    assert.equal(await facts.locator('dd').first().textContent(), createdId);
    await review(page, 'user-detail');

    const names = page.getByRole('form', { name: 'Name', exact: true });
    assert.equal(await names.getByLabel('First name').inputValue(), 'Grace');
    await names.getByLabel('First name').fill('Grace B.');
    await names.getByLabel('Last name').fill('');
    await names.getByRole('button', { name: 'Save names' }).click();
    await page.getByRole('status').filter({ hasText: 'Names saved.' }).waitFor();
    const stored = await apiUser(createdId);
    assert.deepEqual([stored.first_name, stored.last_name], ['Grace B.', null]);
    await facts.getByText('Grace B.', { exact: true }).waitFor();
  });

  test('edit a user’s profile claims: stored, a refusal names the field, a new number unverified', {
    skip,
  }, async () => {
    await open(`/console/o/acme/users/${createdId}`, 'grace@acme.test');
    const form = page.getByRole('form', { name: 'Profile claims' });
    await form.getByLabel('Nickname').fill('Amazing Grace');
    await form.getByLabel('Website').fill('https://grace.example/');
    await form.getByLabel('Birthdate').fill('1906-12-09');
    await form.getByLabel('Time zone').fill('America/New_York');
    await form.getByLabel('Language').fill('en-us');
    await form.getByLabel('Phone number', { exact: true }).fill('+12025550100');
    await form.getByLabel('Phone number verified').check();
    await form.getByLabel('Street address').fill('1 Navy Yard');
    await form.getByLabel('City').fill('Washington');
    await form.getByLabel('Country').fill('USA');
    await review(page, 'user-claims');
    await form.getByRole('button', { name: 'Save profile claims' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile claims saved.' }).waitFor();
    const stored = await apiUser(createdId);
    assert.deepEqual(
      [stored.nickname, stored.website, stored.birthdate, stored.zoneinfo, stored.locale],
      ['Amazing Grace', 'https://grace.example/', '1906-12-09', 'America/New_York', 'en-US'],
    );
    assert.deepEqual([stored.phone_number, stored.phone_number_verified], ['+12025550100', true]);
    assert.deepEqual(stored.address, {
      street_address: '1 Navy Yard',
      locality: 'Washington',
      country: 'USA',
    });
    assert.equal(await form.getByLabel('Language').inputValue(), 'en-us', 'the field keeps what was typed');

    await form.getByLabel('Birthdate').fill('9 December 1906');
    await form.getByRole('button', { name: 'Save profile claims' }).click();
    await page.getByRole('alert').filter({ hasText: 'birthdate' }).waitFor();
    assert.equal((await apiUser(createdId)).birthdate, '1906-12-09', 'nothing was stored');

    // A changed number, the box left as it was: unverified, and the box says so.
    await form.getByLabel('Birthdate').fill('1906-12-09');
    await form.getByLabel('Nickname').fill('');
    await form.getByLabel('Phone number', { exact: true }).fill('+12025550199');
    await form.getByRole('button', { name: 'Save profile claims' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile claims saved.' }).waitFor();
    const changed = await apiUser(createdId);
    assert.deepEqual(
      [changed.phone_number, changed.phone_number_verified, changed.nickname],
      ['+12025550199', false, null],
    );
    assert.equal(await form.getByLabel('Phone number verified').isChecked(), false);
  });

  test('disable refuses sign-in (badge, API); enable allows it again', { skip }, async () => {
    const { user } = await makeUser(server.deps, acme, 'ada@acme.test');
    await signIn(issuer, publicClient, 'ada@acme.test');
    await open(`/console/o/acme/users/${user.id}`, 'ada@acme.test');
    const access = page.getByRole('region', { name: 'Access' });
    await access.getByRole('button', { name: 'Disable user' }).click();
    await access.getByText('Their sign-in is refused and every session they have ends.').waitFor();
    await access.getByRole('button', { name: 'Disable', exact: true }).click();
    await access.getByRole('status').filter({ hasText: 'User disabled' }).waitFor();
    await page.locator('.user-head').getByText('Disabled', { exact: true }).waitFor();
    assert.equal((await apiUser(user.id)).disabled, true);
    await assert.rejects(signIn(issuer, publicClient, 'ada@acme.test'), /unexpected 400 at .*\/login/);

    await open('/console/o/acme/users?q=ada', 'Users');
    const row = page.getByRole('row', { name: /ada@acme\.test/ });
    assert.equal(await row.getByRole('cell').nth(2).textContent(), 'Disabled');

    await row.getByRole('link', { name: 'ada@acme.test' }).click();
    await page.getByRole('heading', { level: 1, name: 'ada@acme.test' }).waitFor();
    await access.getByRole('button', { name: 'Enable user' }).click();
    await access.getByRole('status').filter({ hasText: 'User enabled' }).waitFor();
    await page.locator('.user-head').getByText('Active', { exact: true }).waitFor();
    assert.equal((await apiUser(user.id)).disabled, false);
    assert.ok((await signIn(issuer, publicClient, 'ada@acme.test')).accessToken);
  });

  test('sign out everywhere: a refresh token from before is refused afterwards', { skip }, async () => {
    const { user } = await makeUser(server.deps, acme, 'bo@acme.test');
    const before = await signIn(issuer, publicClient, 'bo@acme.test');
    await open(`/console/o/acme/users/${user.id}`, 'bo@acme.test');
    const access = page.getByRole('region', { name: 'Access' });
    await access.getByRole('button', { name: 'Sign out everywhere' }).click();
    await access.getByRole('button', { name: 'End every session' }).click();
    await access.getByRole('status').filter({ hasText: 'every session of this user has ended' }).waitFor();
    const refreshed = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: before.refreshToken,
      client_id: publicClient,
    });
    assert.equal(refreshed.status, 400);
    assert.equal(refreshed.body.error, 'invalid_grant');
  });

  test('delete a user: asked once more, then back to the list without them', { skip }, async () => {
    const id = await userIdOf('bo@acme.test');
    await open(`/console/o/acme/users/${id}`, 'bo@acme.test');
    const region = page.getByRole('region', { name: 'Delete user' });
    await region.getByRole('button', { name: 'Delete user' }).click();
    await region.getByText('Delete bo@acme.test for good?').waitFor();
    await region.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/users');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('navigation', { name: 'Pages of users' }).waitFor();
    const gone = await call(server, 'GET', `/organizations/acme/users/${id}`, owner);
    assert.equal(gone.status, 404);
  });

  test('impersonate: the reason is required; the one-time link lands on the redirect URI with a code', {
    skip,
  }, async () => {
    const id = await userIdOf('ada@acme.test');
    await open(`/console/o/acme/users/${id}`, 'ada@acme.test');
    const region = page.getByRole('region', { name: 'Impersonate' });
    const client = region.getByLabel('Client to sign in to');
    await client.waitFor();
    // Only the confidential client: the public one would need the app's own PKCE challenge.
    assert.deepEqual(await client.locator('option').allTextContents(), [`Support desk (${supportDesk})`]);
    const redirect = region.getByLabel('Redirect URI');
    assert.deepEqual(await redirect.locator('option').allTextContents(), [CALLBACK, OTHER_CALLBACK]);

    await region.getByRole('button', { name: 'Create one-time link' }).click();
    await region
      .getByRole('alert')
      .filter({ hasText: 'reason: is required: say why you act as this user' })
      .waitFor();
    assert.equal(
      await server.db
        .selectFrom('impersonations')
        .select('id')
        .execute()
        .then((r) => r.length),
      0,
    );

    const reason = 'Ticket 4711: the invoice page is blank for this user';
    await region.getByLabel('Reason (required)').fill(reason);
    await redirect.selectOption(OTHER_CALLBACK);
    await redirect.selectOption(CALLBACK);
    await region.getByRole('button', { name: 'Create one-time link' }).click();
    const secret = region.getByTestId('secret');
    await secret.waitFor();
    assert.equal(await region.getByRole('alert').count(), 0);
    const url = new URL((await secret.textContent()) ?? '');
    assert.equal(`${url.origin}/`, issuer);
    assert.equal(url.pathname, '/login/impersonation');
    await region.getByText('It works once, until').waitFor();
    const openLink = region.getByRole('link', { name: 'Open', exact: true });
    assert.equal(await openLink.getAttribute('href'), url.href);
    assert.equal(await openLink.getAttribute('target'), '_blank');
    assert.equal(await openLink.getAttribute('rel'), 'noopener noreferrer');
    await review(page, 'user-impersonation-link');

    // The client's redirect URI answers here, so nothing outside this machine is contacted.
    await context.route(`${CALLBACK}**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'the client got the code' }),
    );
    const [landed] = await Promise.all([context.waitForEvent('page'), openLink.click()]);
    await landed.waitForURL((u) => u.href.startsWith(`${CALLBACK}?`));
    const callback = new URL(landed.url());
    assert.match(callback.searchParams.get('code') ?? '', /.+/);
    await landed.close();
    await context.unroute(`${CALLBACK}**`);

    const audited = await server.db
      .selectFrom('audit_events')
      .select(['data', 'actor_kind'])
      .where('org_id', '=', acme.id)
      .where('entity', '=', 'impersonation')
      .where('verb', '=', 'created')
      .execute();
    assert.equal(audited.length, 1);
    const data = JSON.parse(audited[0]?.data ?? '{}');
    assert.deepEqual(
      [data.reason, data.userId, data.clientId, data.redirectUri],
      [reason, id, supportDesk, CALLBACK],
    );
    assert.equal(audited[0]?.actor_kind, 'user');
  });
});
