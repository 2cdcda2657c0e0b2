import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createUser } from '../../src/domain/directory/users.js';
import { SYSTEM } from '../../src/domain/types.js';
import { findOrgBySlug } from '../../src/storage/repos/orgs.js';
import { call, consoleOf } from '../management/support/console.js';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { eventually } from '../webhooks/support/eventually.js';
import { Receiver, verified } from '../webhooks/support/receiver.js';
import { testTls } from '../webhooks/support/tls.js';
import { DESKTOP, launchChromium, makeConsoleUser, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

/** How many more users the journey's org gets, so its audit log holds more than 120 `user` entries. */
const MORE_USERS = 125;

/**
 * The whole journey of a new owner, in one browser: sign in, create an org, a confidential client
 * (its secret once), a webhook to an HTTPS receiver, a user whose `user.created` the receiver gets
 * and the delivery log shows, then the audit log filtered by entity, paged through, and one entry's
 * before/after opened.
 */
describe('console: an owner’s first day', () => {
  const skip = chromiumSkip();
  const tls = testTls();
  let server: TestServer;
  let receiver: Receiver;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    receiver = await Receiver.start(tls);
    server = await startServer({
      consoleDir: await consoleBuild(),
      env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      webhooks: { ca: tls.cert, pollMs: 100 },
    });
    await makeConsoleUser(server, 'olivia@console.test');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await receiver?.close();
  });

  test('org, client, webhook, user, delivery, audit log', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'olivia@console.test');

    // An organization, from the first-run page; then a better name for it.
    await page.getByRole('heading', { name: 'Welcome to Tessera' }).waitFor();
    await page.getByLabel('Slug').fill('globex');
    await page.getByLabel('Name', { exact: true }).fill('Globex');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/globex/settings');
    await page.getByLabel('Name', { exact: true }).fill('Globex Corporation');
    await page.getByLabel('ID token signing algorithm').selectOption('ES256');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    // The org's ID tokens are signed with ES256 from now on: discovery says so (access tokens stay RS256).
    const discovery = await fetch(`${server.issuer('globex')}.well-known/openid-configuration`);
    assert.deepEqual((await discovery.json()).id_token_signing_alg_values_supported, ['ES256']);
    const nav = page.getByRole('navigation', { name: 'Globex Corporation sections' });

    // A confidential client: its secret once, and the secret works.
    await nav.getByRole('link', { name: 'Clients' }).click();
    await page.getByRole('link', { name: 'New client', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill('Billing worker');
    await page.getByRole('radio', { name: 'Confidential' }).check();
    await page.getByRole('button', { name: 'Create client' }).click();
    await page.getByRole('heading', { name: 'The client secret', level: 2 }).waitFor();
    const clientSecret = (await page.getByTestId('secret').textContent()) ?? '';
    assert.match(clientSecret, /^tcs_/);
    const clientId = new URL(page.url()).pathname.split('/').pop() ?? '';
    const machine = await tokenRequest(server.issuer('globex'), {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    assert.equal(machine.status, 200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.getByTestId('secret').count(), 0);

    // A webhook for every user event, to the local HTTPS receiver.
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('URL').fill(receiver.url('/hook', '127.0.0.1'));
    await form.getByRole('button', { name: /^Add user\.\*/ }).click();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('heading', { name: 'Signing secret' }).waitFor();
    const webhookSecret = await page.getByTestId('secret').innerText();
    await page.getByRole('button', { name: 'I have stored it' }).click();

    // A user; the receiver gets its user.created, signed with the webhook's secret.
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'New user' }).click();
    const newUser = page.getByRole('form', { name: 'New user' });
    await newUser.getByLabel('Email').fill('grace@globex.test');
    await newUser.getByLabel('First name').fill('Grace');
    await newUser.getByLabel('Last name').fill('Hopper');
    await newUser.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('heading', { level: 1, name: 'grace@globex.test' }).waitFor();
    const delivery = await eventually(() => receiver.at('/hook')[0], 20_000, 'the user.created delivery');
    const event = verified(webhookSecret, delivery);
    assert.equal(event.type, 'user.created');
    assert.equal((event.data as { data: { email: string } }).data.email, 'grace@globex.test');

    // The delivery log shows it delivered.
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: receiver.url('/hook', '127.0.0.1') }).click();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    const logged = page.getByRole('rowgroup').filter({ hasText: delivery.id });
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await logged.getByText('Delivered').count()) > 0;
      },
      20_000,
      'the delivery log to show the delivery',
    );
    assert.match(await logged.innerText(), /user\.created/);

    // More than 120 user entries in the audit log: filtered by entity, paged through, each once.
    const globex = await findOrgBySlug(server.db, 'globex');
    assert.ok(globex);
    for (let i = 0; i < MORE_USERS; i++) {
      await createUser(server.deps, globex, { email: `user-${i}@globex.test`, password: null }, SYSTEM);
    }
    const token = await (await consoleOf(server)).token('olivia@console.test');
    const api = await call(server, 'GET', '/organizations/globex/events?entity=user&per_page=1', token);
    const total = Number(/[?&]page=(\d+)[^>]*>;\s*rel="last"/.exec(api.headers.get('link') ?? '')?.[1]) + 1;
    assert.ok(total > 120, `${total} user entries`);

    await nav.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Entity', { exact: true }).fill('user');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((u) => u.searchParams.get('entity') === 'user');
    const entries = page.getByRole('table', { name: 'Audit log entries, newest first' });
    const pages = Math.ceil(total / 50);
    const seen: string[] = [];
    const next = page.getByRole('button', { name: 'Next' });
    for (let n = 1; ; n++) {
      await page.getByText(`Page ${n} of ${pages}`, { exact: true }).waitFor();
      await page.getByText('Loading entries…').waitFor({ state: 'hidden' });
      seen.push(...(await entries.locator('.audit-id').allTextContents()));
      for (const key of await entries.locator('tbody > tr.audit-row .badge').allTextContents()) {
        assert.match(key, /^user\./);
      }
      if (await next.isDisabled()) break;
      await next.click();
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total, 'no entry twice');

    // The rename of the org and its new signing algorithm, as a before/after table.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Entity', { exact: true }).fill('organization');
    await page.getByLabel('Verb', { exact: true }).selectOption('updated');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((u) => u.searchParams.get('verb') === 'updated');
    await entries.getByRole('button', { name: /^Show organization\.updated/ }).click();
    const diff = page.getByRole('table', { name: '2 fields changed' });
    assert.deepEqual(await diff.getByRole('columnheader').allTextContents(), ['Field', 'Before', 'After']);
    const row = diff
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'name', exact: true }) });
    assert.deepEqual(await row.getByRole('cell').allTextContents(), ['Globex', 'Globex Corporation']);
    const alg = diff
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'idTokenSigningAlg', exact: true }) });
    assert.deepEqual(await alg.getByRole('cell').allTextContents(), ['RS256', 'ES256']);
    await context.close();
  });
});
