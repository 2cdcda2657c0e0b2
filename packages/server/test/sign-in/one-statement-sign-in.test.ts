import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createWebhook } from '../../src/domain/directory/index.js';
import { ServiceError } from '../../src/domain/errors.js';
import {
  completeAuthentication,
  loadAuthorizationRequest,
  PASSWORD_SIGN_IN,
} from '../../src/domain/sign-in/index.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { namedTexts } from '../../src/storage/marked-statements.js';
import { postgresSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import { authorizeUrl, makeClient, makeOrg, makeUser, PASSWORD, tokenRequest } from './support/fixtures.js';

/**
 * On PostgreSQL a sign-in that goes straight on to its code stores everything in one statement
 * (storage/repos/sign-in-writes.ts) when nothing is left to decide; otherwise the transaction does,
 * as before. These tests sign in both ways — the statement, and the transaction where an org's webhook
 * takes the sign-in's entries (their deliveries must commit with them) — and compare what each stored:
 * the same rows, the same audit entries to the byte but for their ids and times.
 */
const skip = await postgresSkip();

describe('a sign-in in one statement on PostgreSQL stores what the transaction stores', { skip }, () => {
  let server: TestServer;
  let quiet: Org;
  let hooked: Org;

  before(async () => {
    server = await startServer({ database: 'postgres' });
    quiet = await makeOrg(server, 'quiet');
    hooked = await makeOrg(server, 'hooked');
    await createWebhook(
      server.deps,
      hooked,
      { url: 'https://127.0.0.1:9/in', events: ['user.*', 'session.*'] },
      SYSTEM,
    );
  });
  after(async () => {
    await server?.close();
  });

  /** Signs `email` in to `org` through the pages and exchanges the code; what was stored for the sign-in. */
  async function signInTo(org: Org, email: string) {
    const { user } = await makeUser(server.deps, org, email);
    const { clientId, secret } = await makeClient(server.deps, org, {
      kind: 'confidential',
      firstParty: true,
      backchannelLogoutUri: 'https://127.0.0.1:9/logout',
    });
    const issuer = server.issuer(org.slug);
    const { url, verifier } = authorizeUrl(issuer, clientId, { scope: 'openid email', nonce: 'n-1' });
    const callback = await signInThroughPages(new FormBrowser(), url, { email, password: PASSWORD });
    const code = new URL(callback).searchParams.get('code');
    assert.ok(code, callback);
    const exchanged = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'http://127.0.0.1:8765/callback',
      code_verifier: verifier,
      client_id: clientId,
      client_secret: secret ?? '',
    });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    const db = server.db;
    const browser = await db
      .selectFrom('browser_sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    const sessions = await db
      .selectFrom('oauth_sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    const signedInto = await db
      .selectFrom('session_clients')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    const codes = await db
      .selectFrom('authorization_codes')
      .selectAll()
      .where('client_id', '=', clientId)
      .execute();
    const entries = await db
      .selectFrom('audit_events')
      .selectAll()
      .where('org_id', '=', org.id)
      .where('key', 'in', ['user.login', 'session.created'])
      .orderBy('id')
      .execute();
    const deliveries = await db
      .selectFrom('webhook_deliveries')
      .select('event_key')
      .where('org_id', '=', org.id)
      .execute();
    const tenant = await db
      .selectFrom('tenant_members')
      .select('tenant_id')
      .where('user_id', '=', user.id)
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    return {
      user,
      clientId,
      browser,
      sessions,
      signedInto,
      codes,
      entries,
      deliveries,
      tenant: tenant.tenant_id,
    };
  }

  /** A stored sign-in with what differs by nature (ids, secrets' hashes, times, the org and its names) replaced. */
  function shapeOf(s: Awaited<ReturnType<typeof signInTo>>) {
    const [b] = s.browser;
    const [o] = s.sessions;
    const [c] = s.signedInto;
    const [k] = s.codes;
    assert.ok(b && o && c && k);
    assert.equal(s.browser.length, 1);
    assert.equal(s.sessions.length, 1);
    assert.equal(o.tenant_id, s.tenant, 'the user’s oldest tenant');
    assert.equal(o.sid, c.sid, 'the session carries the sid the sign-in gave the client');
    assert.equal(o.browser_session, b.token_hash);
    assert.equal(c.browser_session, b.token_hash);
    assert.equal(k.session_id, o.id);
    assert.equal(k.used_at !== null, true, 'exchanged');
    // The transaction reads the clock for the browser session and again for the code; the statement once.
    const times = (n: number) =>
      n >= b.created_at && n - b.created_at < 60_000 ? 'during the sign-in' : n - b.created_at;
    const data = s.entries.map((e) => {
      const parsed = JSON.parse(e.data) as Record<string, unknown>;
      // Stored as JSON.stringify writes it: key order and all.
      assert.equal(e.data, JSON.stringify(parsed));
      if (e.key === 'session.created') {
        assert.equal(parsed.id, o.id);
        assert.equal(parsed.tenantId, s.tenant);
      }
      return {
        key: e.key,
        entity: e.entity,
        verb: e.verb,
        at: times(Number(e.at)),
        actor: [e.actor_kind, e.actor_id === s.user.id ? 'the user' : e.actor_id],
        keys: Object.keys(parsed),
        previous: e.previous,
        changes: e.changes,
      };
    });
    return {
      browser: { amr: b.amr, acr: b.acr, expiresIn: b.expires_at - b.created_at, actor: b.actor_id },
      session: {
        client: o.client_id === s.clientId,
        amr: o.amr,
        acr: o.acr,
        scope: o.scope,
        created: times(o.created_at),
        expiresIn: o.expires_at - o.created_at,
        revoked: o.revoked_at,
        actor: o.actor_id,
        authTime: o.auth_time === null ? null : times(o.auth_time),
        resources: o.resources,
        claims: o.claims,
      },
      signedInto: {
        client: c.client_id === s.clientId,
        back: [c.backchannel_logout_uri, c.backchannel_logout_session_required],
        front: [c.frontchannel_logout_uri, c.frontchannel_logout_session_required],
        created: times(c.created_at),
      },
      code: {
        redirect: [k.redirect_uri, k.redirect_uri_given],
        challenge: k.code_challenge !== null,
        created: times(k.created_at),
        expiresIn: k.expires_at - k.created_at,
        nonce: k.nonce,
        dpop: k.dpop_jkt,
      },
      entries: data,
    };
  }

  test('the same rows either way; the statement where no webhook takes the entries, the transaction (with the deliveries) where one does', async () => {
    const atOnce = await signInTo(quiet, 'ada@quiet.test');
    const transaction = await signInTo(hooked, 'ada@hooked.test');
    assert.deepEqual(atOnce.deliveries, []);
    assert.deepEqual(transaction.deliveries.map((d) => d.event_key).sort(), [
      'session.created',
      'user.created',
      'user.login',
    ]);
    assert.deepEqual(shapeOf(atOnce), shapeOf(transaction));
  });

  test('a webhook created after the node last routed the org’s events: the statement stores nothing, the transaction delivers', async () => {
    const late = await makeOrg(server, 'late');
    const before = await signInTo(late, 'ada@late.test');
    assert.deepEqual(before.deliveries, []);
    await createWebhook(
      server.deps,
      late,
      { url: 'https://127.0.0.1:9/late', events: ['user.login'] },
      SYSTEM,
    );
    const after = await signInTo(late, 'bob@late.test');
    assert.deepEqual(
      after.deliveries.map((d) => d.event_key),
      ['user.login'],
    );
  });

  test('the statement is one prepared statement, whatever it stored: its text never changes with its values', async () => {
    // This sign-in runs it, and so did every earlier test of this file (console and org sign-ins, with
    // and without webhooks) when they ran: one text for all of them.
    await signInTo(quiet, 'grace@quiet.test');
    const texts = namedTexts().filter((text) => text.includes('with done as ('));
    assert.equal(texts.length, 1, texts.join('\n\n'));
  });

  test('a request completed meanwhile (another tab): refused, and nothing of this sign-in is stored', async () => {
    const org = await makeOrg(server, 'tabs');
    const { user } = await makeUser(server.deps, org, 'ada@tabs.test');
    const { clientId } = await makeClient(server.deps, org, { kind: 'confidential', firstParty: true });
    const browser = new FormBrowser();
    const { url } = authorizeUrl(server.issuer('tabs'), clientId);
    const login = new URL((await browser.get(url)).headers.get('location') ?? '', url);
    const requestId = login.searchParams.get('req') ?? '';
    const pending = await loadAuthorizationRequest(server.deps, org, requestId);
    assert.ok(pending);
    await server.db
      .updateTable('authorization_requests')
      .set({ completed_at: Date.now() })
      .where('id', '=', requestId)
      .execute();
    await assert.rejects(
      completeAuthentication(server.deps, org, { user, method: PASSWORD_SIGN_IN }, pending),
      (e: unknown) => e instanceof ServiceError && e.situation === 'sign_in.request.completed',
    );
    assert.deepEqual(
      await server.db
        .selectFrom('browser_sessions')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .execute(),
      [],
    );
    assert.deepEqual(
      await server.db.selectFrom('oauth_sessions').select('id').where('user_id', '=', user.id).execute(),
      [],
    );
  });
});
