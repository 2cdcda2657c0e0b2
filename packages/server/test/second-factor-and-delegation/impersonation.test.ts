import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { clock } from '../../src/domain/clock.js';
import type { Org } from '../../src/domain/types.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { FormBrowser, locationOf } from '../sign-in/support/browser.js';
import {
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeUser,
  pkcePair,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';

const ACR_IMPERSONATION = 'urn:tessera:acr:impersonation';
const HOUR_MS = 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

for (const database of httpSuite()) {
  describe(`impersonation: POST /organizations/{org}/users/{id}/impersonation on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let acme: Org;
    let issuer: string;
    let owner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;
    let userId: string;
    let betaUserId: string;
    let clientId: string;
    let confidential: { clientId: string; secret: string };

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      acme = await ownedOrg(server, 'acme');
      const beta = await ownedOrg(server, 'beta');
      issuer = server.issuer('acme');
      await addConsoleMember(server, acme, 'mel@console.test', 'member');
      const console_ = await consoleOf(server);
      owner = await console_.token('owner@acme.test');
      member = await console_.token('mel@console.test');
      stranger = await console_.token('owner@beta.test');
      ownerId = decodeJwt(owner).sub as string;
      userId = (await makeUser(server.deps, acme, 'ada@acme.test')).user.id;
      betaUserId = (await makeUser(server.deps, beta, 'bo@beta.test')).user.id;
      ({ clientId } = await makeClient(server.deps, acme));
      const made = await makeClient(server.deps, acme, {
        name: 'Back office',
        kind: 'confidential',
        redirectUris: [],
      });
      confidential = { clientId: made.clientId, secret: made.secret as string };
    });
    after(async () => {
      clock.now = () => Date.now();
      if (!skip) await server.close();
    });
    afterEach(() => {
      clock.now = () => Date.now();
    });

    const start = (body: unknown, org = 'acme', token: string | null = owner, user = userId) =>
      call(server, 'POST', `/organizations/${org}/users/${user}/impersonation`, token, body);

    /** A valid body for the public client, with a fresh PKCE pair and state. */
    const request = (reason = 'Ticket 4711: the invoice page is blank for this user') => {
      const { verifier, challenge } = pkcePair();
      const state = `st-${verifier.slice(0, 8)}`;
      const body = {
        reason,
        client_id: clientId,
        redirect_uri: CALLBACK,
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      return { body, verifier, state };
    };

    const exchange = (code: string, verifier: string) =>
      tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: clientId,
      });

    const verify = async (token: string, at = new Date(clock.now())) => {
      const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
      const options = { issuer, audience: clientId, algorithms: ['RS256'], currentDate: at };
      return (await jwtVerify(token, jwks, options)).payload;
    };

    const impersonationRows = () => server.db.selectFrom('impersonations').selectAll().execute();

    /** Starts an impersonation, opens its link in a new browser and exchanges the code. */
    const impersonate = async () => {
      const { body, verifier, state } = request();
      const started = await start(body);
      assert.equal(started.status, 201, started.text);
      const browser = new FormBrowser();
      const opened = await browser.get(started.body.url);
      assert.equal(opened.status, 303);
      const callback = new URL(locationOf(opened, started.body.url));
      assert.equal(callback.searchParams.get('state'), state);
      const tokens = await exchange(callback.searchParams.get('code') ?? '', verifier);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      return { started, browser, tokens: tokens.body as Record<string, string> };
    };

    test('201: a one-time link on the org issuer; opening it signs the browser in and completes the authorization', {
      skip,
    }, async () => {
      const { body, verifier, state } = request();
      const res = await start(body);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(res.body), ['id', 'user_id', 'client_id', 'url', 'expires_at']);
      assert.match(res.body.id, /^imp_[a-z0-9]{20}$/);
      assert.equal(res.body.user_id, userId);
      assert.equal(res.body.client_id, clientId);
      const link = new URL(res.body.url);
      assert.equal(`${link.origin}/`, issuer);
      assert.equal(link.pathname, '/login/impersonation');
      assert.match(link.searchParams.get('key') ?? '', /^tim_[A-Za-z0-9_-]{43}$/);
      // The key is stored only as its hash.
      const [row] = await impersonationRows();
      assert.equal(row?.id, res.body.id);
      assert.notEqual(row?.key_hash, link.searchParams.get('key'));
      assert.equal(new Date(Number(row?.expires_at)).toISOString(), res.body.expires_at);
      assert.equal(Number(row?.expires_at) - Number(row?.created_at), 2 * MINUTE_MS);

      // Opening it on another org's host does nothing (and does not use it up).
      const elsewhere = await new FormBrowser().get(res.body.url.replace('acme.', 'beta.'));
      assert.equal(elsewhere.status, 400);

      const browser = new FormBrowser();
      const opened = await browser.get(res.body.url);
      assert.equal(opened.status, 303);
      assert.equal(opened.headers.get('cache-control'), 'no-store');
      const callback = new URL(locationOf(opened, res.body.url));
      assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK);
      assert.equal(callback.searchParams.get('state'), state);
      assert.equal(callback.searchParams.get('iss'), issuer);
      assert.ok(browser.cookies(issuer).size > 0, 'the login cookie is set on the org host');
      assert.deepEqual(
        [...browser.cookies(issuer).keys()].filter((name) => name.endsWith('tessera_device')),
        [],
        'no device cookie: the owner’s browser is not the user’s',
      );

      const tokens = await exchange(callback.searchParams.get('code') ?? '', verifier);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      const claims = await verify(tokens.body.access_token as string);
      assert.equal(claims.typ, 'user');
      assert.equal(claims.sub, userId);
      assert.equal(claims.aud, clientId);
      assert.match(String(claims.tnt), /^tnt_/);
      assert.deepEqual(claims.act, { sub: ownerId });
      assert.deepEqual([claims.amr, claims.acr], [[], ACR_IMPERSONATION]);
      assert.ok(Number(claims.exp) - Number(claims.iat) <= 15 * 60);

      // One-time: the same link again is refused, and changes nothing.
      const again = await new FormBrowser().get(res.body.url);
      assert.equal(again.status, 400);
      assert.match(await again.text(), /expired or was already used/);

      // The browser is signed in as the user: the client's own authorization completes at once,
      // without a password or consent, and its tokens are impersonated too.
      const next = authorizeUrl(issuer, clientId);
      const direct = await browser.get(next.url);
      assert.equal(direct.status, 302);
      const code = new URL(locationOf(direct, next.url)).searchParams.get('code') ?? '';
      const second = await exchange(code, next.verifier);
      assert.equal(second.status, 200);
      const secondClaims = await verify(second.body.access_token as string);
      assert.equal(secondClaims.sub, userId);
      assert.deepEqual(secondClaims.act, { sub: ownerId });
    });

    test('the audit log: impersonation.created, user.login and session.created, each by the owner with the reason', {
      skip,
    }, async () => {
      const reason = 'Audit check: reproduce the settings bug';
      const { body, verifier } = request(reason);
      const started = await start(body);
      const opened = await new FormBrowser().get(started.body.url);
      const code = new URL(locationOf(opened, started.body.url)).searchParams.get('code') ?? '';
      const tokens = await exchange(code, verifier);
      const sid = (await verify(tokens.body.access_token as string)).sid;

      const events = async (prefix: string) => {
        const res = await call(server, 'GET', `/organizations/acme/events?key_prefix=${prefix}`, owner);
        assert.equal(res.status, 200);
        return res.body as { key: string; actor: unknown; data: Record<string, unknown> }[];
      };
      const created = (await events('impersonation.')).find((e) => e.data.id === started.body.id);
      assert.ok(created);
      assert.equal(created.key, 'impersonation.created');
      assert.deepEqual(created.actor, { kind: 'user', id: ownerId });
      assert.deepEqual(created.data, {
        id: started.body.id,
        userId,
        clientId,
        redirectUri: CALLBACK,
        reason,
        createdAt: created.data.createdAt,
        expiresAt: started.body.expires_at,
      });
      assert.ok(!JSON.stringify(created).includes('tim_'), 'the key is never in the audit log');

      const login = (await events('user.login')).find(
        (e) => (e.data.impersonation as { id?: string } | undefined)?.id === started.body.id,
      );
      assert.ok(login);
      assert.deepEqual(login.actor, { kind: 'user', id: ownerId });
      assert.equal(login.data.id, userId);
      assert.equal(login.data.email, 'ada@acme.test');
      assert.deepEqual([login.data.amr, login.data.acr], [[], ACR_IMPERSONATION]);
      const imp = login.data.impersonation as Record<string, unknown>;
      assert.deepEqual(imp, {
        id: started.body.id,
        actorId: ownerId,
        reason,
        clientId,
        expiresAt: imp.expiresAt,
      });

      const session = (await events('session.created')).find((e) => e.data.id === sid);
      assert.ok(session);
      assert.deepEqual(session.actor, { kind: 'user', id: ownerId });
      assert.equal(session.data.actorId, ownerId);
      assert.equal(session.data.expiresAt, imp.expiresAt);

      // The owner's own actor filter finds what they did as someone else.
      const mine = await call(server, 'GET', `/organizations/acme/events?actor_id=${ownerId}`, owner);
      const keys = new Set((mine.body as { key: string }[]).map((e) => e.key));
      for (const key of ['impersonation.created', 'user.login', 'session.created'])
        assert.ok(keys.has(key), key);
    });

    test('the session ends one hour after the link is opened; refreshing cannot extend it', {
      skip,
    }, async () => {
      const { started, tokens } = await impersonate();
      const claims = await verify(tokens.access_token as string);
      const stored = await server.db
        .selectFrom('oauth_sessions')
        .selectAll()
        .where('id', '=', String(claims.sid))
        .executeTakeFirstOrThrow();
      const cookie = await server.db
        .selectFrom('browser_sessions')
        .selectAll()
        .where('actor_id', '=', ownerId)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      const link = await server.db
        .selectFrom('impersonations')
        .selectAll()
        .where('id', '=', started.body.id)
        .executeTakeFirstOrThrow();
      // The login cookie and the OAuth session end exactly one hour after the link was opened.
      const end = Number(link.used_at) + HOUR_MS;
      assert.equal(Number(cookie.expires_at), end);
      assert.equal(Number(stored.expires_at), end);
      assert.equal(stored.actor_id, ownerId);
      assert.ok(Number(claims.exp) * 1000 <= end);

      // Ten minutes before the end: a refresh works, but its token stops at the session's end.
      clock.now = () => end - 10 * MINUTE_MS;
      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token as string,
        client_id: clientId,
      });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      const late = await verify(refreshed.body.access_token as string);
      assert.deepEqual(late.act, { sub: ownerId });
      assert.equal(Number(late.exp), Math.floor(end / 1000));
      assert.equal(refreshed.body.expires_in, Math.floor(end / 1000) - Math.floor(clock.now() / 1000));
      await assert.rejects(verify(refreshed.body.access_token as string, new Date(end + 1000)));

      // Past the hour: the rotated refresh token is refused.
      clock.now = () => end + 1000;
      const past = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: refreshed.body.refresh_token as string,
        client_id: clientId,
      });
      assert.equal(past.status, 400);
      assert.equal(past.body.error, 'invalid_grant');
    });

    test('the link is short-lived: unopened after two minutes it is refused', { skip }, async () => {
      const { body } = request();
      const started = await start(body);
      assert.equal(started.status, 201);
      clock.now = () => Date.parse(started.body.expires_at);
      const opened = await new FormBrowser().get(started.body.url);
      assert.equal(opened.status, 400);
      assert.match(await opened.text(), /expired or was already used/);
      const row = await server.db
        .selectFrom('impersonations')
        .select('used_at')
        .where('id', '=', started.body.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.used_at, null);
    });

    test('a disabled user cannot be acted as: 409 before the link, and a link made before closes', {
      skip,
    }, async () => {
      const setDisabled = (disabled: boolean) =>
        call(server, 'PATCH', `/organizations/acme/users/${userId}`, owner, { disabled });
      const before = await start(request().body);
      assert.equal(before.status, 201);
      assert.equal((await setDisabled(true)).status, 200);
      try {
        const refused = await start(request().body);
        assert.equal(refused.status, 409);
        assert.deepEqual(refused.body, {
          error: 'conflict',
          error_detail: 'the user is disabled: enable them before acting as them',
        });
        const opened = await new FormBrowser().get(before.body.url);
        assert.equal(opened.status, 400);
        assert.match(await opened.text(), /expired or was already used/);
      } finally {
        assert.equal((await setDisabled(false)).status, 200);
      }
    });

    test('a confidential client needs no PKCE and exchanges the code with its secret; a machine-only client is refused', {
      skip,
    }, async () => {
      const web = await makeClient(server.deps, acme, {
        name: 'Server-side app',
        kind: 'confidential',
        redirectUris: [CALLBACK],
      });
      const res = await start({ reason: 'Support call 12', client_id: web.clientId, redirect_uri: CALLBACK });
      assert.equal(res.status, 201, res.text);
      const opened = await new FormBrowser().get(res.body.url);
      const callback = new URL(locationOf(opened, res.body.url));
      assert.equal(callback.searchParams.get('state'), null);
      const tokens = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        client_id: web.clientId,
        client_secret: web.secret as string,
      });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
      const { payload } = await jwtVerify(tokens.body.access_token as string, jwks, {
        issuer,
        audience: web.clientId,
      });
      assert.deepEqual([payload.sub, payload.act], [userId, { sub: ownerId }]);

      const machine = await start({
        reason: 'Support call 13',
        client_id: confidential.clientId,
        redirect_uri: CALLBACK,
      });
      assert.equal(machine.status, 400);
      assert.deepEqual(machine.body, {
        error: 'invalid_request',
        error_detail: 'client_id: this client does not use the authorization code flow',
      });
    });

    test('403 forbidden: a member who is not an owner', { skip }, async () => {
      for (const body of [request().body, { nonsense: true }]) {
        const res = await start(body, 'acme', member);
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, {
          error: 'forbidden',
          error_detail: 'only an owner of the organization may do this',
        });
      }
    });

    test('404 not_found: no such org, an org the token cannot manage, the console org, a user not of the org', {
      skip,
    }, async () => {
      const noOrg = { error: 'not_found', error_detail: 'no such organization' };
      for (const [org, token] of [
        ['nope', owner],
        ['org_doesnotexist', owner],
        ['acme', stranger],
        [acme.id, stranger],
        ['console', owner],
      ] as const) {
        const res = await start(request().body, org, token);
        assert.equal(res.status, 404, org);
        assert.deepEqual(res.body, noOrg);
      }
      const noUser = { error: 'not_found', error_detail: 'no such user in this organization' };
      for (const user of [betaUserId, 'usr_doesnotexist', 'whk_nothing', ownerId]) {
        const res = await start(request().body, 'acme', owner, user);
        assert.equal(res.status, 404, user);
        assert.deepEqual(res.body, noUser);
      }
      // By id as well as by slug.
      assert.equal((await start(request().body, acme.id)).status, 201);
    });

    test('401: no token, or a token that is not a console token', { skip }, async () => {
      const res = await start(request().body, 'acme', null);
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'unauthorized', error_detail: "we don't know who you are" });
      const { tokens } = await impersonate();
      assert.equal((await start(request().body, 'acme', tokens.access_token as string)).status, 401);
    });

    test('400 invalid_request naming the field; nothing is stored', { skip }, async () => {
      const before = (await impersonationRows()).length;
      const valid = request().body;
      const { client_id: _c, ...withoutClient } = valid;
      const { code_challenge_method: _m, ...withoutMethod } = valid;
      const { code_challenge: _ch, ...withoutChallenge } = valid;
      const cases: [unknown, string][] = [
        [{ ...valid, reason: undefined }, 'reason: Invalid input: expected string, received undefined'],
        [{ ...valid, reason: '   ' }, 'reason: is required: say why you act as this user'],
        [{ ...valid, reason: 'x'.repeat(501) }, 'reason: must be at most 500 characters'],
        [withoutClient, 'client_id: Invalid input: expected string, received undefined'],
        [{ ...valid, redirect_uri: 7 }, 'redirect_uri: Invalid input: expected string, received number'],
        [{ ...valid, extra: true }, 'unknown field: extra'],
        [{ ...valid, code_challenge_method: 'plain' }, 'code_challenge_method: must be S256'],
        [
          { ...valid, code_challenge: 'short' },
          'code_challenge: must be 43 to 128 characters of A-Z a-z 0-9 . _ ~ -',
        ],
        [withoutMethod, 'code_challenge_method: code_challenge and code_challenge_method go together'],
        [{ ...withoutChallenge }, 'code_challenge: code_challenge and code_challenge_method go together'],
        [{ ...valid, client_id: 'cli_doesnotexist' }, 'client_id: no such client in this organization'],
        [
          { ...valid, redirect_uri: 'https://evil.example/cb' },
          'redirect_uri: not registered for this client',
        ],
        [
          { reason: 'no PKCE', client_id: clientId, redirect_uri: CALLBACK },
          'code_challenge: required for a public client (PKCE, S256)',
        ],
      ];
      for (const [body, detail] of cases) {
        const res = await start(body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      for (const body of ['[1]', '"text"', '{"reason":', 'null']) {
        const res = await start(body);
        assert.equal(res.status, 400, body);
        assert.deepEqual(res.body, {
          error: 'invalid_request',
          error_detail: 'the body must be a JSON object',
        });
      }
      assert.equal((await impersonationRows()).length, before);
    });
  });
}
