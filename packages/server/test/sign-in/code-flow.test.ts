import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { clock } from '../../src/domain/clock.js';
import { SWITCH_TENANT_GRANT } from '../../src/domain/tokens/switch-tenant.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import { api, CALLBACK, makeClient, makeOrg, makeUser, PASSWORD, USER_CLAIMS } from './support/fixtures.js';

/** The spec's verifier rules: keys from the issuer's own key set, RS256 only, `iss` exact, `exp`, `aud`. */
async function verifyAsSpecSays(issuer: string, clientId: string, token: string): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
  const { payload } = await jwtVerify(token, jwks, { algorithms: ['RS256'], issuer, audience: clientId });
  return payload;
}

for (const database of httpSuite()) {
  describe(`openid-client runs the code flow against Tessera on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let issuer: string;
    let clientId: string;
    let userId: string;
    let personalTenant: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      const org = await makeOrg(server, 'acme');
      const created = await makeUser(server.deps, org, 'ada@acme.test');
      userId = created.user.id;
      personalTenant = created.tenant.id;
      ({ clientId } = await makeClient(server.deps, org, { name: 'Acme web' }));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    async function discover() {
      return oidc.discovery(new URL(issuer), clientId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
    }

    /** The authorization code flow with PKCE, the forms submitted over HTTP as a browser would. */
    async function codeFlow(config: oidc.Configuration) {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope: 'profile email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      // openid-client checks `state` and, as discovery promises it, `iss` (RFC 9207) on the callback.
      return oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
    }

    test('code flow with PKCE, refresh, switch tenant and revoke', { skip }, async () => {
      const config = await discover();
      const tokens = await codeFlow(config);
      assert.equal(tokens.token_type, 'bearer');
      assert.equal(tokens.expires_in, 900);
      assert.ok(tokens.refresh_token);

      assert.equal(decodeProtectedHeader(tokens.access_token).typ, 'at+jwt');
      const claims = await verifyAsSpecSays(issuer, clientId, tokens.access_token);
      assert.deepEqual(Object.keys(claims).sort(), USER_CLAIMS);
      assert.equal(claims.typ, 'user');
      assert.equal(claims.iss, issuer);
      assert.equal(claims.aud, clientId);
      assert.equal(claims.sub, userId);
      assert.equal(claims.tnt, personalTenant);
      assert.match(String(claims.sid), /^sid_/);
      assert.deepEqual(claims.amr, ['pwd']);
      assert.equal(claims.acr, 'urn:tessera:acr:pwd');
      assert.equal(Number(claims.exp) - Number(claims.iat), 900);

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token, 'rotated on use');
      const afterRefresh = await verifyAsSpecSays(issuer, clientId, refreshed.access_token);
      assert.equal(afterRefresh.sid, claims.sid);
      assert.notEqual(afterRefresh.jti, claims.jti);

      const second = await api(issuer, 'POST', 'tenants', refreshed.access_token, { name: 'Second' });
      assert.equal(second.status, 201);
      const switched = await oidc.genericGrantRequest(config, SWITCH_TENANT_GRANT, {
        access_token: refreshed.access_token,
        tenant_id: second.body.id,
      });
      const inSecond = await verifyAsSpecSays(issuer, clientId, switched.access_token);
      assert.equal(inSecond.tnt, second.body.id);
      assert.equal(inSecond.sid, claims.sid, 'same session');
      const listed = await api(issuer, 'GET', 'tenants', switched.access_token);
      assert.deepEqual(
        listed.body.map((t: { id: string }) => t.id).sort(),
        [personalTenant, second.body.id].sort(),
      );

      // A refresh after the switch stays in the new tenant.
      const later = await oidc.refreshTokenGrant(config, switched.refresh_token as string);
      assert.equal((await verifyAsSpecSays(issuer, clientId, later.access_token)).tnt, second.body.id);

      await oidc.tokenRevocation(config, later.refresh_token as string);
      await assert.rejects(oidc.refreshTokenGrant(config, later.refresh_token as string), {
        error: 'invalid_grant',
      });
      const me = await api(issuer, 'GET', 'users/me', later.access_token);
      assert.equal(me.status, 401, 'the access token of a revoked session is refused');
    });

    test('replaying a rotated refresh token kills the session', { skip }, async () => {
      const config = await discover();
      const tokens = await codeFlow(config);
      const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
      assert.equal((await api(issuer, 'GET', 'users/me', rotated.access_token)).status, 200);

      // Replayed after the reuse grace (within it, a public client's replay is refused without revoking).
      const replayAt = Date.now() + server.config.refreshReuseGraceMs;
      clock.now = () => replayAt;
      try {
        await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token as string), {
          error: 'invalid_grant',
        });
      } finally {
        clock.now = () => Date.now();
      }
      // The whole session is gone: its newest refresh token and its access tokens with it.
      await assert.rejects(oidc.refreshTokenGrant(config, rotated.refresh_token as string), {
        error: 'invalid_grant',
      });
      assert.equal((await api(issuer, 'GET', 'users/me', rotated.access_token)).status, 401);
    });
  });
}
