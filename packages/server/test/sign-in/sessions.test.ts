import assert from 'node:assert/strict';
import { after, afterEach, before, describe } from 'node:test';
import { decodeJwt } from 'jose';
import { sha256 } from '../../src/crypto/random.js';
import { clock } from '../../src/domain/clock.js';
import { SWITCH_TENANT_GRANT } from '../../src/domain/tokens/switch-tenant.js';
import type { Org } from '../../src/domain/types.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  signIn,
  tokenRequest,
} from './support/fixtures.js';

for (const database of storageSuite(
  "refresh token rotation and reuse: concurrent refreshes race for one row, decided by each dialect's locking and isolation",
)) {
  describe(`sessions: rotation, revocation and tenant switch on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'a confidential client, two concurrent refreshes with the same token: both answered in the one session, the later token lives on',
      'a confidential client’s token just rotated, presented again: a new pair within the grace, its unreceived successor retired, reuse after it',
      'a confidential client, two retries of one token at once: one new pair, the other refused, the session lives on',
      'a public client’s token just rotated, presented again within the grace: refused without a pair, its successor lives on',
      'only the token rotated last has the grace: an older one is reuse at once',
      'TESSERA_REFRESH_REUSE_GRACE=0: the loser of a concurrent refresh revokes the session',
    ]);
    let server: TestServer;
    let issuer: string;
    let org: Org;
    let clientId: string;
    let otherClientId: string;
    let serverClientId: string;
    let serverSecret: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      org = await makeOrg(server, 'acme');
      await makeUser(server.deps, org, 'ada@acme.test');
      await makeUser(server.deps, org, 'bob@acme.test');
      ({ clientId } = await makeClient(server.deps, org));
      ({ clientId: otherClientId } = await makeClient(server.deps, org, { name: 'Other' }));
      const confidential = await makeClient(server.deps, org, { name: 'Server app', kind: 'confidential' });
      serverClientId = confidential.clientId;
      serverSecret = confidential.secret as string;
    });
    after(async () => {
      if (!skip) await server.close();
    });
    afterEach(() => {
      clock.now = () => Date.now();
    });

    const refresh = (token: string, client = clientId) =>
      tokenRequest(issuer, { grant_type: 'refresh_token', refresh_token: token, client_id: client });
    // The confidential client authenticates (client_secret_post): only its retry gets a new pair.
    const refreshServer = (token: string) =>
      tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: serverClientId,
        client_secret: serverSecret,
      });
    const signInServer = async (email: string) => {
      const { url, verifier } = authorizeUrl(issuer, serverClientId);
      const callback = await signInThroughPages(new FormBrowser(), url, { email, password: PASSWORD });
      const exchanged = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code: new URL(callback).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: serverClientId,
        client_secret: serverSecret,
      });
      assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
      return { refreshToken: exchanged.body.refresh_token as string };
    };
    const revoke = (token: string, client = clientId) =>
      fetch(new URL('oauth/revoke', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: client }).toString(),
      });

    // Issue 48 changed what the second of two refreshes with one token within the grace gets: a new
    // pair in the same session (it was refused), and the successor the first was given is retired.
    // Only for a client that authenticates: a public client's retry is refused (the last test).
    test('a confidential client, two concurrent refreshes with the same token: both answered in the one session, the later token lives on', {
      skip,
    }, async () => {
      for (let round = 0; round < 3; round++) {
        const { refreshToken } = await signInServer('ada@acme.test');
        const results = await Promise.all([refreshServer(refreshToken), refreshServer(refreshToken)]);
        assert.deepEqual(
          results.map((r) => r.status),
          [200, 200],
          `round ${round}: ${JSON.stringify(results.map((r) => r.body.error_description))}`,
        );
        const tokens = results.map((r) => r.body as Record<string, string>);
        for (const t of tokens) {
          assert.equal((await api(issuer, 'GET', 'users/me', t.access_token as string)).status, 200);
        }
        // One of the two successors was retired by the other's retry: refused, the session kept.
        const next = await Promise.all(tokens.map((t) => refreshServer(t.refresh_token as string)));
        const statuses = next.map((r) => r.status).sort();
        assert.deepEqual(statuses, [200, 400], `round ${round}`);
        assert.deepEqual(next.find((r) => r.status === 400)?.body, {
          error: 'invalid_grant',
          error_description: 'the refresh token was replaced: the token before it was presented again',
        });
        const live = next.find((r) => r.status === 200)?.body.access_token as string;
        assert.equal((await api(issuer, 'GET', 'users/me', live)).status, 200, `round ${round}: not revoked`);
      }
    });

    test('a confidential client’s token just rotated, presented again: a new pair within the grace, its unreceived successor retired, reuse after it', {
      skip,
    }, async () => {
      const grace = server.config.refreshReuseGraceMs;
      assert.equal(grace, 10_000, 'TESSERA_REFRESH_REUSE_GRACE defaults to 10 s');
      const { refreshToken } = await signInServer('ada@acme.test');
      const rotatedAt = Date.now();
      clock.now = () => rotatedAt;
      const rotated = await refreshServer(refreshToken);
      assert.equal(rotated.status, 200);
      const sessionOf = async (token: string) =>
        (
          await server.db
            .selectFrom('refresh_tokens')
            .select('session_id')
            .where('token_hash', '=', sha256(token))
            .executeTakeFirstOrThrow()
        ).session_id;

      // The answer to `rotated` was lost: the same client retries, and gets a new pair of the session.
      clock.now = () => rotatedAt + grace - 1;
      const retried = await refreshServer(refreshToken);
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      const retriedToken = retried.body.refresh_token as string;
      assert.notEqual(retriedToken, rotated.body.refresh_token);
      assert.equal(await sessionOf(retriedToken), await sessionOf(refreshToken), 'the same session');
      assert.equal((await api(issuer, 'GET', 'users/me', retried.body.access_token as string)).status, 200);
      // The successor nobody received is retired: refused, without revoking (now and after the grace).
      for (const at of [rotatedAt + grace - 1, rotatedAt + 5 * grace]) {
        clock.now = () => at;
        const unreceived = await refreshServer(rotated.body.refresh_token as string);
        assert.deepEqual(unreceived.body, {
          error: 'invalid_grant',
          error_description: 'the refresh token was replaced: the token before it was presented again',
        });
      }
      assert.equal((await api(issuer, 'GET', 'users/me', rotated.body.access_token as string)).status, 200);
      // Another client presenting it gets nothing and changes nothing.
      clock.now = () => rotatedAt + grace - 1;
      const stranger = await refresh(refreshToken, otherClientId);
      assert.deepEqual(stranger.body, {
        error: 'invalid_grant',
        error_description: 'the refresh token is invalid',
      });

      // After the grace, presenting it again is reuse: the session is revoked.
      clock.now = () => rotatedAt + grace;
      const replay = await refreshServer(refreshToken);
      assert.deepEqual(replay.body, {
        error: 'invalid_grant',
        error_description: 'the refresh token was already used; its session is revoked',
      });
      assert.equal((await refreshServer(retriedToken)).body.error, 'invalid_grant');
      assert.equal((await api(issuer, 'GET', 'users/me', retried.body.access_token as string)).status, 401);
    });

    test('a confidential client, two retries of one token at once: one new pair, the other refused, the session lives on', {
      skip,
    }, async () => {
      const { refreshToken } = await signInServer('ada@acme.test');
      const rotated = await refreshServer(refreshToken);
      assert.equal(rotated.status, 200);
      const retries = await Promise.all([refreshServer(refreshToken), refreshServer(refreshToken)]);
      const statuses = retries.map((r) => r.status).sort();
      assert.ok(
        statuses[0] === 200 && statuses[1] !== undefined && [200, 400].includes(statuses[1]),
        JSON.stringify(retries.map((r) => r.body)),
      );
      for (const r of retries.filter((r) => r.status === 400)) {
        assert.equal(r.body.error_description, 'the refresh token was just rotated by another request');
      }
      // Of every pair handed out, exactly the last one lives on.
      const handed = [rotated, ...retries].filter((r) => r.status === 200);
      const next = await Promise.all(handed.map((r) => refreshServer(r.body.refresh_token as string)));
      assert.deepEqual(next.map((r) => r.status).sort(), [200, ...Array(handed.length - 1).fill(400)]);
      const live = next.find((r) => r.status === 200)?.body.access_token as string;
      assert.equal((await api(issuer, 'GET', 'users/me', live)).status, 200);
    });

    // A public client proves nothing but its client_id, which anyone may send: a thief who replays a
    // stolen token within the grace must not get a live pair while the holder's successor is retired
    // (refused without revoking, so the theft would go unnoticed).
    test('a public client’s token just rotated, presented again within the grace: refused without a pair, its successor lives on', {
      skip,
    }, async () => {
      const grace = server.config.refreshReuseGraceMs;
      const { refreshToken } = await signIn(issuer, clientId, 'ada@acme.test');
      const rotatedAt = Date.now();
      clock.now = () => rotatedAt;
      const rotated = await refresh(refreshToken);
      assert.equal(rotated.status, 200);
      clock.now = () => rotatedAt + grace - 1;
      const replayed = await refresh(refreshToken);
      assert.deepEqual(replayed, {
        status: 400,
        body: {
          error: 'invalid_grant',
          error_description: 'the refresh token was just rotated by another request',
        },
      });
      // The holder's successor was not retired: it rotates, and the session lives on.
      const next = await refresh(rotated.body.refresh_token as string);
      assert.equal(next.status, 200, JSON.stringify(next.body));
      assert.equal((await api(issuer, 'GET', 'users/me', next.body.access_token as string)).status, 200);
      // After the grace, the old token again is reuse: the session is revoked.
      clock.now = () => rotatedAt + grace;
      assert.equal(
        (await refresh(refreshToken)).body.error_description,
        'the refresh token was already used; its session is revoked',
      );
      assert.equal((await refresh(next.body.refresh_token as string)).body.error, 'invalid_grant');
    });

    test('only the token rotated last has the grace: an older one is reuse at once', { skip }, async () => {
      const { refreshToken: first } = await signIn(issuer, clientId, 'ada@acme.test');
      const second = await refresh(first);
      const third = await refresh(second.body.refresh_token as string);
      assert.equal(third.status, 200);
      const replay = await refresh(first);
      assert.equal(
        replay.body.error_description,
        'the refresh token was already used; its session is revoked',
      );
      assert.equal((await refresh(third.body.refresh_token as string)).body.error, 'invalid_grant');
    });

    test('TESSERA_REFRESH_REUSE_GRACE=0: the loser of a concurrent refresh revokes the session', {
      skip,
    }, async () => {
      const strict = await startServer({ database, env: { TESSERA_REFRESH_REUSE_GRACE: '0' } });
      try {
        const strictIssuer = strict.issuer('acme');
        const strictOrg = await makeOrg(strict, 'acme');
        await makeUser(strict.deps, strictOrg, 'ada@acme.test');
        const { clientId: strictClient } = await makeClient(strict.deps, strictOrg);
        const refreshStrict = (token: string) =>
          tokenRequest(strictIssuer, {
            grant_type: 'refresh_token',
            refresh_token: token,
            client_id: strictClient,
          });
        const { refreshToken } = await signIn(strictIssuer, strictClient, 'ada@acme.test');
        const results = await Promise.all([refreshStrict(refreshToken), refreshStrict(refreshToken)]);
        assert.deepEqual(results.map((r) => r.status).sort(), [200, 400]);
        const winner = results.find((r) => r.status === 200)?.body.refresh_token as string;
        assert.equal((await refreshStrict(winner)).body.error, 'invalid_grant', 'the session was revoked');
      } finally {
        await strict.close();
      }
    });

    test('revoke: 200 for an unknown token; nothing happens to another client’s token', {
      skip,
    }, async () => {
      const unknown = await revoke('trt_not-a-token');
      assert.equal(unknown.status, 200);
      assert.equal(unknown.headers.get('cache-control'), 'no-store');

      const session = await signIn(issuer, clientId, 'ada@acme.test');
      assert.equal((await revoke(session.refreshToken, otherClientId)).status, 200);
      assert.equal((await revoke(session.accessToken, otherClientId)).status, 200);
      assert.equal(
        (await refresh(session.refreshToken)).status,
        200,
        'still alive after the other client tried',
      );
    });

    test('revoke: a client ends its session with the access token or a rotated refresh token', {
      skip,
    }, async () => {
      const a = await signIn(issuer, clientId, 'ada@acme.test');
      assert.equal((await revoke(a.accessToken)).status, 200);
      assert.equal((await api(issuer, 'GET', 'users/me', a.accessToken)).status, 401);
      assert.equal((await refresh(a.refreshToken)).body.error, 'invalid_grant');

      const b = await signIn(issuer, clientId, 'ada@acme.test');
      const rotated = await refresh(b.refreshToken);
      assert.equal((await revoke(b.refreshToken)).status, 200);
      assert.equal((await refresh(rotated.body.refresh_token as string)).body.error, 'invalid_grant');
    });

    test('revoke needs a known client: invalid_client otherwise', { skip }, async () => {
      const response = await revoke('trt_x', 'cli_unknown');
      assert.equal(response.status, 401);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_client');
    });

    test('revoke: Basic authentication of a public client (it has no secret) is 401 with a Basic challenge', {
      skip,
    }, async () => {
      const session = await signIn(issuer, clientId, 'ada@acme.test');
      const response = await fetch(new URL('oauth/revoke', issuer), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:`).toString('base64')}`,
        },
        body: new URLSearchParams({ token: session.accessToken, client_id: clientId }).toString(),
      });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.headers.get('www-authenticate'), `Basic realm="${issuer}"`);
      assert.deepEqual(await response.json(), {
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
      assert.equal((await api(issuer, 'GET', 'users/me', session.accessToken)).status, 200, 'not revoked');
    });

    test('switch-tenant: only to a tenant the user belongs to, with a live token of this client', {
      skip,
    }, async () => {
      const ada = await signIn(issuer, clientId, 'ada@acme.test');
      const bob = await signIn(issuer, clientId, 'bob@acme.test');
      const bobsTenant = decodeJwt(bob.accessToken).tnt as string;
      const switchTo = (accessToken: string, tenantId: string, client = clientId) =>
        tokenRequest(issuer, {
          grant_type: SWITCH_TENANT_GRANT,
          access_token: accessToken,
          tenant_id: tenantId,
          client_id: client,
        });

      for (const [token, tenant, client] of [
        [ada.accessToken, bobsTenant, clientId],
        [ada.accessToken, 'tnt_unknown', clientId],
        [ada.accessToken, bobsTenant, otherClientId],
        ['not-a-token', bobsTenant, clientId],
      ] as const) {
        const r = await switchTo(token, tenant, client);
        assert.deepEqual([r.status, r.body.error], [400, 'invalid_grant']);
      }
      let r = await tokenRequest(issuer, {
        grant_type: SWITCH_TENANT_GRANT,
        access_token: ada.accessToken,
        client_id: clientId,
      });
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_request']);

      const created = await api(issuer, 'POST', 'tenants', ada.accessToken, { name: 'Team' });
      r = await switchTo(ada.accessToken, created.body.id);
      assert.equal(r.status, 200);
      assert.equal(decodeJwt(r.body.access_token as string).tnt, created.body.id);
      // The refresh token from before the switch was retired with it: presenting it is reuse.
      assert.equal((await refresh(ada.refreshToken)).body.error, 'invalid_grant');
      assert.equal((await refresh(r.body.refresh_token as string)).body.error, 'invalid_grant');
    });
  });
}
