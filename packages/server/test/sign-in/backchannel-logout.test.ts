import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe } from 'node:test';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { HttpsSender } from '../../src/delivery/https-sender.js';
import { clock } from '../../src/domain/clock.js';
import type { Org } from '../../src/domain/types.js';
import { call, consoleOf } from '../management/support/console.js';
import { checkPaging } from '../management/support/paging.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import { answerThroughPages, DEVICE_GRANT, poll, postForm, startDevice } from './support/device-flow.js';
import { DocumentHost } from './support/document-host.js';
import { CALLBACK, freezeClock, makeOrg, makeUser } from './support/fixtures.js';
import { openidClientSignIn } from './support/openid-client-flow.js';

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const SIGNED_OUT = 'http://127.0.0.1:8765/signed-out';

interface Received {
  path: string;
  contentType: string;
  body: string;
}

type Answer = { status: number; bytes?: number } | 'hang';

/** A relying party's back-channel logout receiver: plain HTTP on 127.0.0.1, answering as told per path. */
class Receiver {
  readonly received: Received[] = [];
  answer: (path: string, n: number) => Answer = () => ({ status: 200 });
  readonly #server: Server;
  readonly #hung = new Set<ServerResponse>();

  private constructor() {
    this.#server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({
          path,
          contentType: req.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const answer = this.answer(path, this.at(path).length);
        if (answer === 'hang') {
          this.#hung.add(res);
          return;
        }
        res.writeHead(answer.status, { 'cache-control': 'no-store' });
        // A huge answer: the sender reads at most 64 KiB of it, then drops the connection.
        res.end(answer.bytes ? Buffer.alloc(answer.bytes, 120) : undefined);
      });
    });
  }

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    await new Promise<void>((resolve) => r.#server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** The logout tokens POSTed to `path`. */
  tokens(path: string): string[] {
    return this.at(path).map((r) => new URLSearchParams(r.body).get('logout_token') ?? '');
  }

  async until(done: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async close(): Promise<void> {
    for (const res of this.#hung) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

for (const database of storageSuite(
  'which clients each browser sign-in signed into (session_clients) and the logout deliveries queue, claimed and settled per dialect',
)) {
  describe(`back-channel and front-channel logout on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const test = storageTestsOn(database, [
      'RP-initiated logout: each back-channel client of that browser gets a logout token it verifies, the front-channel frame is on the page, other browsers keep theirs',
      'an owner ending the user’s sessions sends the other browser’s clients their logout tokens',
      'two sign-outs of one browser racing tell each client once',
    ]);
    let server: TestServer;
    let receiver: Receiver;
    let documents: DocumentHost;
    let issuer: string;
    let org: Org;
    let owner: string;
    let adaId: string;
    /** Client ids by name. */
    const clients: Record<string, string> = {};

    const createClient = (body: Record<string, unknown>) =>
      call(server, 'POST', '/organizations/acme/clients', owner, {
        type: 'public',
        redirect_uris: [CALLBACK],
        post_logout_redirect_uris: [SIGNED_OUT],
        ...body,
      });

    before(async () => {
      if (skip) return;
      receiver = await Receiver.start();
      documents = await DocumentHost.start();
      server = await startServer({
        database,
        env: {
          // As the webhook suites do: deliveries may reach the receiver on 127.0.0.1.
          TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
          TESSERA_WEBHOOK_RETRY_SCHEDULE: '100ms,100ms',
          TESSERA_WEBHOOK_TIMEOUT: '1s',
        },
        webhooks: { pollMs: 100 },
        clientMetadata: { ca: documents.ca, timeoutMs: 1_000 },
      });
      issuer = server.issuer('acme');
      org = await makeOrg(server, 'acme');
      adaId = (await makeUser(server.deps, org, 'ada@acme.test')).user.id;
      owner = await (await consoleOf(server)).token('owner@acme.test');
      const made = {
        a: {
          client_name: 'App A',
          backchannel_logout_uri: receiver.url('/bc/a'),
          backchannel_logout_session_required: true,
          frontchannel_logout_uri: `${receiver.url('/fc/a')}?keep=1`,
          frontchannel_logout_session_required: true,
        },
        b: { client_name: 'App B', backchannel_logout_uri: receiver.url('/bc/b') },
        c: { client_name: 'App C' },
        flaky: { client_name: 'Flaky', backchannel_logout_uri: receiver.url('/bc/flaky') },
        down: { client_name: 'Down', backchannel_logout_uri: receiver.url('/bc/down') },
        hang: { client_name: 'Hangs', backchannel_logout_uri: receiver.url('/bc/hang') },
        huge: { client_name: 'Huge', backchannel_logout_uri: receiver.url('/bc/huge') },
      };
      for (const [name, body] of Object.entries(made)) {
        const res = await createClient(body);
        assert.equal(res.status, 201, res.text);
        clients[name] = res.body.client_id;
      }
    });
    after(async () => {
      if (skip) return;
      await server.close();
      await receiver.close();
      await documents.close();
    });

    /** A relying party of `client` written with openid-client: discovery, then the code flow. */
    async function relyingParty(client: string) {
      return oidc.discovery(new URL(issuer), client, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
    }

    /** Ada signs into `client` in `browser` (a fresh sign-in, or silently when signed in there). */
    async function signedIn(browser: FormBrowser, client: string, email = 'ada@acme.test') {
      const config = await relyingParty(client);
      const { tokens } = await openidClientSignIn(config, { scope: 'openid', email, browser });
      const claims = tokens.claims();
      assert.ok(claims);
      return { config, tokens, sid: String(claims.sid), idToken: tokens.id_token as string };
    }

    /** A logout token verified as a relying party does (Back-Channel Logout 1.0 §2.6), with jose. */
    async function verifyLogoutToken(token: string, audience: string) {
      const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
      const { payload, protectedHeader } = await jwtVerify(token, jwks, {
        issuer,
        audience,
        algorithms: ['RS256'],
        typ: 'logout+jwt',
        requiredClaims: ['iat', 'exp', 'jti', 'events'],
      });
      assert.equal(protectedHeader.typ, 'logout+jwt');
      assert.deepEqual(payload.events, { [EVENT]: {} });
      assert.equal('nonce' in payload, false, 'a logout token never carries nonce');
      assert.ok(Number(payload.exp) - Number(payload.iat) <= 120, 'short-lived');
      return payload;
    }

    const deliveries = (client: string) =>
      call(server, 'GET', `/organizations/acme/clients/${client}/logout-deliveries`, owner);

    /** The client's newest delivery once it is no longer pending. */
    async function settled(client: string) {
      const deadline = Date.now() + 8000;
      for (;;) {
        const res = await deliveries(client);
        assert.equal(res.status, 200, res.text);
        const [newest] = res.body;
        if (newest && newest.status !== 'pending') return newest;
        if (Date.now() > deadline) throw new Error(`no settled delivery for ${client}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    /** Ada's sign-in into A from a second browser, and its newest refresh token. */
    let otherBrowser: { a: Awaited<ReturnType<typeof signedIn>>; refreshToken: string };

    test('RP-initiated logout: each back-channel client of that browser gets a logout token it verifies, the front-channel frame is on the page, other browsers keep theirs', {
      skip,
    }, async () => {
      const meta = (await relyingParty(clients.a as string)).serverMetadata();
      assert.equal(meta.backchannel_logout_supported, true);
      assert.equal(meta.backchannel_logout_session_supported, true);
      assert.equal(meta.frontchannel_logout_supported, true);
      assert.equal(meta.frontchannel_logout_session_supported, true);

      const browser = new FormBrowser();
      const a = await signedIn(browser, clients.a as string);
      const b = await signedIn(browser, clients.b as string);
      await signedIn(browser, clients.c as string);
      // The same client again from the same browser: the same sid (stable), on a refresh too.
      const again = await signedIn(browser, clients.a as string);
      assert.equal(again.sid, a.sid);
      const refreshed = await oidc.refreshTokenGrant(a.config, again.tokens.refresh_token as string);
      assert.equal(refreshed.claims()?.sid, a.sid);
      // Each client its own sid, unguessable, not the login cookie nor the OAuth session's id.
      assert.notEqual(b.sid, a.sid, 'no client learns the sid another holds');
      assert.match(a.sid, /^sid_[a-z0-9]{20}$/);
      const cookie = browser.cookies(issuer);
      for (const value of cookie.values()) assert.equal(value.includes(a.sid), false);
      assert.notEqual(decodeJwt(a.tokens.access_token).sid, a.sid);
      // Another browser of the same person: another sid.
      const elsewhere = new FormBrowser();
      const second = await signedIn(elsewhere, clients.a as string);
      otherBrowser = { a: second, refreshToken: second.tokens.refresh_token as string };
      assert.notEqual(otherBrowser.a.sid, a.sid);

      const logout = new URL('oauth/logout', issuer);
      logout.searchParams.set('id_token_hint', a.idToken);
      logout.searchParams.set('post_logout_redirect_uri', SIGNED_OUT);
      logout.searchParams.set('state', 'st');
      const page = await browser.get(logout.href);
      assert.equal(page.status, 200);
      const html = await page.text();
      // Front-channel: one hidden frame, A's URI with iss and sid added; B and C registered none.
      const frames = [...html.matchAll(/<iframe hidden src="([^"]+)"/g)].map((m) =>
        (m[1] as string).replaceAll('&amp;', '&'),
      );
      const expected = new URL(receiver.url('/fc/a'));
      expected.search = new URLSearchParams({ keep: '1', iss: issuer, sid: a.sid }).toString();
      assert.deepEqual(frames, [expected.href]);
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, new RegExp(` frame-src ${new URL(receiver.url('/')).origin};`));
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(page.headers.get('refresh'), `2;url=${SIGNED_OUT}?state=st`);

      // Back-channel: A and B each get one token, for them alone, with the sid they were given.
      await receiver.until(
        () => receiver.at('/bc/a').length === 1 && receiver.at('/bc/b').length === 1,
        'the logout tokens',
      );
      const [toA] = receiver.at('/bc/a');
      assert.equal(toA?.contentType, 'application/x-www-form-urlencoded');
      const [tokenA] = receiver.tokens('/bc/a');
      const [tokenB] = receiver.tokens('/bc/b');
      const claimsA = await verifyLogoutToken(tokenA as string, clients.a as string);
      assert.equal(claimsA.sid, a.sid);
      assert.equal(claimsA.sub, adaId);
      assert.equal(decodeProtectedHeader(tokenA as string).alg, 'RS256');
      const claimsB = await verifyLogoutToken(tokenB as string, clients.b as string);
      assert.equal(claimsB.sid, b.sid);
      // Replayed to another client, a token is refused by its audience.
      await assert.rejects(verifyLogoutToken(tokenA as string, clients.b as string), /aud/);

      // The ended session's refresh token is refused; the other browser's session is untouched.
      await assert.rejects(oidc.refreshTokenGrant(a.config, refreshed.refresh_token as string), {
        error: 'invalid_grant',
      });
      const stillThere = await oidc.refreshTokenGrant(otherBrowser.a.config, otherBrowser.refreshToken);
      otherBrowser.refreshToken = stillThere.refresh_token as string;
      assert.equal(receiver.at('/bc/a').length, 1, 'nothing for the other browser');

      const logged = await settled(clients.a as string);
      assert.deepEqual(
        { ...logged, id: undefined, created_at: undefined, last_attempt_at: undefined },
        {
          id: undefined,
          url: receiver.url('/bc/a'),
          sub: adaId,
          status: 'delivered',
          attempts: 1,
          next_attempt_at: null,
          last_attempt_at: undefined,
          last_status_code: 200,
          last_error: null,
          created_at: undefined,
        },
      );
      assert.match(logged.id, /^lgd_/);
      // Signed out of C, which registered neither URI: nothing queued for it.
      assert.deepEqual((await deliveries(clients.c as string)).body, []);
      // The browser is signed out: the next authorization asks for the login again.
      const next = await browser.get(
        oidc.buildAuthorizationUrl(a.config, {
          redirect_uri: CALLBACK,
          scope: 'openid',
          code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
          code_challenge_method: 'S256',
        }).href,
      );
      assert.match(next.headers.get('location') ?? '', /\/login/);
    });

    test('an owner ending the user’s sessions sends the other browser’s clients their logout tokens', {
      skip,
    }, async () => {
      const before = receiver.at('/bc/a').length;
      const ended = await call(server, 'DELETE', `/organizations/acme/users/${adaId}/sessions`, owner);
      assert.equal(ended.status, 204);
      await receiver.until(() => receiver.at('/bc/a').length === before + 1, 'the logout token');
      const token = receiver.tokens('/bc/a').at(-1) as string;
      const claims = await verifyLogoutToken(token, clients.a as string);
      assert.equal(claims.sid, otherBrowser.a.sid);
      assert.equal(claims.sub, adaId);
      await assert.rejects(oidc.refreshTokenGrant(otherBrowser.a.config, otherBrowser.refreshToken), {
        error: 'invalid_grant',
      });
      // Ended once: ending again finds no sign-in to tell anyone about.
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/users/${adaId}/sessions`, owner)).status,
        204,
      );
      assert.equal(receiver.at('/bc/a').length, before + 1);
    });

    test('two sign-outs of one browser racing tell each client once', { skip }, async () => {
      const browser = new FormBrowser();
      const a = await signedIn(browser, clients.a as string);
      const logout = new URL('oauth/logout', issuer);
      logout.searchParams.set('id_token_hint', a.idToken);
      const answers = await Promise.all([browser.get(logout.href), browser.get(logout.href)]);
      assert.deepEqual(
        answers.map((r) => r.status),
        [200, 200],
      );
      // Queued in the transaction that ended the sign-in: both answered, the queue is final.
      const queued = await server.db
        .selectFrom('logout_deliveries')
        .select('id')
        .where('sid', '=', a.sid)
        .execute();
      assert.equal(queued.length, 1);
      await receiver.until(
        () => receiver.tokens('/bc/a').some((t) => decodeJwt(t).sid === a.sid),
        'the token',
      );
    });

    test('a device’s session outlives its browser sign-in’s record: ending the user’s sessions still tells the device, once, with its ID token’s sid', {
      skip,
    }, async () => {
      const cy = (await makeUser(server.deps, org, 'cy@acme.test')).user.id;
      const tv = await createClient({
        client_name: 'Living-room TV',
        grant_types: ['authorization_code', 'refresh_token', DEVICE_GRANT],
        backchannel_logout_uri: receiver.url('/bc/tv'),
      });
      assert.equal(tv.status, 201, tv.text);
      const tvId = tv.body.client_id as string;
      const asked = await startDevice(issuer, tvId, 'openid offline_access');
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      const phone = new FormBrowser();
      const { answered } = await answerThroughPages(
        phone,
        issuer,
        asked.body.user_code as string,
        { email: 'cy@acme.test' },
        'allow',
      );
      assert.equal(answered.status, 200);
      const tokens = await poll(issuer, tvId, asked.body.device_code as string);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      const sid = decodeJwt(tokens.body.id_token as string).sid as string;
      const recorded = () =>
        server.db.selectFrom('session_clients').select('sid').where('sid', '=', sid).execute();
      assert.equal((await recorded()).length, 1, 'the phone’s sign-in recorded the TV with its sid');
      // 13 hours on: the phone's sign-in is over and its record purged (at the next sign-in anywhere);
      // the TV's session, and its refresh token, live on (90 days).
      const frozen = freezeClock();
      try {
        frozen.moveTo(13 * 60 * 60 * 1000);
        await signedIn(new FormBrowser(), clients.c as string);
        assert.deepEqual(await recorded(), []);
      } finally {
        clock.now = () => Date.now();
      }
      const refreshed = await postForm(issuer, 'oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token as string,
        client_id: tvId,
      });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.equal(decodeJwt(refreshed.body.id_token as string).sid, sid);
      // An owner ends Cy's sessions (as deprovisioning, a disable or a password reset do).
      const ended = await call(server, 'DELETE', `/organizations/acme/users/${cy}/sessions`, owner);
      assert.equal(ended.status, 204);
      await receiver.until(() => receiver.at('/bc/tv').length === 1, 'the TV’s logout token');
      const claims = await verifyLogoutToken(receiver.tokens('/bc/tv')[0] as string, tvId);
      assert.deepEqual([claims.sub, claims.sid], [cy, sid]);
      const again = await postForm(issuer, 'oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: refreshed.body.refresh_token as string,
        client_id: tvId,
      });
      assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
      // Once: ending again tells no one, and the delivery log shows the one delivery.
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/users/${cy}/sessions`, owner)).status,
        204,
      );
      const log = await settled(tvId);
      assert.equal(log.status, 'delivered');
      assert.equal((await deliveries(tvId)).body.length, 1);
      assert.equal(receiver.at('/bc/tv').length, 1);
    });

    test('deleting a user tells the apps their browsers signed into', { skip }, async () => {
      const bob = (await makeUser(server.deps, org, 'bob@acme.test')).user.id;
      const signed = await signedIn(new FormBrowser(), clients.a as string, 'bob@acme.test');
      const before = receiver.at('/bc/a').length;
      const deleted = await call(server, 'DELETE', `/organizations/acme/users/${bob}`, owner);
      assert.equal(deleted.status, 204);
      await receiver.until(() => receiver.at('/bc/a').length === before + 1, 'the logout token');
      const claims = await verifyLogoutToken(receiver.tokens('/bc/a').at(-1) as string, clients.a as string);
      assert.deepEqual([claims.sub, claims.sid], [bob, signed.sid]);
    });

    test('a failing receiver is retried on the webhook schedule, a hanging or huge one is cut off, and the delivery log shows each', {
      skip,
    }, async () => {
      receiver.answer = (path, n) => {
        if (path === '/bc/flaky') return n === 1 ? { status: 503 } : { status: 200 };
        if (path === '/bc/down') return { status: 500 };
        if (path === '/bc/hang') return 'hang';
        if (path === '/bc/huge') return { status: 200, bytes: 4 * 1024 * 1024 };
        return { status: 200 };
      };
      const browser = new FormBrowser();
      let hint = '';
      for (const name of ['flaky', 'down', 'hang', 'huge'])
        hint = (await signedIn(browser, clients[name] as string)).idToken;
      const logout = new URL('oauth/logout', issuer);
      logout.searchParams.set('id_token_hint', hint);
      assert.equal((await browser.get(logout.href)).status, 200);

      const flaky = await settled(clients.flaky as string);
      assert.equal(flaky.status, 'delivered');
      assert.equal(flaky.attempts, 2);
      assert.equal(receiver.at('/bc/flaky').length, 2);
      const [first, second] = receiver.tokens('/bc/flaky');
      assert.notEqual(decodeJwt(first as string).jti, decodeJwt(second as string).jti, 'signed afresh');
      assert.equal(decodeJwt(first as string).sid, decodeJwt(second as string).sid);

      const down = await settled(clients.down as string);
      assert.deepEqual(
        [down.status, down.attempts, down.last_status_code, down.last_error],
        ['failed', 3, 500, 'HTTP 500'],
      );
      assert.equal(receiver.at('/bc/down').length, 3, 'the first attempt and both retries, then no more');

      const huge = await settled(clients.huge as string);
      assert.equal(huge.status, 'delivered');

      const hang = await settled(clients.hang as string);
      assert.deepEqual(
        [hang.status, hang.attempts, hang.last_status_code, hang.last_error],
        ['failed', 3, null, 'timed out after 1 s'],
      );
      // A deleted client is told of nothing more: its queue and log go with it.
      const deleted = await call(server, 'DELETE', `/organizations/acme/clients/${clients.down}`, owner);
      assert.equal(deleted.status, 204);
      const left = await server.db
        .selectFrom('logout_deliveries')
        .select('id')
        .where('client_id', '=', clients.down as string)
        .execute();
      assert.deepEqual(left, []);
      // Only owners read the log; another org's client is not found.
      const forged = await call(
        server,
        'GET',
        '/organizations/acme/clients/cli_nope/logout-deliveries',
        owner,
      );
      assert.equal(forged.status, 404);
      const anonymous = await call(
        server,
        'GET',
        `/organizations/acme/clients/${clients.a}/logout-deliveries`,
        null,
      );
      assert.equal(anonymous.status, 401);
      // Nothing in the log or the logs carries a token.
      assert.equal(JSON.stringify((await deliveries(clients.flaky as string)).body).includes('eyJ'), false);
    });

    test('logout URIs: https or loopback http, no fragment, not on a host of this service; the address policy decides at delivery', {
      skip,
    }, async () => {
      const refused = async (body: Record<string, unknown>, code: string) => {
        const res = await createClient({ client_name: 'Bad', ...body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, 'invalid_request');
        assert.equal(res.headers.get('tessera-error-code'), code);
      };
      await refused(
        { backchannel_logout_uri: 'http://10.0.0.8/logout' },
        'client.backchannel_logout_uri.invalid',
      );
      await refused(
        { backchannel_logout_uri: 'https://app.example/logout#x' },
        'client.backchannel_logout_uri.invalid',
      );
      await refused(
        { backchannel_logout_uri: 'javascript:alert(1)' },
        'client.backchannel_logout_uri.invalid',
      );
      await refused(
        { backchannel_logout_uri: 'https://u:p@app.example/logout' },
        'client.backchannel_logout_uri.invalid',
      );
      await refused(
        { frontchannel_logout_uri: 'data:text/html,hi' },
        'client.frontchannel_logout_uri.invalid',
      );
      // Another org's host (or this service's own) is no client's.
      const port = new URL(server.base).port;
      await refused(
        { backchannel_logout_uri: `https://beta.localhost:${port}/oauth/logout` },
        'client.backchannel_logout_uri.service_host',
      );
      await refused(
        { frontchannel_logout_uri: `http://localhost:${port}/console/` },
        'client.frontchannel_logout_uri.service_host',
      );
      await refused(
        { backchannel_logout_session_required: true },
        'client.logout_session_required.without_uri',
      );
      await refused({ backchannel_logout_uri: 42 }, 'body.field.invalid');

      // Updates: a flag alone changes the registered URI's; null removes both.
      const b = clients.b as string;
      const flagged = await call(server, 'PATCH', `/organizations/acme/clients/${b}`, owner, {
        backchannel_logout_session_required: true,
      });
      assert.equal(flagged.status, 200, flagged.text);
      assert.equal(flagged.body.backchannel_logout_uri, receiver.url('/bc/b'));
      assert.equal(flagged.body.backchannel_logout_session_required, true);
      const removed = await call(server, 'PATCH', `/organizations/acme/clients/${b}`, owner, {
        backchannel_logout_uri: null,
      });
      assert.equal(removed.status, 200);
      assert.equal('backchannel_logout_uri' in removed.body, false);
      assert.equal('backchannel_logout_session_required' in removed.body, false);
      // Each change is audited as client.updated, the logout endpoint in its snapshots.
      const audited = await server.db
        .selectFrom('audit_events')
        .select(['key', 'previous', 'changes'])
        .where('key', '=', 'client.updated')
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(audited.previous ?? '').backchannelLogout, {
        uri: receiver.url('/bc/b'),
        sessionRequired: true,
      });
      assert.equal('backchannelLogout' in JSON.parse(audited.changes ?? '{}'), true);

      // At delivery, the webhooks' sender and address policy: with private addresses not allowed
      // (the default), a loopback or private receiver is never connected to.
      const sender = new HttpsSender({ allowPrivate: false, loopbackHttp: true, timeoutMs: 1000 });
      try {
        const count = receiver.received.length;
        const local = await sender.post(
          receiver.url('/bc/ssrf'),
          {},
          'logout_token=x',
          'application/x-www-form-urlencoded',
        );
        assert.equal(local.status, null);
        assert.match(local.error ?? '', /refused to connect to 127\.0\.0\.1: loopback/);
        const named = await sender.post(
          receiver.url('/bc/ssrf').replace('127.0.0.1', 'localhost'),
          {},
          'logout_token=x',
          'application/x-www-form-urlencoded',
        );
        assert.equal(named.error, 'refused to connect to localhost: an address it resolves to is loopback');
        const metadata = await sender.post('http://169.254.169.254/latest', {}, '', 'text/plain');
        assert.match(metadata.error ?? '', /only https URLs are delivered/);
        assert.equal(receiver.received.length, count, 'nothing reached the receiver');
      } finally {
        sender.close();
      }
    });

    test('a Client ID Metadata Document registers its logout URIs on its own host only', {
      skip,
    }, async () => {
      const consoleIssuer = `${server.base}/`;
      // Another host's URI (a third party's, another org's): the document is not used.
      const foreign = documents.document('/clients/foreign.json', [CALLBACK], {
        backchannel_logout_uri: 'https://victim.example/logout',
      });
      const refused = await fetch(
        oidc.buildAuthorizationUrl(await consoleRp(foreign), { redirect_uri: CALLBACK, scope: 'openid' }),
        { redirect: 'manual' },
      );
      assert.equal(refused.status, 400);

      const clientId = documents.document('/clients/rp.json', [CALLBACK], {
        backchannel_logout_uri: receiver.url('/bc/doc'),
        backchannel_logout_session_required: true,
      });
      const config = await consoleRp(clientId);
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = new FormBrowser();
      const callback = await signInThroughPages(browser, url.href, {
        email: 'owner@acme.test',
        password: 'owner password 1',
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
      });
      const sid = tokens.claims()?.sid;
      const logout = new URL('oauth/logout', consoleIssuer);
      logout.searchParams.set('id_token_hint', tokens.id_token as string);
      assert.equal((await browser.get(logout.href)).status, 200);
      await receiver.until(() => receiver.at('/bc/doc').length === 1, 'the document client’s logout token');
      const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', consoleIssuer));
      const { payload } = await jwtVerify(receiver.tokens('/bc/doc')[0] as string, jwks, {
        issuer: consoleIssuer,
        audience: clientId,
        typ: 'logout+jwt',
      });
      assert.equal(payload.sid, sid);
      assert.deepEqual(payload.events, { [EVENT]: {} });
    });

    /** A relying party known by its metadata document URL, on the console issuer. */
    function consoleRp(clientId: string) {
      return oidc.discovery(new URL(`${server.base}/`), clientId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
    }

    test('the delivery log pages newest first through the shared pager; another org’s owner cannot read it', {
      skip,
    }, async () => {
      // App A's deliveries from the tests before (each sign-out told it once).
      const path = `/organizations/acme/clients/${clients.a}/logout-deliveries`;
      const paged = await checkPaging(server, path, owner, (d) => d.id as string);
      const stored = await server.db
        .selectFrom('logout_deliveries')
        .select('id')
        .where('client_id', '=', clients.a as string)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      assert.deepEqual(
        paged,
        stored.map((r) => r.id),
      );
      // Another org's owner: the org is no one to them; the client of another org is no one either.
      const beta = await makeOrg(server, 'beta');
      const betaOwner = await (await consoleOf(server)).token('owner@beta.test');
      assert.equal((await call(server, 'GET', path, betaOwner)).status, 404);
      assert.equal(
        (await call(server, 'GET', `/organizations/beta/clients/${clients.a}/logout-deliveries`, betaOwner))
          .status,
        404,
      );
      assert.ok(beta.id);
    });

    test('dynamic registration leaves logout URIs out: its response is the spec’s, so none is registered', {
      skip,
    }, async () => {
      const res = await fetch(`${server.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: [CALLBACK],
          backchannel_logout_uri: receiver.url('/bc/dcr'),
          frontchannel_logout_uri: receiver.url('/fc/dcr'),
        }),
      });
      assert.equal(res.status, 201);
      const body = (await res.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), [
        'client_id',
        'client_id_issued_at',
        'client_name',
        'grant_types',
        'redirect_uris',
        'response_types',
        'token_endpoint_auth_method',
      ]);
      const stored = await server.db
        .selectFrom('clients')
        .select(['backchannel_logout_uri', 'frontchannel_logout_uri'])
        .where('id', '=', body.client_id as string)
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, { backchannel_logout_uri: null, frontchannel_logout_uri: null });
    });
  });
}
