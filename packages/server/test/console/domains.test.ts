import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Org } from '../../src/domain/types.js';
import { addConsoleMember, ownedOrg } from '../management/support/console.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { TxtDnsServer } from '../support/txt-dns-server.js';
import { DESKTOP, launchChromium, review, signInToConsole } from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

/**
 * The Domains screen (DESIGN §21): an owner adds a domain, sees the TXT record to create (with copy
 * buttons), verifies before and after publishing it in a DNS server of the test's own
 * (TESSERA_DNS_SERVERS), makes it primary and deletes another; a member sees why not.
 */
describe('console: the organization’s own domains', () => {
  const skip = chromiumSkip();
  let server: TestServer;
  let browser: Browser;
  let acme: Org;
  const dns = new TxtDnsServer();

  before(async () => {
    if (skip) return;
    await dns.start();
    server = await startServer({
      consoleDir: await consoleBuild(),
      webhooks: false,
      env: { TESSERA_DNS_SERVERS: dns.address },
    });
    acme = await ownedOrg(server, 'acme');
    await addConsoleMember(server, acme, 'mel@console.test', 'member');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await dns.close();
  });

  const stored = () =>
    server.db
      .selectFrom('org_domains')
      .selectAll()
      .where('org_id', '=', acme.id)
      .orderBy('created_at')
      .execute();

  test('add, copy the record, verify (refused, then verified), make primary, delete', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    const page = await signInToConsole(context, server, 'owner@acme.test', '/console/o/acme/domains');
    await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
    await page.getByText('No domains yet').waitFor();
    await review(page, 'domains-empty');

    // A name Tessera keeps for itself is refused in the API's words.
    await page.getByLabel('Domain', { exact: true }).fill('login.acme.localhost');
    await page.getByRole('button', { name: 'Add domain' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    assert.equal(
      (await refused.textContent())?.trim(),
      'name: login.acme.localhost is under localhost, which Tessera serves itself',
    );

    await page.getByLabel('Domain', { exact: true }).fill('login.acme.test');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('status').filter({ hasText: 'login.acme.test added' }).waitFor();
    const [row] = await stored();
    assert.ok(row);
    assert.equal(row.name, 'login.acme.test');
    const card = page.getByRole('region', { name: /login\.acme\.test/ });
    await card.getByText('_tessera-challenge.login.acme.test').waitFor();
    await card.getByText(row.token).waitFor();
    await card.getByRole('button', { name: 'Copy Record value' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), row.token);
    await review(page, 'domains-added');

    // Before the record exists: the API's own words.
    await card.getByRole('button', { name: 'Verify' }).click();
    const missing = card.getByRole('alert');
    await missing.waitFor();
    assert.equal(
      (await missing.textContent())?.trim(),
      'no TXT record at _tessera-challenge.login.acme.test yet',
    );
    await review(page, 'domains-verify-refused');

    dns.records.set('_tessera-challenge.login.acme.test', [row.token]);
    await card.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('status').filter({ hasText: 'login.acme.test is verified.' }).waitFor();
    await card.getByText('Verified', { exact: true }).waitFor();
    assert.notEqual((await stored())[0]?.verified_at, null);

    await card.getByRole('button', { name: 'Make primary' }).click();
    await card.getByRole('button', { name: 'Make primary' }).click();
    const issuer = `http://login.acme.test:${server.port}/`;
    await page
      .getByRole('status')
      .filter({ hasText: `The issuer is now ${issuer}` })
      .waitFor();
    await card.getByText('Primary', { exact: true }).waitFor();
    const org = await server.db
      .selectFrom('organizations')
      .select('issuer_domain')
      .where('id', '=', acme.id)
      .executeTakeFirstOrThrow();
    assert.equal(org.issuer_domain, 'login.acme.test');
    await review(page, 'domains-primary');

    // Another domain, deleted.
    await page.getByLabel('Domain', { exact: true }).fill('spare.acme.test');
    await page.getByRole('button', { name: 'Add domain' }).click();
    const spare = page.getByRole('region', { name: /spare\.acme\.test/ });
    await spare.getByRole('button', { name: 'Delete' }).click();
    await spare.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'spare.acme.test deleted.' }).waitFor();
    assert.deepEqual(
      (await stored()).map((d) => d.name),
      ['login.acme.test'],
    );
    await context.close();
  });

  test('a member sees that only owners manage domains; no call is made', { skip }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(context, server, 'mel@console.test', '/console/o/acme/domains');
    await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
    await page.getByText('Only owners of this organization can add its own domains').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Add domain' }).count(), 0);
    await review(page, 'domains-member');
    await context.close();
  });
});
