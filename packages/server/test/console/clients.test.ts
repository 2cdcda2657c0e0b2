import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createClient } from '../../src/domain/directory/clients.js';
import { SYSTEM } from '../../src/domain/types.js';
import { ownedOrg } from '../management/support/console.js';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { DESKTOP, launchChromium, review, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

const URI_RULE = 'must be https, or http on localhost, 127.0.0.1 or [::1]';

/** An owner's clients in the console: create, see a secret once, rotate it, edit, delete; paging. */
describe('console: clients', () => {
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

  const clientCredentials = (clientId: string, secret: string) =>
    tokenRequest(server.issuer('acme'), {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    });
  const storedClient = (id: string) =>
    server.db.selectFrom('clients').selectAll().where('id', '=', id).executeTakeFirst();
  const clientIdOf = (page: Page) => {
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    assert.match(id, /^cli_/);
    return id;
  };

  test('a confidential client: its secret once, rotated, edited, refused a bad URI, deleted', {
    skip,
  }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/clients');
    await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
    await page.getByText('No clients yet').waitFor();

    await page.getByRole('link', { name: 'New client', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/clients/new');
    await page.getByRole('heading', { name: 'New client', level: 1 }).waitFor();
    assert.equal(await page.getByRole('radio', { name: 'Confidential' }).isChecked(), true);
    assert.equal(await page.getByRole('checkbox', { name: 'First party' }).isChecked(), true);
    await page.getByLabel('Name', { exact: true }).fill('Billing');
    await page.getByLabel('Redirect URIs', { exact: true }).fill('https://billing.example.com/cb');
    // The grant types are left to the API: none is checked, and the form says so.
    for (const grant of ['authorization_code', 'refresh_token', 'client_credentials']) {
      assert.equal(await page.getByRole('checkbox', { name: grant }).isChecked(), false, grant);
    }
    await page.getByText('Left unchecked, Tessera gives the client its default grant types').waitFor();
    await review(page, 'client-new');
    await page.getByRole('button', { name: 'Create client' }).click();

    await page.waitForURL((u) => /^\/console\/o\/acme\/clients\/cli_/.test(u.pathname));
    const id = clientIdOf(page);
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'The client secret', level: 2 }).waitFor();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    assert.match(secret, /^tcs_[\w-]{43}$/);
    await review(page, 'client-secret');
    // The grant types were left alone, so the API chose them (in its own order), and the page says which:
    // with a redirect URI a confidential client's defaults are all three.
    await page
      .getByRole('status')
      .filter({
        hasText: 'Tessera gave it the grant types client_credentials, authorization_code, refresh_token.',
      })
      .waitFor();
    for (const grant of ['authorization_code', 'refresh_token', 'client_credentials']) {
      assert.equal(await page.getByRole('checkbox', { name: grant }).isChecked(), true, grant);
    }
    const stored = await storedClient(id);
    assert.equal(stored?.name, 'Billing');
    assert.equal(stored?.kind, 'confidential');
    assert.deepEqual(JSON.parse(stored?.grant_types ?? ''), [
      'client_credentials',
      'authorization_code',
      'refresh_token',
    ]);
    assert.equal(Number(stored?.first_party), 1);
    // The secret works at the org's token endpoint.
    const granted = await clientCredentials(id, secret);
    assert.equal(granted.status, 200);
    assert.equal(granted.body.token_type, 'Bearer');

    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.getByTestId('secret').count(), 0);
    await page.reload();
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    await page.getByText(id, { exact: true }).waitFor();
    assert.equal(await page.getByTestId('secret').count(), 0);
    assert.ok(!(await page.content()).includes(secret), 'the secret is not on the page after a reload');
    await review(page, 'client-detail');

    // A new secret: shown once, the old one refused.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('button', { name: 'Yes, rotate the secret' }).click();
    await page.getByRole('heading', { name: 'The new client secret', level: 2 }).waitFor();
    const rotated = (await page.getByTestId('secret').textContent()) ?? '';
    assert.match(rotated, /^tcs_[\w-]{43}$/);
    assert.notEqual(rotated, secret);
    const refused = await clientCredentials(id, secret);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error, 'invalid_client');
    assert.equal((await clientCredentials(id, rotated)).status, 200);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    // Edit the redirect URIs.
    const redirects = page.getByLabel('Redirect URIs', { exact: true });
    assert.equal(await redirects.inputValue(), 'https://billing.example.com/cb');
    await redirects.fill('https://billing.example.com/cb\nhttps://billing.example.com/cb2\n');
    await page.getByLabel('Post-logout redirect URIs').fill('https://billing.example.com/bye');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
    const edited = await storedClient(id);
    assert.deepEqual(JSON.parse(edited?.redirect_uris ?? ''), [
      'https://billing.example.com/cb',
      'https://billing.example.com/cb2',
    ]);
    assert.deepEqual(JSON.parse(edited?.post_logout_redirect_uris ?? ''), [
      'https://billing.example.com/bye',
    ]);

    // private_key_jwt keys published at a URL: stored, shown among the facts; emptied removes it.
    const jwksUri = page.getByLabel('Public key set URL (jwks_uri)');
    await jwksUri.fill('https://billing.example.com/.well-known/jwks.json');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Fetched from https://billing.example.com/.well-known/jwks.json').waitFor();
    assert.equal((await storedClient(id))?.jwks_uri, 'https://billing.example.com/.well-known/jwks.json');
    await jwksUri.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('None: it authenticates with its secret only').waitFor();
    assert.equal((await storedClient(id))?.jwks_uri, null);

    // Logout that reaches the app: a back-channel URI with its flag, stored and shown with the app's
    // (empty) logout delivery log; emptied, the URI and its flag go and the log with them.
    await page.getByLabel('Back-channel logout URI').fill('https://billing.example.com/logout');
    await page.getByRole('checkbox', { name: 'Back-channel logout needs the session id' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Logout deliveries' }).waitFor();
    await page.getByText('No sign-out has been sent to this app yet.').waitFor();
    await page.getByText('Told back-channel to https://billing.example.com/logout').waitFor();
    const logout = await storedClient(id);
    assert.equal(logout?.backchannel_logout_uri, 'https://billing.example.com/logout');
    assert.equal(logout?.backchannel_logout_session_required, 1);
    assert.equal(logout?.frontchannel_logout_uri, null);
    await page.getByLabel('Back-channel logout URI').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Logout deliveries' }).waitFor({ state: 'detached' });
    await page.getByText('Not told of sign-outs').waitFor();
    const cleared = await storedClient(id);
    assert.equal(cleared?.backchannel_logout_uri, null);
    assert.equal(cleared?.backchannel_logout_session_required, 0);

    // The API refuses a plain-http redirect URI off loopback, in its own words; nothing is stored.
    await redirects.fill('http://billing.example.com/cb');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal((await alert.textContent())?.trim(), `redirect_uris[0]: ${URI_RULE}`);
    assert.deepEqual(JSON.parse((await storedClient(id))?.redirect_uris ?? ''), [
      'https://billing.example.com/cb',
      'https://billing.example.com/cb2',
    ]);

    await page.getByRole('button', { name: 'Delete client' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/clients');
    await page.getByRole('status').filter({ hasText: 'Client Billing deleted.' }).waitFor();
    await page.getByText('No clients yet').waitFor();
    assert.equal(await storedClient(id), undefined);
    assert.equal((await clientCredentials(id, rotated)).status, 401);
    await context.close();
  });

  test('a public client: no secret; changed grant types and first party are sent', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/clients/new');
    await page.getByRole('heading', { name: 'New client', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Notes SPA');
    await page.getByRole('radio', { name: 'Public' }).check();
    await page.getByLabel('Redirect URIs', { exact: true }).fill('http://localhost:5173/cb');
    assert.equal(await page.getByRole('checkbox', { name: 'client_credentials' }).isChecked(), false);
    await page.getByRole('checkbox', { name: 'authorization_code' }).check();
    await page.getByText('You chose these grant types; they are sent as checked.').waitFor();
    await page.getByRole('checkbox', { name: 'First party' }).uncheck();
    await page.getByLabel('Allowed origins').fill('https://Notes.example.com\n');
    await page.getByRole('button', { name: 'Create client' }).click();

    await page.waitForURL((u) => /^\/console\/o\/acme\/clients\/cli_/.test(u.pathname));
    const id = clientIdOf(page);
    await page.getByRole('heading', { name: 'Notes SPA', level: 1 }).waitFor();
    const created = page.getByRole('status').filter({ hasText: 'It is a public client' });
    await created.waitFor();
    // Chosen in the form, so the page does not say Tessera chose them.
    assert.doesNotMatch((await created.textContent()) ?? '', /grant types/);
    assert.equal(await page.getByTestId('secret').count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Rotate secret' }).count(), 0);
    await page.getByText('No: people are asked to consent').waitFor();
    const stored = await storedClient(id);
    assert.equal(stored?.kind, 'public');
    assert.deepEqual(JSON.parse(stored?.grant_types ?? ''), ['authorization_code']);
    assert.deepEqual(JSON.parse(stored?.redirect_uris ?? ''), ['http://localhost:5173/cb']);
    assert.equal(Number(stored?.first_party), 0);
    assert.equal(stored?.allowed_origins, '["https://notes.example.com"]');

    // The explicit origins show in the edit form; emptied, the client is back to its redirect URIs' origins.
    const origins = page.getByLabel('Allowed origins');
    assert.equal(await origins.inputValue(), 'https://notes.example.com');
    await origins.fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
    assert.equal((await storedClient(id))?.allowed_origins, null);
    await page.getByText('http://localhost:5173', { exact: true }).first().waitFor();
    assert.equal(await origins.inputValue(), 'http://localhost:5173');

    // Pushed authorization requests (RFC 9126) required of this client alone.
    await page.getByText('Optional (unless the organization requires them)').waitFor();
    await page.getByRole('checkbox', { name: 'Require pushed authorization requests' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Required: it must push its authorization requests to /oauth/par').waitFor();
    assert.equal(Number((await storedClient(id))?.require_pushed_authorization_requests), 1);

    await page.getByRole('link', { name: '← All clients' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/clients');
    const row = page.getByRole('row', { name: /Notes SPA/ });
    await row.waitFor();
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 4), [
      'Notes SPA',
      id,
      'Public',
      'authorization_code',
    ]);
    await context.close();
  });

  test('more than 50 clients page with First/Previous/Next/Last', { skip }, async () => {
    const paged = await ownedOrg(server, 'paged');
    const names = Array.from({ length: 55 }, (_, i) => `Seeded ${String(i + 1).padStart(2, '0')}`);
    for (const name of names) {
      await createClient(server.deps, paged, { name, kind: 'confidential', redirectUris: [] }, SYSTEM);
    }
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'owner@paged.test', '/console/o/paged/clients');
    const pager = page.getByRole('navigation', { name: 'Pages of clients' });
    await pager.getByText('Page 1 of 2').waitFor();
    const rows = page.getByRole('table').getByRole('row');
    assert.equal(await rows.count(), 51);
    assert.equal(await pager.getByRole('button', { name: 'Previous' }).isDisabled(), true);
    const first = await page.getByRole('table').getByRole('link').allTextContents();
    await review(page, 'clients-list');

    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2').waitFor();
    assert.equal(new URL(page.url()).search, '?page=1');
    assert.equal(await rows.count(), 6);
    assert.equal(await pager.getByRole('button', { name: 'Next' }).isDisabled(), true);
    const second = await page.getByRole('table').getByRole('link').allTextContents();
    assert.deepEqual([...first, ...second].sort(), names);

    // The page is in the address: Back returns to the first.
    await page.goBack();
    await pager.getByText('Page 1 of 2').waitFor();
    assert.equal(await rows.count(), 51);
    await context.close();
  });
});
