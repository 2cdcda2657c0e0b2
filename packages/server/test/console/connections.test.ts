import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectionSecret } from '../../src/domain/federation/connections.js';
import type { Org } from '../../src/domain/types.js';
import { SteerableOidcUpstream } from '../federation/support/oidc-upstream.js';
import { SamlIdp } from '../federation/support/saml-idp.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  assertAccessible,
  DESKTOP,
  launchChromium,
  PHONE,
  review,
  signInToConsole,
} from './support/console-browser.js';
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
describe('console: enterprise sign-in connections and SCIM directories', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let acme: Org;
  let owner: string;
  let idp: SamlIdp;
  let upstream: SteerableOidcUpstream;
  let roleId: string;
  let oidcId: string;

  before(async () => {
    if (skip) return;
    // The provider "Test connection" reaches runs on this machine: the outbound policy lets it be fetched.
    upstream = await SteerableOidcUpstream.start();
    server = await startServer({
      consoleDir: await consoleBuild(),
      webhooks: false,
      env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
    });
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
    await upstream?.close();
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
    await review(page, 'connection-test-oidc-refused');
    // An issuer that answers: what its discovery names, shown before anything is saved.
    await form.getByLabel('Issuer').fill(upstream.issuer);
    await form.getByRole('button', { name: 'Test connection' }).click();
    await status('The provider answered: its configuration names this issuer');
    const found = form.locator('dl.connection-test');
    assert.deepEqual(await found.locator('dt').allTextContents(), [
      'Issuer',
      'Authorization endpoint',
      'Token endpoint',
      'Keys (JWKS)',
      'Userinfo endpoint',
      'ID token signing algorithms',
    ]);
    assert.deepEqual((await found.locator('dd').allTextContents()).slice(0, 2), [
      upstream.issuer,
      `${upstream.issuer}/authorize`,
    ]);
    assert.ok(upstream.requests.includes('GET /.well-known/openid-configuration'), upstream.requests.join());
    assert.deepEqual(await api('connections'), []);
    await review(page, 'connection-test-oidc');

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
    await review(page, 'connection-test-saml');
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

  /** A request of the SCIM API with a directory's bearer token. */
  const scim = async (base: string, token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(new URL(path, base), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  /** What the page keeps where a script of the origin could read it later: both storages, as text. */
  const storages = () => page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
  /** What the page wrote to its console. */
  const consoleLines: string[] = [];
  const HOSTILE = 'Okta <img src=x onerror="window.__pwned=1">';
  let directoryId = '';
  let firstToken = '';

  test('a SCIM directory: created for a connection, its base URL and token shown once, gone after a reload', {
    skip,
  }, async () => {
    page.on('console', (m) => consoleLines.push(m.text()));
    await page
      .getByRole('navigation', { name: 'acme sections' })
      .getByRole('link', { name: 'SCIM directories' })
      .click();
    await page.getByRole('heading', { name: 'SCIM directories', level: 1 }).waitFor();
    await page.getByText('No directories yet').waitFor();
    await review(page, 'directories-empty');
    await page.getByRole('button', { name: 'New directory' }).click();
    const form = page.getByRole('form', { name: 'New directory' });
    // A name that is markup stays text.
    await form.getByLabel('Name').fill(HOSTILE);
    await form.getByLabel('Connection').selectOption({ label: 'Corp IdP' });
    await review(page, 'directory-new');
    await form.getByRole('button', { name: 'Create directory' }).click();
    await page.getByRole('heading', { name: 'SCIM bearer token' }).waitFor();
    firstToken = ((await page.getByTestId('secret').textContent()) ?? '').trim();
    assert.match(firstToken, /^tsc_/);
    await page.getByText('it is shown this once and cannot be shown again').waitFor();
    const base = `${server.issuer('acme')}scim/v2/`;
    assert.equal(((await page.getByTestId('copy-value').textContent()) ?? '').trim(), base);
    await review(page, 'directory-token');

    // Stored as asked, and the token shown is the directory's: the SCIM API answers it.
    const corp = ((await api('connections')) as { id: string; name: string }[]).find(
      (c) => c.name === 'Corp IdP',
    );
    const [stored] = (await api('directories')) as { id: string; name: string; connection: string }[];
    assert.deepEqual([stored?.name, stored?.connection], [HOSTILE, corp?.id]);
    directoryId = stored?.id ?? '';
    assert.equal((await scim(base, firstToken, 'GET', 'Users')).status, 200);
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    await page.getByRole('row', { name: /Okta <img/ }).waitFor();

    // Nowhere to be found again: not after a reload, not in the storages, not in the console.
    await page.reload();
    await page.getByRole('heading', { name: 'SCIM directories', level: 1 }).waitFor();
    await page.getByRole('row', { name: /Okta <img/ }).waitFor();
    assert.equal(await onPage(firstToken), false, 'the token is not on the page after a reload');
    assert.equal((await storages()).includes(firstToken), false, 'the token is in a storage');
    assert.equal(consoleLines.join('\n').includes(firstToken), false, 'the token was logged');
    assert.deepEqual((await page.getByRole('row').nth(1).getByRole('cell').allTextContents()).slice(0, 2), [
      HOSTILE,
      'Corp IdP',
    ]);
    await review(page, 'directories-list');
  });

  test('a directory’s page: a new token once (the old one stops), a pushed group mapped to a role, a user adopted', {
    skip,
  }, async () => {
    await page.getByRole('link', { name: HOSTILE }).click();
    await page.waitForURL((u) => u.pathname === `/console/o/acme/directories/${directoryId}`);
    await page.getByRole('heading', { name: HOSTILE, level: 1 }).waitFor();
    const base = `${server.issuer('acme')}scim/v2/`;
    assert.equal(((await page.getByTestId('copy-value').textContent()) ?? '').trim(), base);
    await page.getByText('Stored as a hash; never shown again.').waitFor();

    await page.getByRole('button', { name: 'Rotate token' }).click();
    await page.getByRole('button', { name: 'Yes, rotate it' }).click();
    await page.getByRole('heading', { name: 'SCIM bearer token' }).waitFor();
    const token = ((await page.getByTestId('secret').textContent()) ?? '').trim();
    assert.match(token, /^tsc_/);
    assert.notEqual(token, firstToken);
    assert.equal((await scim(base, firstToken, 'GET', 'Users')).status, 401);
    assert.equal((await scim(base, token, 'GET', 'Users')).status, 200);
    await review(page, 'directory-rotated');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByTestId('secret').waitFor({ state: 'detached' });
    assert.equal(await onPage(token), false, 'the token is gone once dismissed');

    // The provider pushes a group; the owner maps it to a role.
    const group = await scim(base, token, 'POST', 'Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Engineering',
    });
    assert.equal(group.status, 201);
    // What a provider names a group is shown as text.
    const hostile = await scim(base, token, 'POST', 'Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: '<img src=x onerror="window.__pwned=2">',
    });
    assert.equal(hostile.status, 201);
    await page.reload();
    const row = page.getByRole('row', { name: /Engineering/ });
    await row.waitFor();
    await page.getByRole('cell', { name: '<img src=x onerror="window.__pwned=2">', exact: true }).waitFor();
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    assert.deepEqual((await row.getByRole('cell').allTextContents()).slice(0, 3), [
      'Engineering',
      '0',
      'None',
    ]);
    await page.getByRole('button', { name: 'Change the roles of Engineering' }).click();
    await page
      .getByRole('form', { name: 'Roles of Engineering' })
      .getByRole('checkbox', { name: 'engineer' })
      .check();
    await page.getByRole('button', { name: 'Save roles' }).click();
    await status('Engineering: engineer.');
    await row.getByRole('cell', { name: 'engineer', exact: true }).waitFor();
    const groups = (await api(`directories/${directoryId}/groups`)) as {
      display_name: string;
      roles: string[];
    }[];
    assert.deepEqual(
      groups.map((g) => [g.display_name, g.roles]),
      [
        ['Engineering', [roleId]],
        ['<img src=x onerror="window.__pwned=2">', []],
      ],
    );

    // An account the directory did not create: the provider is refused until an owner adopts it.
    const user = await call(server, 'POST', '/organizations/acme/users', owner, { email: 'pat@corp.test' });
    assert.equal(user.status, 201, user.text);
    const filter = `Users?filter=${encodeURIComponent('userName eq "pat@corp.test"')}`;
    assert.equal((await scim(base, token, 'GET', filter)).body.totalResults, 0);
    const adopt = page.getByRole('form', { name: 'Find a user to adopt' });
    await adopt.getByLabel('Email or name').fill('pat@');
    await adopt.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: 'Adopt pat@corp.test' }).click();
    await status('pat@corp.test is now managed by this directory, as userName pat@corp.test.');
    assert.equal((await scim(base, token, 'GET', filter)).body.totalResults, 1);
    await review(page, 'directory-page');
    assert.equal(consoleLines.join('\n').includes(token), false, 'the token was logged');
    assert.equal((await storages()).includes(token), false, 'the token is in a storage');
  });

  test('a member is told directories are for owners; deleting a directory stops its token', {
    skip,
  }, async () => {
    await addConsoleMember(server, acme, 'mel@acme.test', 'member');
    const memberContext = await browser.newContext({ viewport: DESKTOP });
    const member = await signInToConsole(
      memberContext,
      server,
      'mel@acme.test',
      '/console/o/acme/directories',
    );
    await member
      .getByText('Only owners of this organization can see and change its SCIM directories')
      .waitFor();
    await member.goto(`${server.base}/console/o/acme/directories/${directoryId}`);
    await member
      .getByText('Only owners of this organization can see and change its SCIM directories')
      .waitFor();
    assert.equal(await member.getByRole('button', { name: /Rotate token|New directory/ }).count(), 0);
    assert.equal(
      await member
        .getByRole('navigation', { name: 'acme sections' })
        .getByRole('link', { name: 'SCIM directories' })
        .count(),
      0,
    );
    await review(member, 'directories-member');
    await memberContext.close();

    await page.getByRole('button', { name: 'Delete directory' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/directories');
    await status(`Directory ${HOSTILE} deleted.`);
    await page.getByText('No directories yet').waitFor();
    assert.deepEqual(await api('directories'), []);
  });

  test('a trusted app made, changed and deleted on its screen, stored as typed; a connection accepts ID-JAGs', {
    skip,
  }, async () => {
    const client = async (client_name: string, type: 'public' | 'confidential') => {
      const res = await call(server, 'POST', '/organizations/acme/clients', owner, {
        client_name,
        type,
        ...(type === 'public' ? { redirect_uris: ['http://127.0.0.1/callback'] } : {}),
      });
      assert.equal(res.status, 201, res.text);
      return res.body.client_id as string;
    };
    const agent = await client('Acme agent', 'confidential');
    const other = await client('Reporting job', 'confidential');
    await client('Phone app', 'public');
    const NAME = 'Tools <img src=x onerror="window.__pwned=3">';

    await page
      .getByRole('navigation', { name: 'acme sections' })
      .getByRole('link', { name: 'Trusted apps' })
      .click();
    await page.getByRole('heading', { name: 'Trusted apps', level: 1 }).waitFor();
    await page.getByText('An ID-JAG lets a client someone signed in to here get a token').first().waitFor();
    await page.getByText('No trusted apps yet').waitFor();
    await review(page, 'trusted-apps-empty');
    await page.getByRole('button', { name: 'New trusted app' }).click();
    const form = page.getByRole('form', { name: 'New trusted app' });
    // Only the org's confidential clients may be picked.
    assert.deepEqual(
      await form
        .getByRole('checkbox')
        .evaluateAll((boxes) => boxes.map((b) => b.nextElementSibling?.textContent)),
      [`Acme agent (${agent})`, `Reporting job (${other})`],
    );
    await form.getByLabel('Name').fill(NAME);
    await form.getByLabel('Audience (the target’s issuer)').fill('https://tools.id.example.com/');
    await form.getByLabel('Target client id').fill('cli_AT_TOOLS');
    await form.getByRole('checkbox', { name: `Acme agent (${agent})` }).check();
    await form.getByLabel('Resources').fill('https://mcp.tools.example/mcp\n');
    await form.getByLabel('Scopes').fill('files:read files:write');
    await review(page, 'trusted-app-new');
    // Refused in the API's words, nothing stored, the form kept.
    await form.getByLabel('Audience (the target’s issuer)').fill('https://tools.id.example.com/?tenant=1');
    await form.getByRole('button', { name: 'Create trusted app' }).click();
    const refused = form.getByRole('alert');
    await refused.waitFor();
    assert.equal(
      (await refused.textContent())?.trim(),
      'audience must be the issuer URL of the target authorization server: https, no query or fragment',
    );
    assert.deepEqual(await api('trusted-apps'), { data: [] });
    assert.equal(await form.getByLabel('Target client id').inputValue(), 'cli_AT_TOOLS');
    await form.getByLabel('Audience (the target’s issuer)').fill('https://tools.id.example.com/');
    await form.getByRole('button', { name: 'Create trusted app' }).click();
    await page.waitForURL((u) => /^\/console\/o\/acme\/trusted-apps\/tap_/.test(u.pathname));
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByRole('heading', { name: NAME, level: 1 }).waitFor();

    const fields = (a: Record<string, unknown>) => {
      const { created_at: _c, updated_at: _u, ...rest } = a;
      return rest;
    };
    assert.deepEqual(fields(await api(`trusted-apps/${id}`)), {
      id,
      name: NAME,
      audience: 'https://tools.id.example.com/',
      target_client_id: 'cli_AT_TOOLS',
      client_ids: [agent],
      resources: ['https://mcp.tools.example/mcp'],
      scopes: ['files:read', 'files:write'],
    });
    // The name is markup, shown as text.
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    await review(page, 'trusted-app');

    const edit = page.getByRole('form', { name: 'Edit trusted app' });
    await edit.getByRole('checkbox', { name: `Reporting job (${other})` }).check();
    await edit.getByLabel('Scopes').fill('files:read');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await status('Changes saved.');
    assert.deepEqual(fields(await api(`trusted-apps/${id}`)), {
      id,
      name: NAME,
      audience: 'https://tools.id.example.com/',
      target_client_id: 'cli_AT_TOOLS',
      client_ids: [agent, other],
      resources: ['https://mcp.tools.example/mcp'],
      scopes: ['files:read'],
    });
    await page.setViewportSize(PHONE);
    await assertAccessible(page, 'trusted-app at phone size');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('link', { name: '← All trusted apps' }).click();
    const row = page.getByRole('row', { name: /Tools <img/ });
    await row.waitFor();
    assert.deepEqual(await row.getByRole('cell').allTextContents(), [
      NAME,
      'https://tools.id.example.com/',
      'Acme agent, Reporting job',
      'files:read',
    ]);
    await review(page, 'trusted-apps-list');
    await page.setViewportSize(PHONE);
    await assertAccessible(page, 'trusted-apps-list at phone size');
    await page.setViewportSize(DESKTOP);

    // A member is told the screen is for owners, and has no way there.
    await addConsoleMember(server, acme, 'mel@acme.test', 'member');
    const memberContext = await browser.newContext({ viewport: DESKTOP });
    const member = await signInToConsole(
      memberContext,
      server,
      'mel@acme.test',
      '/console/o/acme/trusted-apps',
    );
    await member.getByText('Only owners of this organization can see and change its trusted apps').waitFor();
    assert.equal(
      await member
        .getByRole('navigation', { name: 'acme sections' })
        .getByRole('link', { name: 'Trusted apps' })
        .count(),
      0,
    );
    await memberContext.close();

    // Deleted after asking.
    await page.getByRole('link', { name: NAME }).click();
    await page.getByRole('button', { name: 'Delete trusted app' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.waitForURL((u) => u.pathname === '/console/o/acme/trusted-apps');
    await status(`Trusted app ${NAME} deleted.`);
    await page.getByText('No trusted apps yet').waitFor();
    assert.deepEqual(await api('trusted-apps'), { data: [] });

    // An OIDC connection's "Accept ID-JAGs" box, saved through the connection API.
    const made = await call(server, 'POST', '/organizations/acme/connections', owner, {
      type: 'oidc',
      name: 'Acme IdP',
      issuer: 'https://idp.acme.example',
      client_id: 'tessera',
      client_secret: SECRET,
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.oidc.accept_id_jag, false);
    await page.goto(`${server.base}/console/o/acme/connections/${made.body.id}`);
    const connection = page.getByRole('form', { name: 'Edit connection' });
    const box = connection.getByRole('checkbox', {
      name: 'Accept ID-JAGs from this provider (Enterprise-Managed Authorization)',
    });
    assert.equal(await box.isChecked(), false);
    await box.check();
    await connection.getByRole('button', { name: 'Save changes' }).click();
    await status('Changes saved.');
    assert.equal((await api(`connections/${made.body.id}`)).oidc.accept_id_jag, true);
    await page.getByText('Accepted (Enterprise-Managed Authorization)').waitFor();
    assert.equal(await box.isChecked(), true);
    await review(page, 'connection-accept-id-jag');
  });
});
