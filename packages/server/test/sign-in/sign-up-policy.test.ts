import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser } from './support/browser.js';

const PASSWORD = 'a long enough password';
const LINK = /Create an account/;

/**
 * The sign-up policy of org settings (DESIGN §16): `open`, `invite_only`, `domains`. The hosted
 * login offers "Create an account" only where it applies and the sign-up route enforces it. On
 * both databases: the policy is stored in columns of its own (migration 023), written by PATCH
 * settings and read on every page.
 */
for (const database of httpSuite()) {
  describe(`sign-up policy on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let issuer: string;
    let owner: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      await ownedOrg(server, 'acme');
      owner = await (await consoleOf(server)).token('owner@acme.test');
      issuer = server.issuer('acme');
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const settings = (body: unknown) => call(server, 'PATCH', '/organizations/acme/settings', owner, body);
    const page = async (path: string) => {
      const res = await fetch(new URL(path, issuer));
      return { status: res.status, text: await res.text() };
    };
    const userExists = async (email: string) =>
      (await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) !==
      undefined;

    /** The sign-up form, read while it is offered, then submitted with `email`. */
    const signUpWith = async (browser: FormBrowser, form: string, email: string) => {
      const res = await browser.submit(new URL('signup', issuer).href, form, { email, password: PASSWORD });
      return { status: res.status, text: await res.text() };
    };

    test('open by default: settings say so and the login links to sign-up', { skip }, async () => {
      const res = await call(server, 'GET', '/organizations/acme/settings', owner);
      assert.equal(res.status, 200);
      assert.equal(res.body.sign_up, 'open');
      assert.deepEqual(res.body.sign_up_domains, []);
      assert.match((await page('login')).text, LINK);
    });

    test('invite_only: no sign-up link, and the sign-up route refuses with a clear page', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const form = await (await browser.get(new URL('signup', issuer).href)).text();
      const changed = await settings({ sign_up: 'invite_only' });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.body.sign_up, 'invite_only');
      assert.doesNotMatch((await page('login')).text, LINK);

      const shown = await page('signup');
      assert.equal(shown.status, 403);
      assert.match(shown.text, /<h1>Invitation needed<\/h1>/);
      assert.match(
        shown.text,
        /Accounts for acme are created by invitation only\. Ask the organization to invite you\./,
      );
      assert.doesNotMatch(shown.text, /<form/);
      // A form read while sign-up was open is refused the same way.
      const posted = await signUpWith(browser, form, 'late@acme.test');
      assert.equal(posted.status, 403);
      assert.match(posted.text, /created by invitation only/);
      assert.equal(await userExists('late@acme.test'), false);

      const audit = await call(server, 'GET', '/organizations/acme/events?entity=organization', owner);
      const [entry] = audit.body;
      assert.equal(entry.key, 'organization.updated');
      assert.deepEqual(entry.changes, { signUp: 'invite_only' });
    });

    test('domains: only addresses at the listed domains sign up; others get a clear error', {
      skip,
    }, async () => {
      const missing = await settings({ sign_up: 'domains' });
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, {
        error: 'invalid_request',
        error_detail: 'sign_up "domains" needs at least one domain in sign_up_domains',
      });
      const bad = await settings({ sign_up: 'domains', sign_up_domains: ['https://acme.test'] });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, {
        error: 'invalid_request',
        error_detail: 'sign_up_domains[0]: must be a domain name like example.com (no @, scheme or path)',
      });
      const changed = await settings({
        sign_up: 'domains',
        sign_up_domains: ['Acme.TEST', 'acme.test', 'partner.test'],
      });
      assert.equal(changed.status, 200, changed.text);
      assert.deepEqual(
        [changed.body.sign_up, changed.body.sign_up_domains],
        ['domains', ['acme.test', 'partner.test']],
      );
      assert.match((await page('login')).text, LINK);

      const browser = new FormBrowser();
      const form = await (await browser.get(new URL('signup', issuer).href)).text();
      assert.match(form, /Open to addresses at @acme\.test, @partner\.test\./);
      const outside = await signUpWith(browser, form, 'eve@elsewhere.test');
      assert.equal(outside.status, 403);
      assert.match(
        outside.text,
        /Only addresses at @acme\.test, @partner\.test can create an account here\./,
      );
      // Said once, and the form keeps what was typed, to correct the address in place.
      assert.equal(outside.text.split('can create an account here').length, 2, outside.text);
      assert.match(outside.text, /<input id="email" name="email"[^>]* value="eve@elsewhere\.test">/);
      assert.equal(await userExists('eve@elsewhere.test'), false);
      // A look-alike domain is not the domain.
      const lookalike = await signUpWith(browser, form, 'eve@notacme.test');
      assert.equal(lookalike.status, 403);
      assert.equal(await userExists('eve@notacme.test'), false);

      // Inside the domains, the account is made only from the link mailed to the address
      // (test/federation/account-linking.test.ts follows it).
      const fresh = new FormBrowser();
      const freshForm = await (await fresh.get(new URL('signup', issuer).href)).text();
      assert.doesNotMatch(freshForm, /name="password"/);
      const inside = await signUpWith(fresh, freshForm, 'Pat@Partner.Test');
      assert.equal(inside.status, 200, inside.text);
      assert.match(inside.text, /<h1>Check your mail<\/h1>/);
      assert.equal(await userExists('Pat@Partner.Test'), false);
    });

    test('back to open: the domains are dropped and anyone signs up again', { skip }, async () => {
      const changed = await settings({ sign_up: 'open' });
      assert.equal(changed.status, 200);
      assert.deepEqual(changed.body.sign_up_domains, []);
      const browser = new FormBrowser();
      const form = await (await browser.get(new URL('signup', issuer).href)).text();
      assert.doesNotMatch(form, /Open to addresses at/);
      const res = await signUpWith(browser, form, 'eve@elsewhere.test');
      assert.equal(res.status, 303);
    });

    test('an address with a KELVIN SIGN is no address: its account key would be another’s', {
      skip,
    }, async () => {
      // U+212A lower-cases to k, and an account's unique key is its address in lower case: the
      // account of ni\u212A@acme.test held nik@acme.test's place (and its mail went elsewhere).
      const browser = new FormBrowser();
      const form = await (await browser.get(new URL('signup', issuer).href)).text();
      for (const email of ['ni\u212A@acme.test', 'nik@\u212Aiosk.test']) {
        const res = await signUpWith(browser, form, email);
        assert.equal(res.status, 400, email);
        assert.match(res.text, /Please check the form: email is not a valid address\./);
      }
      const taken = await server.db
        .selectFrom('users')
        .select('id')
        .where('email_key', 'in', ['nik@acme.test', 'nik@kiosk.test'])
        .execute();
      assert.deepEqual(taken, []);
    });
  });
}
