import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { SWITCH_TENANT_GRANT } from '../../src/domain/switch-tenant.js';
import type { Org } from '../../src/domain/types.js';
import { postgresSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { api, makeClient, makeOrg, makeUser, signIn, tokenRequest } from './support/fixtures.js';

for (const database of ['sqlite', 'postgres'] as const) {
  describe(`sessions: rotation, revocation and tenant switch on ${database}`, async () => {
    const skip = database === 'postgres' ? await postgresSkip() : false;
    let server: TestServer;
    let issuer: string;
    let org: Org;
    let clientId: string;
    let otherClientId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      org = await makeOrg(server, 'acme');
      await makeUser(server.deps, org, 'ada@acme.test');
      await makeUser(server.deps, org, 'bob@acme.test');
      ({ clientId } = await makeClient(server.deps, org));
      ({ clientId: otherClientId } = await makeClient(server.deps, org, { name: 'Other' }));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const refresh = (token: string, client = clientId) =>
      tokenRequest(issuer, { grant_type: 'refresh_token', refresh_token: token, client_id: client });
    const revoke = (token: string, client = clientId) =>
      fetch(new URL('oauth/revoke', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, client_id: client }).toString(),
      });

    test('two concurrent refreshes with the same token: exactly one succeeds', { skip }, async () => {
      for (let round = 0; round < 3; round++) {
        const { refreshToken } = await signIn(issuer, clientId, 'ada@acme.test');
        const results = await Promise.all([refresh(refreshToken), refresh(refreshToken)]);
        const statuses = results.map((r) => r.status).sort();
        assert.deepEqual(statuses, [200, 400], `round ${round}`);
        assert.equal(results.find((r) => r.status === 400)?.body.error, 'invalid_grant');
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

    test('revoke takes client credentials in the body only (client_secret_post), like the token endpoint', {
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
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await response.json(), {
        error: 'invalid_request',
        error_description: 'send client credentials in the request body (client_secret_post)',
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
