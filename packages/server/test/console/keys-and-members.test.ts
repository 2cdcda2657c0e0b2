import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Org } from '../../src/domain/types.js';
import { addConsoleMember, ownedOrg } from '../management/support/console.js';
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

/** An owner rotates the signing keys and manages the members; a member only reads. */
describe('console: signing keys and members', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let acme: Org;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    acme = await ownedOrg(server, 'acme');
    await addConsoleMember(server, acme, 'mel@console.test', 'member');
    await makeConsoleUser(server, 'nia@console.test');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const keysByState = async () => {
    const rows = await server.db
      .selectFrom('signing_keys')
      .select(['kid', 'status'])
      .where('org_id', '=', acme.id)
      .execute();
    const of = (status: string) => rows.filter((r) => r.status === status).map((r) => r.kid);
    return { active: of('active'), next: of('next'), retired: of('retired') };
  };
  const roles = async () => {
    const rows = await server.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['users.email', 'memberships.role'])
      .where('memberships.org_id', '=', acme.id)
      .execute();
    return Object.fromEntries(rows.map((r) => [r.email, r.role]));
  };
  /** The text of the state column of the key `kid` in the table. */
  const stateOf = (page: Page, kid: string) =>
    page
      .getByRole('row', { name: new RegExp(kid) })
      .getByRole('cell')
      .nth(1)
      .textContent();

  test('keys: rotation makes next active and retires the active key', { skip }, async () => {
    const before = await keysByState();
    assert.equal(before.active.length, 1);
    assert.equal(before.next.length, 1);
    const [active, next] = [before.active[0] as string, before.next[0] as string];

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/keys');
    await page.getByRole('heading', { name: 'Signing keys', level: 1 }).waitFor();
    await page.getByRole('row', { name: new RegExp(active) }).waitFor();
    assert.equal(await stateOf(page, active), 'Active');
    assert.equal(await stateOf(page, next), 'Next');
    await page.getByText('Signs every token the organization issues now.').waitFor();
    await review(page, 'keys');

    await page.getByRole('button', { name: 'Rotate keys' }).click();
    await page.getByRole('button', { name: 'Yes, rotate' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Keys rotated' });
    await done.waitFor();
    assert.equal(
      (await done.textContent())?.trim(),
      `Keys rotated: ${next} is the active key now and signs from here on.`,
    );
    const afterRotation = await keysByState();
    assert.deepEqual(afterRotation.active, [next]);
    assert.deepEqual(afterRotation.retired, [active]);
    assert.equal(afterRotation.next.length, 1);
    const newNext = afterRotation.next[0] as string;
    await page.getByRole('row', { name: new RegExp(newNext) }).waitFor();
    assert.equal(await stateOf(page, next), 'Active');
    assert.equal(await stateOf(page, active), 'Retired');
    assert.equal(await stateOf(page, newNext), 'Next');
    await review(page, 'keys-rotated');
    await context.close();
  });

  test('members: an owner changes a role, removes a member; the last owner stays', {
    skip,
  }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/members');
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByRole('row', { name: /mel@console\.test/ }).waitFor();
    assert.equal(
      await page.getByRole('combobox', { name: 'Role of mel@console.test' }).inputValue(),
      'member',
    );
    assert.equal(await page.getByRole('combobox', { name: 'Role of owner@acme.test' }).inputValue(), 'owner');
    await review(page, 'members-owner');

    // Nobody is added without accepting an invitation (console/invitations.test.ts): Nia accepted one.
    await addConsoleMember(server, acme, 'nia@console.test', 'member');
    await page.reload();
    const nia = page.getByRole('row', { name: /nia@console\.test/ });
    await nia.waitFor();
    assert.equal((await roles())['nia@console.test'], 'member');

    // Change the role in the row.
    await nia.getByRole('combobox', { name: 'Role of nia@console.test' }).selectOption('owner');
    await nia.getByRole('button', { name: 'Save role' }).click();
    await page.getByRole('status').filter({ hasText: 'nia@console.test is now an owner.' }).waitFor();
    assert.equal((await roles())['nia@console.test'], 'owner');

    // Remove her again: owner@acme.test is the only owner left.
    await nia.getByRole('button', { name: 'Remove' }).click();
    await nia.getByRole('button', { name: 'Yes, remove' }).click();
    await page.getByRole('status').filter({ hasText: 'nia@console.test is no longer a member.' }).waitFor();
    await page.getByRole('row', { name: /nia@console\.test/ }).waitFor({ state: 'detached' });
    assert.equal((await roles())['nia@console.test'], undefined);

    // The last owner cannot go: the API's 409 in its own words.
    const me = page.getByRole('row', { name: /owner@acme\.test/ });
    await me.getByRole('button', { name: 'Remove' }).click();
    await me.getByRole('button', { name: 'Yes, remove' }).click();
    const conflict = page.getByRole('alert');
    await conflict.waitFor();
    assert.equal(
      (await conflict.textContent())?.trim(),
      'the last owner of the organization cannot be removed: make another member an owner first',
    );
    assert.deepEqual(await roles(), { 'owner@acme.test': 'owner', 'mel@console.test': 'member' });
    await context.close();
  });

  test('a member sees members and settings read-only, and no Clients, Signing keys, API resources or Roles', {
    skip,
  }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'mel@console.test', '/console/o/acme/members');
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await page.getByRole('row', { name: /owner@acme\.test/ }).waitFor();
    await page.getByText('only owners can change it').waitFor();
    assert.deepEqual(
      (
        await page
          .getByRole('row', { name: /mel@console\.test/ })
          .getByRole('cell')
          .allTextContents()
      ).slice(0, 2),
      ['mel@console.test (you)', 'Member'],
    );
    assert.equal(await page.getByRole('combobox').count(), 1, 'only the organization switcher');
    assert.equal(await page.getByRole('main').getByRole('button').count(), 0);
    assert.equal(await page.getByRole('heading', { name: 'Invite member' }).count(), 0);
    await review(page, 'members-member');

    const nav = page.getByRole('navigation', { name: 'acme sections' });
    assert.deepEqual(await nav.getByRole('link').allTextContents(), ['Settings', 'Members']);

    await nav.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('only owners can change it').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0);
    assert.equal(await page.getByRole('textbox').count(), 0);

    // Typing the address of an owners-only screen says why there is nothing to see.
    for (const [section, title] of [
      ['clients', 'Clients'],
      ['keys', 'Signing keys'],
      ['resources', 'API resources'],
      ['roles', 'Roles'],
    ]) {
      await page.goto(`${server.base}/console/o/acme/${section}`);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await page.getByText(`Only owners of this organization can see`).waitFor();
      assert.equal(await page.getByRole('table').count(), 0);
    }
    await context.close();
  });
});
