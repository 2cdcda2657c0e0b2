import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectionSecret } from '../../src/domain/federation/connections.js';
import type { Org } from '../../src/domain/types.js';
import { SamlIdp } from '../federation/support/saml-idp.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { DESKTOP, launchChromium, review, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

const SECRET = 'okta-client-secret-0123456789';
const ROTATED = 'okta-rotated-secret-9876543210';

/**
 * Enterprise sign-in connections as acme's owner makes them on the Connections screen (DESIGN §17):
 * an OIDC one and a SAML one from a real IdP's metadata, each checked through the management API;
 * the URLs shown to copy are the ones the API gives and serves; the client secret never appears on
 * the page once sent. SQLite only: the storage is the management API's, whose own suite runs on both
 * databases.
 */
describe('console: enterprise sign-in connections', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let acme: Org;
  let owner: string;
  let idp: SamlIdp;
  let roleId: string;
  let oidcId: string;

  before(async () => {
    if (skip) return;
    server = await startServer({ consoleDir: await consoleBuild(), webhooks: false });
    acme = await ownedOrg(server, 'acme');
    owner = await (await consoleOf(server)).token('owner@acme.test');
    const role = await call(server, 'POST', '/organizations/acme/roles', owner, {
      name: 'engineer',
      description: 'Builds things',
    });
    assert.equal(role.status, 201, role.text);
    roleId = role.body.id;
    idp = await SamlIdp.start();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/settings');
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await idp?.close();
    await server?.close();
  });

  const api = async (path: string) => {
    const res = await call(server, 'GET', `/organizations/acme/${path}`, owner);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const idIn = () => {
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    assert.match(id, /^con_/);
    return id;
  };
  const status = (text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  /** The values shown to copy, by label, and what the copy button of each puts on the clipboard. */
  const copyValues = async () => {
    const shown: Record<string, string> = {};
    for (const box of await page.locator('.copy-value').all()) {
      const label = ((await box.locator('.copy-label').textContent()) ?? '').trim();
      const value = ((await box.getByTestId('copy-value').textContent()) ?? '').trim();
      await box.getByRole('button', { name: `Copy ${label}` }).click();
      await box
        .getByRole('button', { name: `Copy ${label}` })
        .filter({ hasText: 'Copied' })
        .waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), value, `copy of ${label}`);
      shown[label] = value;
    }
    return shown;
  };
  /** Whether `secret` is anywhere on the page: its text, its markup, or a field's value. */
  const onPage = (secret: string) =>
    page.evaluate(
      (s) =>
        document.documentElement.outerHTML.includes(s) ||
        Array.from(document.querySelectorAll('input, textarea')).some((e) =>
          (e as HTMLInputElement | HTMLTextAreaElement).value.includes(s),
        ),
      secret,
    );

  test('an OIDC connection: refused in the API’s words, created, the callback URL to copy, no secret', {
    skip,
  }, async () => {
    await page
      .getByRole('navigation', { name: 'acme sections' })
      .getByRole('link', { name: 'Connections' })
      .click();
    await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
    await page.getByText('No connections yet').waitFor();
    await review(page, 'connections-empty');
    await page.getByRole('link', { name: 'New connection', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/connections/new');

    const form = page.getByRole('form', { name: 'New connection' });
    assert.equal(await form.getByLabel('Type').inputValue(), 'oidc');
    await form.getByLabel('Name').fill('Okta');
    await form.getByLabel('Issuer').fill('http://acme.okta.example');
    await form.getByLabel('Client id').fill('tessera-acme');
    await form.getByLabel('Client secret').fill(SECRET);
    assert.equal(await form.getByLabel('Scopes').inputValue(), 'openid email profile');
    await form.getByLabel('Email domains').fill('acme.test\nAcme.example\n');
    await form.getByRole('checkbox', { name: /Create users on their first sign-in/ }).check();
    await form
      .getByRole('checkbox', { name: /Also create users at addresses outside these domains/ })
      .check();
    await form.getByLabel('Google Workspace domain').fill('Acme.test');
    await form.getByRole('checkbox', { name: 'engineer' }).check();
    await review(page, 'connection-new-oidc');

    // Plain http off loopback: refused in the API's words, nothing stored, the form kept.
    await form.getByRole('button', { name: 'Create connection' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.equal((await alert.textContent())?.trim(), 'issuer: must be an https URL');
    assert.deepEqual(await api('connections'), []);
    assert.equal(await form.getByLabel('Client id').inputValue(), 'tessera-acme');
    // "Test connection" checks the issuer before saving, in the same words; nothing is stored.
    await form.getByRole('button', { name: 'Test connection' }).click();
    const tested = form.locator('div.connection-test').getByRole('alert');
    await tested.waitFor();
    assert.equal((await tested.textContent())?.trim(), 'issuer: must be an https URL');
    assert.deepEqual(await api('connections'), []);

    await form.getByLabel('Issuer').fill('https://acme.okta.example');
    await form.getByRole('button', { name: 'Create connection' }).click();
    await page.waitForURL((u) => /^\/console\/o\/acme\/connections\/con_/.test(u.pathname));
    oidcId = idIn();
    await page.getByRole('heading', { name: 'Okta', level: 1 }).waitFor();
    await status('Connection created.');

    const stored = await api(`connections/${oidcId}`);
    assert.deepEqual(
      {
        type: stored.type,
        name: stored.name,
        domains: stored.domains,
        jit: stored.jit,
        jit_any_domain: stored.jit_any_domain,
        default_roles: stored.default_roles,
        oidc: stored.oidc,
      },
      {
        type: 'oidc',
        name: 'Okta',
        domains: ['acme.test', 'acme.example'],
        jit: true,
        jit_any_domain: true,
        default_roles: [roleId],
        oidc: {
          issuer: 'https://acme.okta.example',
          client_id: 'tessera-acme',
          scopes: ['openid', 'email', 'profile'],
          hosted_domain: 'acme.test',
          allowed_endpoint_hosts: [],
          accept_id_jag: false,
        },
      },
    );
    assert.equal(await connectionSecret(server.deps, acme, oidcId), SECRET);
    const callback = `${server.issuer('acme')}sso/${oidcId}/callback`;
    assert.equal(stored.callback_url, callback);
    assert.deepEqual(await copyValues(), { 'Callback (redirect) URL': callback });
    await page.getByText('Stored encrypted; never shown').waitFor();
    assert.equal(await onPage(SECRET), false, 'the secret is not on the page');
    const edit = page.getByRole('form', { name: 'Edit connection' });
    assert.equal(await edit.getByLabel('New client secret').inputValue(), '');
    await review(page, 'connection-oidc');
  });

  test('a SAML connection from the IdP’s metadata: ACS URL, SP entity id and metadata URL to copy', {
    skip,
  }, async () => {
    await page.goto(`${server.base}/console/o/acme/connections/new`);
    const form = page.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Type').selectOption('saml');
    assert.equal(await form.getByLabel('Client secret').count(), 0);
    await form.getByLabel('Name').fill('Corp IdP');
    await form.getByLabel('IdP metadata XML').fill(idp.metadata());
    await form.getByLabel('Email domains').fill('corp.test');
    await review(page, 'connection-new-saml');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await status('The identity provider’s details read correctly.');
    const found = form.locator('dl.connection-test');
    assert.equal(
      (await found.locator('dt').allTextContents()).join(' | '),
      'IdP entity id | IdP sign-in URL | Signing certificate',
    );
    assert.equal((await found.locator('dd').first().textContent())?.trim(), idp.entityId);
    // Tested, not saved: the OIDC connection of the test before is still the only one.
    assert.equal((await api('connections')).length, 1);
    await form.getByRole('button', { name: 'Create connection' }).click();
    await page.waitForURL((u) => /^\/console\/o\/acme\/connections\/con_/.test(u.pathname));
    const id = idIn();
    await page.getByRole('heading', { name: 'Corp IdP', level: 1 }).waitFor();
    await status('Connection created.');

    const stored = await api(`connections/${id}`);
    assert.deepEqual(
      [stored.type, stored.domains, stored.jit, stored.default_roles],
      ['saml', ['corp.test'], false, []],
    );
    assert.equal(stored.saml.idp_entity_id, idp.entityId);
    assert.equal(stored.saml.sso_url, `${idp.origin}/sso`);
    const issuer = server.issuer('acme');
    const shown = await copyValues();
    assert.deepEqual(shown, {
      'ACS URL': `${issuer}saml/${id}/acs`,
      'SP entity id': `${issuer}saml/${id}/metadata`,
      'SP metadata URL': `${issuer}saml/${id}/metadata`,
    });
    assert.deepEqual(
      [stored.acs_url, stored.sp_entity_id, stored.sp_metadata_url],
      [shown['ACS URL'], shown['SP entity id'], shown['SP metadata URL']],
    );
    // The metadata URL shown is served, and names the ACS URL shown.
    const metadata = await fetch(shown['SP metadata URL'] as string);
    assert.equal(metadata.status, 200);
    assert.match(await metadata.text(), new RegExp(`Location="${shown['ACS URL']}"`));
    await review(page, 'connection-saml');

    await page.getByRole('link', { name: '← All connections' }).click();
    await page.getByRole('row', { name: /Corp IdP/ }).waitFor();
    const rows = page.getByRole('row');
    assert.deepEqual((await rows.nth(1).getByRole('cell').allTextContents()).slice(0, 4), [
      'Okta',
      'OpenID Connect',
      'acme.test, acme.example',
      'Created on first sign-in',
    ]);
    assert.deepEqual((await rows.nth(2).getByRole('cell').allTextContents()).slice(0, 4), [
      'Corp IdP',
      'SAML 2.0',
      'corp.test',
      'Existing accounts only',
    ]);
    await review(page, 'connections-list');
  });

  test('edit with a new secret, never shown; an owner no more gets the API’s 403; delete after asking', {
    skip,
  }, async () => {
    await page.goto(`${server.base}/console/o/acme/connections/${oidcId}`);
    const edit = page.getByRole('form', { name: 'Edit connection' });
    await edit.getByLabel('Name').fill('Okta (EU)');
    await edit.getByLabel('New client secret').fill(ROTATED);
    assert.equal(await edit.getByLabel('Google Workspace domain').inputValue(), 'acme.test');
    await edit.getByLabel('Google Workspace domain').fill('');
    await edit.getByRole('checkbox', { name: /Create users on their first sign-in/ }).uncheck();
    await edit.getByRole('checkbox', { name: 'engineer' }).uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await status('Changes saved.');
    await page.getByRole('heading', { name: 'Okta (EU)', level: 1 }).waitFor();
    const stored = await api(`connections/${oidcId}`);
    assert.deepEqual([stored.name, stored.jit, stored.default_roles], ['Okta (EU)', false, []]);
    assert.deepEqual([stored.jit_any_domain, stored.oidc.hosted_domain], [false, null]);
    assert.deepEqual(stored.domains, ['acme.test', 'acme.example']);
    assert.equal(await connectionSecret(server.deps, acme, oidcId), ROTATED);
    assert.equal(await edit.getByLabel('New client secret').inputValue(), '');
    assert.equal(await onPage(ROTATED), false, 'the new secret is not on the page');

    // The API decides who may write: demoted meanwhile, the owner's save is refused in its words.
    await addConsoleMember(server, acme, 'owner@acme.test', 'member');
    await edit.getByLabel('Name').fill('Okta (US)');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    assert.equal((await refused.textContent())?.trim(), 'only an owner of the organization may do this');
    await page.reload();
    await page.getByText('Only owners of this organization can see and change').waitFor();
    assert.equal(
      await page
        .getByRole('navigation', { name: 'acme sections' })
        .getByRole('link', { name: 'Connections' })
        .count(),
      0,
    );
    await addConsoleMember(server, acme, 'owner@acme.test', 'owner');
    assert.equal((await api(`connections/${oidcId}`)).name, 'Okta (EU)');

    await page.reload();
    await page.getByRole('heading', { name: 'Okta (EU)', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete connection' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/connections');
    await status('Connection Okta (EU) deleted.');
    await page.getByRole('row', { name: /Corp IdP/ }).waitFor();
    assert.equal(await page.getByRole('row', { name: /Okta/ }).count(), 0);
    assert.equal((await call(server, 'GET', `/organizations/acme/connections/${oidcId}`, owner)).status, 404);
  });
});
