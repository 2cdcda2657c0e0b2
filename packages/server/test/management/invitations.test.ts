import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, afterEach, before, describe } from 'node:test';
import { clock } from '../../src/domain/clock.js';
import { listInvitations } from '../../src/domain/teams/invitations.js';
import type { Org } from '../../src/domain/types.js';
import { FormBrowser } from '../sign-in/support/browser.js';
import { freezeClock, makeClient, makeUser, PASSWORD, signIn } from '../sign-in/support/fixtures.js';
import { TestSmtp } from '../sign-in/support/smtp.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, ownerMemberStranger } from './support/console.js';

const DAY = 24 * 60 * 60 * 1000;
const NEW_PASSWORD = 'a fresh invitee passphrase';
const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const realNow = clock.now;

/**
 * Invitations for an org's end users (DESIGN §16) through the management API and the org's hosted
 * page. On both databases: the single use is one conditional UPDATE whose row lock decides between
 * two acceptances at once, and the list's filters are SQL.
 */
for (const database of storageSuite(
  'two acceptances at once: the org lock (orgs.ts lockOrg, SELECT ... FOR UPDATE on PostgreSQL) picks one winner',
)) {
  describe(`invitations on ${database}: /organizations/{org}/invitations and the accept page`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'two acceptances at once: exactly one wins, the other gets the used page; one account',
    ]);
    const smtp = new TestSmtp();
    let server: TestServer;
    let acme: Org;
    let issuer: string;
    let clientId: string;
    let owner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;

    const invite = (body: unknown, who = owner, org = 'acme') =>
      call(server, 'POST', `/organizations/${org}/invitations`, who, body);
    const list = (query = '', who = owner) =>
      call(server, 'GET', `/organizations/acme/invitations${query}`, who);
    const events = async (query: string) => {
      const res = await call(server, 'GET', `/organizations/acme/events?per_page=100&${query}`, owner);
      assert.equal(res.status, 200);
      return res.body;
    };
    const row = (id: string) =>
      server.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    /** GET the link in a fresh browser: status and page. */
    const open = async (url: string, browser = new FormBrowser()) => {
      const response = await browser.get(url);
      return { status: response.status, page: await response.text(), browser };
    };

    before(async () => {
      if (skip) return;
      await smtp.start();
      server = await startServer({
        database,
        webhooks: false,
        env: { TESSERA_SMTP_URL: smtp.url },
      });
      ({ acme, owner, member, stranger, ownerId } = await ownerMemberStranger(server));
      issuer = server.issuer('acme');
      ({ clientId } = await makeClient(server.deps, acme));
      await makeUser(server.deps, acme, 'ada@acme.test');
    });
    after(async () => {
      if (skip) return;
      await server?.close();
      await smtp.close();
    });
    afterEach(() => {
      clock.now = realNow;
    });

    test('POST without mail: 201 with expires_at 7 days on and the one-time url; only its hash is stored', {
      skip,
    }, async () => {
      const time = freezeClock();
      time.moveTo(0);
      const now = clock.now();
      const res = await invite({ email: 'Link@Example.com', send_mail: false });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const { id, url, ...rest } = res.body;
      assert.match(id, /^inv_/);
      assert.deepEqual(rest, {
        kind: 'user',
        email: 'Link@Example.com',
        role: null,
        roles: [],
        state: 'pending',
        mailed: false,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 7 * DAY).toISOString(),
        accepted_at: null,
        accepted_by: null,
      });
      assert.match(url, new RegExp(`^${issuer}invitation\\?token=tin_[A-Za-z0-9_-]{40,}$`));
      const token = new URL(url).searchParams.get('token') as string;
      const stored = await row(id);
      assert.equal(stored.token_hash, sha256(token));
      assert.ok(!JSON.stringify(stored).includes(token), 'the token itself is not stored');

      // GET reads it back without the link; the audit entry has no link either.
      const read = await call(server, 'GET', `/organizations/acme/invitations/${id}`, owner);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, { id, ...rest });
      const [entry] = await events('entity=invitation');
      assert.equal(entry.key, 'invitation.created');
      assert.deepEqual(entry.actor, { kind: 'user', id: ownerId });
      assert.deepEqual(entry.data, {
        id,
        orgId: acme.id,
        kind: 'user',
        email: 'Link@Example.com',
        role: null,
        roles: [],
        mailed: false,
        state: 'pending',
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 7 * DAY).toISOString(),
        acceptedAt: null,
        acceptedBy: null,
      });
      const all = await call(server, 'GET', '/organizations/acme/events?per_page=100', owner);
      assert.ok(!all.text.includes(token));
      assert.equal(smtp.mails.filter((m) => m.to.includes('link@example.com')).length, 0, 'nothing mailed');
    });

    test('POST refusals: 400 naming the field, 409 for a second pending one, 403 members, 404 strangers, 401', {
      skip,
    }, async () => {
      const cases: [unknown, string][] = [
        [{ email: 'x@example.com' }, 'send_mail: must be true or false'],
        [{ email: 'x@example.com', send_mail: 'yes' }, 'send_mail: must be true or false'],
        [{ email: 'not an email', send_mail: false }, 'email: is not a valid address'],
        [
          { email: 'x@example.com', send_mail: false, roles: 'rol_1' },
          'roles: Invalid input: expected array, received string',
        ],
        [
          { email: 'x@example.com', send_mail: false, roles: ['rol_unknown'] },
          'roles: "rol_unknown" is not a role of this organization',
        ],
        [
          { email: 'x@example.com', send_mail: false, roles: Array(21).fill('rol_x') },
          'roles: must hold at most 20 roles',
        ],
      ];
      for (const [body, detail] of cases) {
        const res = await invite(body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      assert.equal((await invite({ email: 'twice@example.com', send_mail: false })).status, 201);
      const again = await invite({ email: 'TWICE@example.com', send_mail: false });
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, {
        error: 'conflict',
        error_detail: 'twice@example.com has a pending invitation already: withdraw it to send another',
      });
      const forbidden = { error: 'forbidden', error_detail: 'only an owner of the organization may do this' };
      assert.deepEqual((await invite({ email: 'm@example.com', send_mail: false }, member)).body, forbidden);
      assert.deepEqual((await list('', member)).body, forbidden);
      const notFound = { error: 'not_found', error_detail: 'no such organization' };
      for (const res of [
        await invite({ email: 'm@example.com', send_mail: false }, stranger),
        await list('', stranger),
      ]) {
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, notFound);
      }
      assert.equal(
        (await invite({ email: 'm@example.com', send_mail: false }, null as unknown as string)).status,
        401,
      );
      for (const id of ['inv_unknown', 'nonsense', acme.id]) {
        const res = await call(server, 'GET', `/organizations/acme/invitations/${id}`, owner);
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such invitation' });
      }
    });

    test('roles: a user invitation with a role gives it on accepting (a deleted one skipped); refused on a member one', {
      skip,
    }, async () => {
      const role = async (name: string) => {
        const res = await call(server, 'POST', '/organizations/acme/roles', owner, { name });
        assert.equal(res.status, 201);
        return res.body.id as string;
      };
      const editor = await role('invited-editor');
      const gone = await role('invited-gone');
      const twice = await invite({ email: 'dup@example.com', send_mail: false, roles: [editor, editor] });
      assert.equal(twice.status, 400);
      assert.deepEqual(twice.body, {
        error: 'invalid_request',
        error_detail: `roles: "${editor}" is listed twice`,
      });

      const res = await invite({ email: 'roles@example.com', send_mail: false, roles: [editor, gone] });
      assert.equal(res.status, 201);
      assert.deepEqual(res.body.roles, [editor, gone]);
      const read = await call(server, 'GET', `/organizations/acme/invitations/${res.body.id}`, owner);
      assert.deepEqual(read.body.roles, [editor, gone]);
      assert.equal((await row(res.body.id)).roles, JSON.stringify([editor, gone]));
      const created = (await events('entity=invitation')).find(
        (e: { key: string; data: { id: string } }) =>
          e.key === 'invitation.created' && e.data.id === res.body.id,
      );
      assert.deepEqual(created.data.roles, [editor, gone]);
      // A role deleted before the invitation is accepted is skipped, never an error.
      assert.equal((await call(server, 'DELETE', `/organizations/acme/roles/${gone}`, owner)).status, 204);

      const { page, browser } = await open(res.body.url);
      const done = await browser.submit(res.body.url, page, { first_name: 'Rho', password: NEW_PASSWORD });
      assert.equal(done.status, 200);
      assert.match(await done.text(), /You are now a user of acme\./);
      const accepted = await call(server, 'GET', `/organizations/acme/invitations/${res.body.id}`, owner);
      assert.equal(accepted.body.state, 'accepted');
      const userId = accepted.body.accepted_by as string;
      const held = await call(server, 'GET', `/organizations/acme/users/${userId}/roles`, owner);
      assert.equal(held.status, 200);
      assert.deepEqual(
        held.body.data.map((r: { id: string; name: string }) => [r.id, r.name]),
        [[editor, 'invited-editor']],
      );

      // Console member invitations take no end-user roles.
      const memberInvite = await call(server, 'POST', '/organizations/acme/members', owner, {
        email: 'console@example.com',
        role: 'member',
        roles: [editor],
      });
      assert.equal(memberInvite.status, 400);
      assert.deepEqual(memberInvite.body, { error: 'invalid_request', error_detail: 'unknown field: roles' });
    });

    test('by mail: the link arrives, the invitee sets a name and password, is a user and signs in; once only', {
      skip,
    }, async () => {
      const before = smtp.mails.length;
      const res = await invite({ email: 'new@example.com', send_mail: true });
      assert.equal(res.status, 201);
      assert.equal('url' in res.body, false, 'a mailed link is never in the answer');
      assert.equal(res.body.mailed, true);
      const mail = await smtp.next('new@example.com', before);
      assert.equal(mail.subject, 'You are invited to acme');
      const link = mail.link as string;
      assert.match(link, new RegExp(`^${issuer}invitation\\?token=tin_`));
      assert.equal(
        (await row(res.body.id)).token_hash,
        sha256(new URL(link).searchParams.get('token') as string),
      );

      // A mail scanner's GETs do not spend it.
      assert.equal((await open(link)).status, 200);
      const { status, page, browser } = await open(link);
      assert.equal(status, 200);
      assert.match(page, /<h1>Join acme<\/h1>/);
      assert.match(page, /Choose your name and a password to accept/);
      // A name is required, and the sign-up password rule applies.
      const short = await browser.submit(link, page, {
        first_name: 'Nia',
        last_name: 'Okafor',
        password: 'short',
      });
      assert.equal(short.status, 400);
      assert.match(await short.text(), /Please check the form: password must be at least 8 characters/);
      const nameless = await browser.submit(link, page, {
        first_name: ' ',
        last_name: '',
        password: NEW_PASSWORD,
      });
      assert.equal(nameless.status, 400);
      assert.match(await nameless.text(), /please enter your first name/);

      const done = await browser.submit(link, page, {
        first_name: 'Nia',
        last_name: 'Okafor',
        password: NEW_PASSWORD,
      });
      assert.equal(done.status, 200);
      const welcome = await done.text();
      assert.match(welcome, /<h1>Welcome to acme<\/h1>/);
      assert.match(welcome, /You are now a user of acme\./);
      assert.match(welcome, /<a href="\/login">Sign in<\/a>/);

      const user = await server.db
        .selectFrom('users')
        .selectAll()
        .where('org_id', '=', acme.id)
        .where('email', '=', 'new@example.com')
        .executeTakeFirstOrThrow();
      assert.deepEqual([user.first_name, user.last_name, user.email_verified], ['Nia', 'Okafor', 1]);
      const signedIn = await signIn(issuer, clientId, 'new@example.com', new FormBrowser(), NEW_PASSWORD);
      assert.ok(signedIn.accessToken);

      const read = await call(server, 'GET', `/organizations/acme/invitations/${res.body.id}`, owner);
      assert.equal(read.body.state, 'accepted');
      assert.equal(read.body.accepted_by, user.id);

      // The second use of the link, GET or POST: a page that says so.
      const second = await open(link);
      assert.equal(second.status, 410);
      assert.match(second.page, /<h1>This invitation was already used<\/h1>/);
      const replay = await browser.submit(link, page, {
        first_name: 'Eve',
        last_name: '',
        password: NEW_PASSWORD,
      });
      assert.equal(replay.status, 410);
      assert.match(await replay.text(), /This invitation was already used/);

      const [accepted] = await events('entity=invitation');
      assert.equal(accepted.key, 'invitation.updated');
      assert.deepEqual(accepted.actor, { kind: 'user', id: user.id });
      assert.deepEqual(accepted.changes, {
        state: 'accepted',
        acceptedAt: accepted.at,
        acceptedBy: user.id,
      });
      assert.equal(accepted.previous.state, 'pending');
      const created = (await events('entity=user')).filter(
        (e: { data: { email: string } }) => e.data.email === 'new@example.com',
      );
      assert.deepEqual(
        created.map((e: { key: string }) => e.key).sort(),
        ['user.created', 'user.login', 'user.updated'],
        'created, its address verified by the mailed link, then signed in',
      );
    });

    test('someone with an account signs in to accept: a wrong password is refused, the right one accepts', {
      skip,
    }, async () => {
      const res = await invite({ email: 'ADA@acme.test', send_mail: false });
      const { page, browser } = await open(res.body.url);
      assert.match(page, /value="ADA@acme\.test"/);
      const signIn = { step: 'join' };
      const wrong = await browser.submit(res.body.url, page, { ...signIn, password: 'not the password' });
      assert.equal(wrong.status, 400);
      assert.match(await wrong.text(), /Incorrect password\./);
      // A name-and-password form sent anyway does not make a second account.
      const create = await browser.submit(res.body.url, page, {
        step: 'create',
        first_name: 'Ada',
        password: NEW_PASSWORD,
      });
      assert.equal(create.status, 409);
      assert.match(await create.text(), /This address has an account already: sign in with it to accept\./);
      const right = await browser.submit(res.body.url, page, { ...signIn, password: PASSWORD });
      assert.equal(right.status, 200);
      assert.match(await right.text(), /You are now a user of acme\./);
      const ada = await server.db
        .selectFrom('users')
        .select('id')
        .where('org_id', '=', acme.id)
        .where('email', '=', 'ada@acme.test')
        .execute();
      assert.equal(ada.length, 1);
      assert.equal((await row(res.body.id)).accepted_by, ada[0]?.id);
    });

    test('the page is the same whether the address has an account or not, until the invitee’s own step', {
      skip,
    }, async () => {
      await makeUser(server.deps, acme, 'has-account@acme.test');
      const pageOf = async (email: string) => {
        const res = await invite({ email, send_mail: false });
        assert.equal(res.status, 201);
        const opened = await open(res.body.url);
        assert.equal(opened.status, 200);
        return { ...opened, url: res.body.url as string };
      };
      /** The page with what differs by design taken out: the address, the link's token, the form key. */
      const neutral = (page: string, email: string) =>
        page
          .replaceAll(email, 'EMAIL')
          .replace(/name="token" value="[^"]*"/g, 'name="token" value="T"')
          // The language links keep the page's own address, its token with it.
          .replace(/token=tin_[\w-]+/g, 'token=T')
          .replace(/name="csrf" value="[^"]*"/g, 'name="csrf" value="C"');
      const holder = await pageOf('has-account@acme.test');
      const stranger = await pageOf('no-account@example.com');
      assert.equal(
        neutral(holder.page, 'has-account@acme.test'),
        neutral(stranger.page, 'no-account@example.com'),
      );
      assert.doesNotMatch(holder.page, /account already/);
      // The first page takes no password on its own: each form says which step it is.
      assert.match(holder.page, /name="step" value="create"/);
      assert.match(holder.page, /name="step" value="join"/);

      // A sign-in for an address without an account is refused in the words of a wrong password.
      const wrong = { step: 'join', password: 'not the password' };
      const answers = [
        await holder.browser.submit(holder.url, holder.page, wrong),
        await stranger.browser.submit(stranger.url, stranger.page, wrong),
      ];
      assert.deepEqual(
        answers.map((a) => a.status),
        [400, 400],
      );
      const [held, none] = await Promise.all(answers.map((a) => a.text()));
      assert.equal(
        neutral(held as string, 'has-account@acme.test'),
        neutral(none as string, 'no-account@example.com'),
      );
      // The invitee's own step then tells: the new account is made for the address without one.
      const made = await stranger.browser.submit(stranger.url, stranger.page, {
        first_name: 'Nobody',
        password: NEW_PASSWORD,
      });
      assert.equal(made.status, 200);
      assert.match(await made.text(), /You are now a user of acme\./);
    });

    test('two acceptances at once: exactly one wins, the other gets the used page; one account', {
      skip,
    }, async () => {
      const res = await invite({ email: 'race@example.com', send_mail: false });
      const first = await open(res.body.url);
      const second = await open(res.body.url);
      const answers = await Promise.all(
        [first, second].map((o, i) =>
          o.browser.submit(res.body.url, o.page, { first_name: `Racer ${i}`, password: NEW_PASSWORD }),
        ),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 410]);
      const users = await server.db
        .selectFrom('users')
        .select('first_name')
        .where('email', '=', 'race@example.com')
        .execute();
      assert.equal(users.length, 1);
    });

    test('expired after 7 days and withdrawn invitations get a clear page; an unknown or foreign link too', {
      skip,
    }, async () => {
      const time = freezeClock();
      const late = await invite({ email: 'late@example.com', send_mail: false });
      const gone = await invite({ email: 'gone@example.com', send_mail: false });
      const pending = await open(gone.body.url);

      time.moveTo(7 * DAY - 1);
      assert.equal((await open(late.body.url)).status, 200, 'still good just before 7 days');
      time.moveTo(7 * DAY);
      const expired = await open(late.body.url);
      assert.equal(expired.status, 410);
      assert.match(expired.page, /<h1>This invitation has expired<\/h1>/);
      assert.match(expired.page, /works for 7 days/);
      assert.match(expired.page, /Invitation to acme/);
      // A form shown in time but sent after the 7 days: refused as well.
      const stalePost = await pending.browser.submit(gone.body.url, pending.page, {
        first_name: 'Gone',
        password: NEW_PASSWORD,
      });
      assert.equal(stalePost.status, 410);
      assert.match(await stalePost.text(), /This invitation has expired/);
      // (The owner's console token has expired by now: the list is read through its domain function.)
      const expiredList = await listInvitations(server.deps, acme, {
        kind: null,
        state: 'expired',
        page: 0,
        perPage: 100,
      });
      const states = new Map(expiredList.entries.map((i) => [i.id, i.state]));
      assert.equal(states.get(late.body.id), 'expired');
      assert.equal(states.get(gone.body.id), 'expired');
      assert.deepEqual(new Set(states.values()), new Set(['expired']));

      // Withdrawn: DELETE 204, gone from the API, the link's page says so.
      time.moveTo(0);
      const withdrawn = await invite({ email: 'withdrawn@example.com', send_mail: false });
      const shown = await open(withdrawn.body.url);
      const del = await call(server, 'DELETE', `/organizations/acme/invitations/${withdrawn.body.id}`, owner);
      assert.equal(del.status, 204);
      assert.equal(del.text, '');
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/invitations/${withdrawn.body.id}`, owner)).status,
        404,
      );
      assert.equal(
        (await call(server, 'GET', `/organizations/acme/invitations/${withdrawn.body.id}`, owner)).status,
        404,
      );
      const revoked = await open(withdrawn.body.url);
      assert.equal(revoked.status, 410);
      assert.match(revoked.page, /<h1>This invitation was withdrawn<\/h1>/);
      const post = await shown.browser.submit(withdrawn.body.url, shown.page, {
        first_name: 'W',
        password: NEW_PASSWORD,
      });
      assert.equal(post.status, 410);
      assert.match(await post.text(), /This invitation was withdrawn/);
      const [entry] = await events('entity=invitation&verb=deleted');
      assert.equal(entry.key, 'invitation.deleted');
      assert.equal(entry.data.id, withdrawn.body.id);
      assert.deepEqual(entry.actor, { kind: 'user', id: ownerId });

      // An unknown token, no token, or acme's link on beta's host: not valid, never a 500.
      const token = new URL(withdrawn.body.url).searchParams.get('token') as string;
      for (const url of [
        `${issuer}invitation?token=tin_nonsense`,
        `${issuer}invitation`,
        `${issuer}invitation?token=${'x'.repeat(5000)}`,
        `${server.issuer('beta')}invitation?token=${token}`,
        `${server.base}/invitation?token=${token}`,
      ]) {
        const res = await open(url);
        assert.equal(res.status, 404, url);
        assert.match(res.page, /<h1>This invitation link is not valid<\/h1>/);
      }
      // Nothing withdrawn is listed; the rest are, newest first, paged.
      const all = await list('?kind=user&per_page=100');
      assert.equal(
        all.body.some((i: { id: string }) => i.id === withdrawn.body.id),
        false,
      );
      const pages = await list('?kind=user&per_page=1&page=1');
      assert.equal(pages.body.length, 1);
      assert.match(pages.headers.get('link') ?? '', /kind=user&per_page=1&page=0>; rel="first"/);
      const bad = await list('?state=revoked');
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, {
        error: 'invalid_query',
        error_detail: 'state: must be pending, accepted or expired',
      });
    });
  });
}
