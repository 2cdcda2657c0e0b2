import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { clock } from '../../src/domain/clock.js';
import { findOrg } from '../../src/domain/directory/orgs.js';
import { createInvitation } from '../../src/domain/teams/invitations.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { ownedOrg } from '../management/support/console.js';
import { authorizeUrl, CALLBACK, freezeClock, makeClient } from '../sign-in/support/fixtures.js';
import { TestSmtp } from '../sign-in/support/smtp.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  DESKTOP,
  launchChromium,
  makeConsoleUser,
  OWNER_PASSWORD,
  review,
  signInToConsole,
} from './support/console-browser.js';
import { consoleBuild } from './support/console-build.js';

const DAY = 24 * 60 * 60 * 1000;
const INVITEE_PASSWORD = 'a passphrase of my own';
const realNow = clock.now;

/**
 * Invitations in Chromium (DESIGN §16): an owner invites from the console (by mail through a real
 * SMTP server on loopback, or as a link shown once), the invitee accepts on the hosted page and
 * signs in; used, expired and withdrawn links get a clear page; a console member invitation shows
 * the org to the invitee only once accepted, also to an address that had no console account.
 * SQLite only: the storage is the same as in management/invitations.test.ts, which runs on both.
 */
describe('console and hosted pages: invitations', () => {
  const skip = chromiumSkip();
  const smtp = new TestSmtp();
  let server: TestServer;
  let browser: Browser;
  let acme: Org;
  let issuer: string;
  let clientId: string;

  before(async () => {
    if (skip) return;
    await smtp.start();
    server = await startServer({
      consoleDir: await consoleBuild(),
      webhooks: false,
      env: { TESSERA_SMTP_URL: smtp.url },
    });
    acme = await ownedOrg(server, 'acme');
    issuer = server.issuer('acme');
    ({ clientId } = await makeClient(server.deps, acme, { name: 'Acme Notes' }));
    await makeConsoleUser(server, 'nia@console.test');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp.close();
  });
  afterEach(() => {
    clock.now = realNow;
  });

  /** The org slugs the console's organization switcher offers. */
  /**
   * The orgs the console's switcher offers, once it offers one: the app draws its bar before its list of
   * orgs arrives, so reading the switcher the moment the bar appears can find it empty.
   */
  const switcherOrgs = async (page: Page) => {
    const org = page.locator('#org-switcher option:not([value=""]):not([value="+new"])');
    await org.first().waitFor({ state: 'attached' });
    return org.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  };

  /** Signs `email` in to acme's client through the hosted login in `context`: where it lands. */
  async function signInToAcme(context: BrowserContext, email: string, password: string) {
    const page = await context.newPage();
    await page.route(`${new URL(CALLBACK).origin}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
    );
    await page.goto(authorizeUrl(issuer, clientId).url);
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/consent' || u.href.startsWith(CALLBACK));
    if (new URL(page.url()).pathname === '/consent') await page.click('button[value=allow]');
    await page.waitForURL((u) => u.href.startsWith(CALLBACK));
    return new URL(page.url());
  }

  test('by mail: the owner invites from the console; the invitee follows the mailed link, joins, signs in', {
    skip,
  }, async () => {
    const owner = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(owner, server, 'owner@acme.test', '/console/o/acme/invitations');
    await page.getByRole('heading', { name: 'Invitations', level: 1 }).waitFor();
    await page.getByText('No pending invitations').waitFor();
    const form = page.getByRole('form', { name: 'Invite a user' });
    await form.getByLabel('Email').fill('ivy@example.com');
    assert.equal(await form.getByLabel('Send the invitation by mail').isChecked(), true);
    const before = smtp.mails.length;
    await form.getByRole('button', { name: 'Invite a user' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'ivy@example.com is invited: the link is on its way by mail.' })
      .waitFor();
    const row = page.getByRole('row', { name: /ivy@example\.com/ });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /by mail/);
    await review(page, 'invitations-owner');

    const mail = await smtp.next('ivy@example.com', before);
    assert.equal(mail.subject, 'You are invited to acme');
    const link = mail.link as string;
    assert.match(link, new RegExp(`^${issuer}invitation\\?token=tin_`));

    const invitee = await browser.newContext({ viewport: DESKTOP });
    const accept = await invitee.newPage();
    await accept.goto(link);
    assert.equal(await accept.title(), 'Join acme · acme');
    await accept.getByRole('heading', { name: 'Join acme' }).waitFor();
    await review(accept, 'invitation-accept-new');
    await accept.fill('#first_name', 'Ivy');
    await accept.fill('#last_name', 'Ives');
    await accept.fill('#password', INVITEE_PASSWORD);
    await accept.getByRole('button', { name: 'Accept and create my account' }).click();
    await accept.getByRole('heading', { name: 'Welcome to acme' }).waitFor();
    assert.equal((await accept.getByRole('status').textContent())?.trim(), 'You are now a user of acme.');
    await review(accept, 'invitation-accepted');

    const landed = await signInToAcme(invitee, 'ivy@example.com', INVITEE_PASSWORD);
    assert.match(landed.searchParams.get('code') ?? '', /^tac_/);

    // The same link once more, in another browser: it says it was used.
    const again = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const second = await again.goto(link);
    assert.equal(second?.status(), 410);
    await again.getByRole('heading', { name: 'This invitation was already used' }).waitFor();
    await review(again, 'invitation-used');

    // The owner's list: no longer pending.
    await page.reload();
    await page.getByText('No pending invitations').waitFor();
    await owner.close();
    await invitee.close();
    await again.context().close();
  });

  test('a link shown once and copied; withdrawn, it says so; after 7 days it says it expired', {
    skip,
  }, async () => {
    const owner = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(owner, server, 'owner@acme.test', '/console/o/acme/invitations');
    const form = page.getByRole('form', { name: 'Invite a user' });
    await form.getByLabel('Email').fill('lin@example.com');
    await form.getByLabel('Send the invitation by mail').uncheck();
    const mails = smtp.mails.length;
    await form.getByRole('button', { name: 'Invite a user' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'lin@example.com is invited. Send them the link below' })
      .waitFor();
    const link = ((await page.getByTestId('secret').textContent()) ?? '').trim();
    assert.match(link, new RegExp(`^${issuer}invitation\\?token=tin_`));
    await review(page, 'invitations-link');
    assert.equal(smtp.mails.length, mails, 'nothing mailed');

    const row = page.getByRole('row', { name: /lin@example\.com/ });
    assert.match((await row.textContent()) ?? '', /as a link/);
    await row.getByRole('button', { name: 'Withdraw' }).click();
    await row.getByRole('button', { name: 'Yes, withdraw' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'The invitation of lin@example.com is withdrawn: its link no longer works.' })
      .waitFor();
    await row.waitFor({ state: 'detached' });

    const invitee = await browser.newContext({ viewport: DESKTOP });
    const withdrawn = await invitee.newPage();
    assert.equal((await withdrawn.goto(link))?.status(), 410);
    await withdrawn.getByRole('heading', { name: 'This invitation was withdrawn' }).waitFor();
    await review(withdrawn, 'invitation-withdrawn');

    // Expiry runs on the domain clock: 7 days on, the link says it expired.
    const time = freezeClock();
    const { url } = await createInvitation(
      server.deps,
      acme,
      { kind: 'user', email: 'late@example.com', role: null, sendMail: false },
      SYSTEM,
    );
    time.moveTo(7 * DAY);
    const expired = await invitee.newPage();
    assert.equal((await expired.goto(url as string))?.status(), 410);
    await expired.getByRole('heading', { name: 'This invitation has expired' }).waitFor();
    await expired.getByText('Ask the person who invited you for a new one.').waitFor();
    await review(expired, 'invitation-expired');
    await owner.close();
    await invitee.close();
  });

  test('the sign-up policy in Settings: invite-only and domains are stored and shown on the hosted login', {
    skip,
  }, async () => {
    const owner = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(owner, server, 'owner@acme.test', '/console/o/acme/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    /** The stored policy once it reads `expected` (a save's answer and the status may race a re-render). */
    const stored = async (expected: unknown[]) => {
      let seen: unknown[] = [];
      for (let i = 0; i < 100; i++) {
        const org = await findOrg(server.db, 'acme');
        seen = [org?.signUp, org?.signUpDomains];
        if (JSON.stringify(seen) === JSON.stringify(expected)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return seen;
    };
    /** Whether acme's hosted login offers “Create an account”, as a visitor sees it. */
    const offersSignUp = async () => {
      const visitor = await browser.newContext({ viewport: DESKTOP });
      const login = await visitor.newPage();
      await login.goto(authorizeUrl(issuer, clientId).url);
      await login.waitForURL((u) => u.pathname === '/login');
      const offered = await login.getByRole('link', { name: 'Create an account' }).count();
      await visitor.close();
      return offered === 1;
    };
    const policy = page.getByLabel('Who can create an account');
    assert.equal(await policy.inputValue(), 'open');
    assert.equal(await offersSignUp(), true);

    await policy.selectOption('invite_only');
    await page
      .getByText('The sign-in page shows no “Create an account” link, and sign-up is refused.')
      .waitFor();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    assert.deepEqual(await stored(['invite_only', []]), ['invite_only', []]);
    assert.equal(await offersSignUp(), false);

    await policy.selectOption('domains');
    // A domain the API refuses: its words once, and what was typed stays there to be corrected.
    const domains = page.getByLabel('Email domains');
    await domains.fill('acme.test\nhttps://example.com/');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    assert.deepEqual(await refusal.allTextContents(), [
      'sign_up_domains[1]: must be a domain name like example.com (no @, scheme or path)',
    ]);
    assert.equal(await page.getByText(/must be a domain name/).count(), 1, 'said once');
    assert.equal(await domains.inputValue(), 'acme.test\nhttps://example.com/');
    assert.equal(await policy.inputValue(), 'domains');
    assert.deepEqual(await stored(['invite_only', []]), ['invite_only', []]);
    await review(page, 'settings-sign-up-domain-refused');
    // No domain at all: the API's other refusal replaces the first, and the choice of policy stays.
    await domains.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await refusal.filter({ hasText: 'needs at least one domain' }).waitFor();
    assert.deepEqual(await page.getByRole('alert').allTextContents(), [
      'sign_up "domains" needs at least one domain in sign_up_domains',
    ]);
    assert.equal(await policy.inputValue(), 'domains');
    assert.deepEqual(await stored(['invite_only', []]), ['invite_only', []]);
    await domains.fill('acme.test\nexample.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    assert.deepEqual(await stored(['domains', ['acme.test', 'example.com']]), [
      'domains',
      ['acme.test', 'example.com'],
    ]);
    assert.equal(await offersSignUp(), true);
    await review(page, 'settings-sign-up-domains');

    // Back to open, for the tests after this one.
    await policy.selectOption('open');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    assert.deepEqual(await stored(['open', []]), ['open', []]);
    await owner.close();
  });

  test('members: an invitee sees the org only after accepting; an address without an account joins too', {
    skip,
  }, async () => {
    const owner = await browser.newContext({ viewport: DESKTOP });
    const page = await signInToConsole(owner, server, 'owner@acme.test', '/console/o/acme/members');
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'Invite member' });
    /** Invites `email` as a link; the news the console shows, with the address taken out. */
    const inviteByLink = async (email: string) => {
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Send the invitation by mail').setChecked(false);
      await form.getByRole('button', { name: 'Invite member' }).click();
      const news = page.getByRole('status').filter({ hasText: `${email} is invited.` });
      await news.waitFor();
      const link = ((await page.getByTestId('secret').textContent()) ?? '').trim();
      // (The expiry differs by the seconds between the two invitations.)
      const words = ((await news.textContent()) ?? '').replace(email, '…').replace(/until .+\.$/, 'until ….');
      await page.getByRole('button', { name: 'I have stored it' }).click();
      return { link, words };
    };
    const nia = await inviteByLink('nia@console.test');
    const newcomer = await inviteByLink('newbie@example.com');
    // The console (and the API under it) answers the same for an address with an account and one without.
    assert.equal(nia.words, newcomer.words);
    for (const email of ['nia@console.test', 'newbie@example.com']) {
      await page.getByRole('row', { name: new RegExp(email.replace('.', '\\.')) }).waitFor();
    }
    assert.equal(await page.getByRole('row', { name: /Remove/ }).count(), 1, 'one member row: the owner');
    await review(page, 'members-invitations');

    // Nia has a console account: before accepting, acme is not hers to see.
    const niaContext = await browser.newContext({ viewport: DESKTOP });
    const niaConsole = await signInToConsole(niaContext, server, 'nia@console.test');
    await niaConsole.getByRole('heading', { name: 'Welcome to Tessera', level: 1 }).waitFor();
    assert.equal(await niaConsole.locator('#org-switcher').count(), 0, 'no organization to switch to');
    // Signed in on the console host already: one click accepts.
    const accept = await niaContext.newPage();
    await accept.goto(nia.link);
    await accept.getByText('You are signed in as nia@console.test.').waitFor();
    await review(accept, 'invitation-accept-signed-in');
    await accept.getByRole('button', { name: 'Accept the invitation' }).click();
    await accept.getByRole('heading', { name: 'Welcome to acme' }).waitFor();
    await accept.getByRole('link', { name: 'Open the console' }).click();
    await accept.waitForSelector('header.topbar');
    assert.deepEqual(await switcherOrgs(accept), ['acme']);

    // The newcomer had no console account: a name and a password, then the console shows acme.
    const newContext = await browser.newContext({ viewport: DESKTOP });
    const join = await newContext.newPage();
    await join.goto(newcomer.link);
    await join.getByText('Choose your name and a password to accept.').waitFor();
    await join.fill('#first_name', 'Newbie');
    await join.fill('#password', OWNER_PASSWORD);
    await join.getByRole('button', { name: 'Accept and create my account' }).click();
    await join.getByRole('heading', { name: 'Welcome to acme' }).waitFor();
    const theirs = await signInToConsole(newContext, server, 'newbie@example.com');
    assert.deepEqual(await switcherOrgs(theirs), ['acme']);

    await page.reload();
    await page.getByRole('row', { name: /newbie@example\.com/ }).waitFor();
    assert.equal(await page.getByRole('row', { name: /Remove/ }).count(), 3, 'three members now');
    await owner.close();
    await niaContext.close();
    await newContext.close();
  });
});
