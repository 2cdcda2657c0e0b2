import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { call, ownedOrg } from '../management/support/console.js';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { DESKTOP, launchChromium, review, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

/**
 * An owner makes a service account on its screen with chosen scopes, sees the secret once,
 * rotates it and deletes the account; the secrets shown are the ones the token endpoint takes.
 */
describe('console: service accounts', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    await ownedOrg(server, 'acme');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const machineToken = (clientId: string, secret: string) =>
    tokenRequest(`${server.base}/`, {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    });

  test('create with scope checkboxes, the secret shown once, rotate, delete', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(
      context,
      server,
      'owner@acme.test',
      '/console/o/acme/service-accounts',
    );
    await page.getByRole('heading', { name: 'Service accounts', level: 1 }).waitFor();
    await page
      .getByRole('navigation', { name: /sections/ })
      .getByRole('link', { name: 'Service accounts' })
      .waitFor();
    await page.getByText('No service accounts yet').waitFor();
    await review(page, 'service-accounts-empty');

    const form = page.getByRole('form', { name: 'New service account' });
    await form.getByLabel('Name').fill('Provisioning backend');
    assert.equal(await form.getByRole('checkbox', { name: 'org:read' }).isChecked(), true);
    await form.getByRole('checkbox', { name: 'org:write' }).check();
    assert.equal(await form.getByRole('checkbox', { name: 'users:impersonate' }).count(), 0);
    await form.getByRole('button', { name: 'Create service account' }).click();

    const secret = page.getByTestId('secret');
    await secret.waitFor();
    const first = ((await secret.textContent()) ?? '').trim();
    assert.match(first, /^tcs_/);
    const row = page.getByRole('row', { name: /Provisioning backend/ });
    await row.waitFor();
    const clientId = ((await row.locator('code').textContent()) ?? '').trim();
    assert.match(clientId, /^cli_/);
    assert.equal((await row.getByRole('cell').nth(2).textContent())?.trim(), 'org:readorg:write');
    await review(page, 'service-accounts');

    // What the screen showed is what the token endpoint takes, with the scopes ticked.
    const issued = await machineToken(clientId, first);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.equal(issued.body.scope, 'org:read org:write');
    const users = await call(server, 'GET', '/organizations/acme/users', issued.body.access_token as string);
    assert.equal(users.status, 200);

    // Shown once: dismissed, it is gone, and a reload does not bring it back.
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await secret.count(), 0);
    await page.reload();
    await page.getByRole('row', { name: /Provisioning backend/ }).waitFor();
    assert.equal(await page.getByTestId('secret').count(), 0);

    // Rotation: a new secret, once; the old one stops working.
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await secret.waitFor();
    const second = ((await secret.textContent()) ?? '').trim();
    assert.match(second, /^tcs_/);
    assert.notEqual(second, first);
    await page.getByText('The old secret no longer works.').waitFor();
    assert.equal((await machineToken(clientId, first)).status, 401);
    assert.equal((await machineToken(clientId, second)).status, 200);
    await review(page, 'service-accounts-rotated');

    // Deletion asks once more, then the account and its credentials are gone.
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Delete' }).click();
    const done = page.getByRole('status').filter({ hasText: 'deleted' });
    await done.waitFor();
    assert.equal(
      (await done.textContent())?.trim(),
      'Service account Provisioning backend deleted: its tokens no longer work.',
    );
    await page.getByText('No service accounts yet').waitFor();
    assert.equal((await machineToken(clientId, second)).status, 401);
    await context.close();
  });
});
