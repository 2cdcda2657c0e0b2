import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createClient, updateClient } from '../../src/domain/directory/clients.js';
import { createUser, deleteUser, updateUser } from '../../src/domain/directory/users.js';
import { type Actor, type Org, SYSTEM } from '../../src/domain/types.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { DESKTOP, launchChromium, review, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

const LOG = '/console/o/acme/events';
const SEEDED_USERS = 40;

/**
 * The audit log of an org with 120+ entries, as its owner reads it: newest first, filters kept in
 * the page's query, every page once, and an update's values before and after.
 */
describe('console: audit log', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let acme: Org;
  let token: string;
  let ownerId: string;
  let robotId: string;
  let endUserId: string;

  /** How many entries the API itself lists for `query` (its Link header at one entry a page). */
  async function apiCount(query = ''): Promise<number> {
    const answer = await call(
      server,
      'GET',
      `/organizations/acme/events?per_page=1${query ? `&${query}` : ''}`,
      token,
    );
    assert.equal(answer.status, 200, answer.text);
    const last = /[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(answer.headers.get('link') ?? '');
    return last ? Number(last[1]) + 1 : answer.body.length;
  }

  async function apiIds(query: string): Promise<string[]> {
    const answer = await call(server, 'GET', `/organizations/acme/events?${query}`, token);
    assert.equal(answer.status, 200, answer.text);
    return answer.body.map((e: { id: string }) => e.id);
  }

  const entries = () => page.getByRole('table', { name: 'Audit log entries, newest first' });
  const rows = () => entries().locator('tbody > tr.audit-row');
  const shownIds = () => entries().locator('.audit-id').allTextContents();
  const pageOf = async (n: number, of: number) =>
    page.getByText(`Page ${n} of ${of}`, { exact: true }).waitFor();
  const query = () => new URL(page.url()).searchParams;
  /** The value cells of the row of `field` in a field table. */
  const cellsOf = (table: Locator, field: string) =>
    table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: field, exact: true }) })
      .getByRole('cell')
      .allTextContents();

  /** The list shows the page's query once "Loading entries…" is gone (after a URL change). */
  const settled = () => page.getByText('Loading entries…').waitFor({ state: 'hidden' });

  async function applyFilters() {
    await page.getByRole('button', { name: 'Apply filters' }).click();
  }

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    acme = await ownedOrg(server, 'acme');
    ({ id: ownerId } = await server.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'owner@acme.test')
      .executeTakeFirstOrThrow());
    const owner: Actor = { kind: 'user', id: ownerId };
    const { deps } = server;

    // 2 entries a user (user.created, tenant.created), one more for each rename.
    const people: string[] = [];
    for (let i = 0; i < SEEDED_USERS; i++) {
      const { user } = await createUser(
        deps,
        acme,
        { email: `person${i}@acme.test`, password: null, firstName: `First${i}`, lastName: 'Seed' },
        i % 4 === 0 ? SYSTEM : owner,
      );
      people.push(user.id);
    }
    for (const [i, id] of people.entries())
      await updateUser(deps, acme, id, { firstName: `Renamed${i}` }, owner);
    const { client: robot } = await createClient(
      deps,
      acme,
      { name: 'Robot', kind: 'confidential', redirectUris: [] },
      owner,
    );
    robotId = robot.id;
    const robotActor: Actor = { kind: 'client', id: robotId };
    const { client: app } = await createClient(
      deps,
      acme,
      { name: 'Web app', kind: 'public', redirectUris: ['https://app.acme.test/cb'] },
      robotActor,
    );
    await updateClient(
      deps,
      acme,
      app.id,
      { redirectUris: ['https://app.acme.test/cb', 'https://app.acme.test/cb2'] },
      robotActor,
    );
    // A change an end user made (neither a member nor a client of the console's lists).
    endUserId = people[1] as string;
    await updateUser(deps, acme, people[0] as string, { lastName: 'Seen' }, { kind: 'user', id: endUserId });
    await deleteUser(deps, acme, people[1] as string, owner);
    // The newest entry of all: Ada's first name, Ada → Adeline.
    const { user: ada } = await createUser(
      deps,
      acme,
      { email: 'ada@acme.test', password: null, firstName: 'Ada', lastName: 'Lovelace' },
      owner,
    );
    await updateUser(deps, acme, ada.id, { firstName: 'Adeline' }, owner);

    token = await (await consoleOf(server)).token('owner@acme.test');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    page = await signInToConsole(context, server, 'owner@acme.test', LOG);
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  test('the owner sees the newest entries first, 50 a page', { skip }, async () => {
    const total = await apiCount();
    assert.ok(total >= 120, `${total} entries seeded`);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await entries().waitFor();
    await pageOf(1, Math.ceil(total / 50));
    assert.equal(await rows().count(), 50);
    assert.deepEqual(await shownIds(), await apiIds('per_page=50'));
    const first = rows().first();
    assert.match((await first.textContent()) ?? '', /user\.updated ada@acme\.test/);
    assert.match((await first.getByRole('cell').nth(2).textContent()) ?? '', /^User owner@acme\.test$/);
    const times = await entries()
      .locator('time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime') ?? ''));
    assert.deepEqual(times, [...times].sort().reverse(), 'newest first');
    await review(page, 'audit-log');
  });

  test("an update's before and after values", { skip }, async () => {
    const first = rows().first();
    const toggle = first.getByRole('button', { name: /^Show user\.updated of / });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    assert.equal(
      await first.getByRole('button', { name: /^Hide user\.updated/ }).getAttribute('aria-expanded'),
      'true',
    );
    const diff = page.getByRole('table', { name: '1 field changed' });
    await diff.waitFor();
    assert.deepEqual(await diff.getByRole('columnheader').allTextContents(), ['Field', 'Before', 'After']);
    assert.deepEqual(await diff.getByRole('rowheader').allTextContents(), ['firstName']);
    assert.deepEqual(await cellsOf(diff, 'firstName'), ['Ada', 'Adeline']);
    assert.equal(await diff.locator('tbody > tr').count(), 1, 'only the changed field');
    // The other fields are folded away, and there when asked for.
    const newest = (await call(server, 'GET', '/organizations/acme/events?per_page=1', token)).body[0];
    const others = Object.keys(newest.data).length - 1;
    await page.getByText(`${others} unchanged fields`, { exact: true }).click();
    const unchanged = page.getByRole('table', { name: 'Unchanged fields' });
    assert.equal(await unchanged.locator('tbody > tr').count(), others);
    assert.deepEqual(await cellsOf(unchanged, 'lastName'), ['Lovelace']);
    assert.deepEqual(await cellsOf(unchanged, 'email'), ['ada@acme.test']);
    assert.deepEqual(await cellsOf(unchanged, 'picture'), ['(none)']);
    await review(page, 'audit-log-diff');
    await first.getByRole('button', { name: /^Hide user\.updated/ }).click();
    await diff.waitFor({ state: 'detached' });
  });

  test('filter by entity: the page query and the list follow, and a reload keeps them', {
    skip,
  }, async () => {
    const users = await apiCount('entity=user');
    assert.equal(
      users,
      2 * (SEEDED_USERS + 1) + 2,
      'created and renamed, one changed by a user, one deleted',
    );
    await page.getByLabel('Entity', { exact: true }).fill('user');
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.get('entity') === 'user');
    await settled();
    await pageOf(1, Math.ceil(users / 50));
    assert.deepEqual(await shownIds(), await apiIds('entity=user'));
    for (const text of await rows().locator('.badge').allTextContents()) assert.match(text, /^user\./);
    await review(page, 'audit-log-filtered');

    await page.reload();
    await pageOf(1, Math.ceil(users / 50));
    assert.equal(await page.getByLabel('Entity', { exact: true }).inputValue(), 'user');
    assert.deepEqual(await shownIds(), await apiIds('entity=user'));
    await page.getByRole('button', { name: 'Next' }).click();
    await pageOf(2, Math.ceil(users / 50));
    assert.equal(query().get('entity'), 'user');
    assert.equal(query().get('page'), '1');
    assert.deepEqual(await shownIds(), await apiIds('entity=user&per_page=50&page=1'));
  });

  test('Next through every page: each entry once, as many as the API counts', { skip }, async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => u.search === '');
    await settled();
    const total = await apiCount();
    const pages = Math.ceil(total / 50);
    await pageOf(1, pages);
    const seen: string[] = [];
    const next = page.getByRole('button', { name: 'Next' });
    for (let n = 1; ; n++) {
      await pageOf(n, pages);
      if (n > 1) assert.equal(query().get('page'), String(n - 1));
      seen.push(...(await shownIds()));
      if (await next.isDisabled()) break;
      await next.click();
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total, 'no entry twice');
    assert.equal(await page.getByRole('button', { name: 'Previous' }).isDisabled(), false);
    await page.getByRole('button', { name: 'First' }).click();
    await pageOf(1, pages);
    assert.equal(await page.getByRole('button', { name: 'Previous' }).isDisabled(), true);
  });

  test('100 a page', { skip }, async () => {
    const total = await apiCount();
    await page.getByLabel('Per page', { exact: true }).selectOption('100');
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.get('per_page') === '100');
    await settled();
    await pageOf(1, Math.ceil(total / 100));
    assert.equal(await rows().count(), Math.min(total, 100));
    assert.deepEqual(await shownIds(), await apiIds('per_page=100'));
    await page.getByRole('button', { name: 'Last' }).click();
    await pageOf(Math.ceil(total / 100), Math.ceil(total / 100));
    assert.equal(await rows().count(), total - 100 * (Math.ceil(total / 100) - 1));
    assert.equal(query().get('per_page'), '100');
  });

  test('filter by verb, key prefix and actor id', { skip }, async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => u.searchParams.get('page') === null);
    await settled();
    await page.getByLabel('Per page', { exact: true }).selectOption('50');

    await page.getByLabel('Verb', { exact: true }).selectOption('deleted');
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.get('verb') === 'deleted');
    await settled();
    await rows().getByText('user.deleted', { exact: true }).waitFor();
    assert.deepEqual(await rows().locator('.badge').allTextContents(), ['user.deleted', 'tenant.deleted']);
    assert.match((await rows().first().textContent()) ?? '', /person1@acme\.test/);

    await page.getByLabel('Verb', { exact: true }).selectOption('updated');
    await page.getByLabel('Key prefix', { exact: true }).fill('client.');
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.get('key_prefix') === 'client.');
    await settled();
    assert.equal(query().get('verb'), 'updated');
    await rows().getByText('client.updated', { exact: true }).waitFor();
    assert.deepEqual(await shownIds(), await apiIds('verb=updated&key_prefix=client.'));
    assert.equal(await rows().count(), 1);
    // Arrays show as compact JSON, before and after.
    await rows()
      .first()
      .getByRole('button', { name: /^Show client\.updated/ })
      .click();
    assert.deepEqual(await cellsOf(page.getByRole('table', { name: '1 field changed' }), 'redirectUris'), [
      '["https://app.acme.test/cb"]',
      '["https://app.acme.test/cb","https://app.acme.test/cb2"]',
    ]);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => u.search === '');
    await settled();
    await page.getByLabel('Actor id', { exact: true }).fill(robotId);
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.get('actor_id') === robotId);
    await settled();
    await rows().getByText('client.updated', { exact: true }).waitFor();
    assert.deepEqual(await rows().locator('.badge').allTextContents(), ['client.updated', 'client.created']);
    for (const actor of await rows().locator('td:nth-child(3)').allTextContents()) {
      assert.equal(actor, 'Client Robot', 'the client by its name');
    }
    await rows()
      .first()
      .getByRole('button', { name: /^Show client\.updated/ })
      .click();
    const by = page.getByRole('definition').filter({ hasText: robotId });
    assert.match(
      (await by.textContent()) ?? '',
      new RegExp(`^Client Robot ${robotId} · Only this actor's entries$`),
    );

    // An actor neither the members nor the clients name, nor the entry itself: by its id, in the phone's width.
    await page.getByLabel('Actor id', { exact: true }).fill(endUserId);
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.get('actor_id') === endUserId);
    await settled();
    await rows().getByText('user.updated', { exact: true }).waitFor();
    assert.deepEqual(await rows().locator('td:nth-child(3)').allTextContents(), [`User ${endUserId}`]);
    await rows()
      .first()
      .getByRole('button', { name: /^Show user\.updated/ })
      .click();
    await review(page, 'audit-log-actor-id');

    await page.getByLabel('Actor id', { exact: true }).fill(ownerId);
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.get('actor_id') === ownerId);
    await settled();
    const byOwner = await apiCount(`actor_id=${ownerId}`);
    await pageOf(1, Math.ceil(byOwner / 50));
    assert.deepEqual(await shownIds(), await apiIds(`actor_id=${ownerId}`));
  });

  test('a time range without entries, and a query the API refuses', { skip }, async () => {
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((u) => u.search === '');
    await settled();
    await page.getByLabel('From', { exact: true }).fill('2001-01-01T00:00');
    await page.getByLabel('To', { exact: true }).fill('2001-01-02T00:00');
    await applyFilters();
    await page.waitForURL((u) => u.searchParams.has('from') && u.searchParams.has('to'));
    await settled();
    assert.equal(query().get('from'), new Date(2001, 0, 1).toISOString());
    assert.equal(query().get('to'), new Date(2001, 0, 2).toISOString());
    await page.getByText('No entries match these filters').waitFor();
    assert.equal(await entries().count(), 0);
    assert.equal(await page.getByLabel('From', { exact: true }).inputValue(), '2001-01-01T00:00');
    await review(page, 'audit-log-empty');

    await page.goto(`${server.base}${LOG}?verb=exploded`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match((await alert.textContent()) ?? '', /verb/);
    assert.match((await alert.textContent()) ?? '', /created, updated, deleted, login/);
  });

  test('members have no audit log', { skip }, async () => {
    await addConsoleMember(server, acme, 'mel@console.test', 'member');
    const memberContext = await browser.newContext({ viewport: DESKTOP });
    const member = await signInToConsole(memberContext, server, 'mel@console.test', LOG);
    await member.getByRole('heading', { name: 'Audit log' }).waitFor();
    await member.getByText('Only owners of this organization can read its audit log.').waitFor();
    const nav = member.getByRole('navigation', { name: /sections/ });
    await nav.getByRole('link', { name: 'Settings' }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Audit log' }).count(), 0);
    assert.equal(await member.getByRole('table').count(), 0);
    await memberContext.close();
  });
});
