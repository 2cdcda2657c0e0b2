import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { createVerifier } from '@tessera/koa';
import { makeVerifier } from '@tessera/sdk';
import { createLocalJWKSet, decodeProtectedHeader, type JWK, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { Org } from '../../src/domain/types.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import { CALLBACK, makeClient, makeUser, PASSWORD } from './support/fixtures.js';

interface Jwks {
  keys: (JWK & { kid: string; alg: string })[];
}

for (const database of storageSuite(
  'an org’s ID-token signing algorithm and the keys of each algorithm, made, rotated and retired',
)) {
  describe(`per-org signing algorithms (DESIGN §20) on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const test = storageTestsOn(database, [
      'ES256, then PS256: openid-client with its defaults takes the ID token, verified with the JWKS; the access token stays RS256',
      'a rotation rotates the keys of both algorithms; back to RS256 the other keys stay published until their tokens expire',
    ]);
    let server: TestServer;
    let org: Org;
    let issuer: string;
    let owner: string;
    let publicId: string;
    let signedUserinfoId: string;

    const settings = (body: unknown) => call(server, 'PATCH', '/organizations/acme/settings', owner, body);
    const jwks = async (): Promise<Jwks> =>
      (await fetch(`${issuer}.well-known/jwks.json`)).json() as Promise<Jwks>;
    const discovery = async () =>
      (await (await fetch(`${issuer}.well-known/openid-configuration`)).json()) as Record<string, unknown>;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      org = await ownedOrg(server, 'acme');
      issuer = server.issuer('acme');
      owner = await (await consoleOf(server)).token('owner@acme.test');
      await makeUser(server.deps, org, 'ada@acme.test');
      ({ clientId: publicId } = await makeClient(server.deps, org, { name: 'Notes', firstParty: true }));
      ({ clientId: signedUserinfoId } = await makeClient(server.deps, org, {
        name: 'Signed userinfo',
        firstParty: true,
        userinfoSignedResponseAlg: 'RS256',
      }));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    /** openid-client with its defaults: discovery, the code flow through the pages; its tokens. */
    async function signInWithOpenidClient(clientId = publicId, secret?: string) {
      const auth = secret === undefined ? oidc.None() : oidc.ClientSecretBasic(secret);
      const config = await oidc.discovery(new URL(issuer), clientId, undefined, auth, {
        execute: [oidc.allowInsecureRequests],
      });
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'st',
        nonce: 'nn',
      });
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: 'st',
        expectedNonce: 'nn',
      });
      return { config, tokens };
    }

    test('ES256, then PS256: openid-client with its defaults takes the ID token, verified with the JWKS; the access token stays RS256', {
      skip,
    }, async () => {
      const before = (await settings({})).body;
      assert.equal(before.id_token_signing_alg, 'RS256');
      for (const alg of ['ES256', 'PS256'] as const) {
        const changed = await settings({ id_token_signing_alg: alg });
        assert.equal(changed.status, 200, JSON.stringify(changed.body));
        assert.equal(changed.body.id_token_signing_alg, alg);
        const meta = await discovery();
        assert.deepEqual(meta.id_token_signing_alg_values_supported, [alg]);
        assert.deepEqual(meta.userinfo_signing_alg_values_supported, [alg]);
        const set = await jwks();
        const active = set.keys.filter((k) => k.alg === alg);
        assert.ok(active.length >= 2, `the JWKS publishes the ${alg} keys (active and next)`);
        assert.ok(set.keys.filter((k) => k.alg === 'RS256').length >= 2, 'and the RS256 ones');
        assert.equal(set.keys[0]?.alg, 'RS256', 'the access-token key first');

        const { config, tokens } = await signInWithOpenidClient();
        const idToken = tokens.id_token as string;
        assert.equal(decodeProtectedHeader(idToken).alg, alg);
        assert.equal(tokens.claims()?.nonce, 'nn');
        // Its signature, checked with the published key set for that algorithm only.
        const verified = await jwtVerify(idToken, createLocalJWKSet(set), { algorithms: [alg], issuer });
        assert.equal(verified.payload.aud, publicId);
        // An RS256-only check does not take it: no downgrade of what was signed.
        await assert.rejects(jwtVerify(idToken, createLocalJWKSet(set), { algorithms: ['RS256'] }));

        // The access token: RS256, taken by the SDK's and koa's RS256-only verifiers.
        const header = decodeProtectedHeader(tokens.access_token);
        assert.deepEqual([header.alg, header.typ], ['RS256', 'at+jwt']);
        const sdkVerify = makeVerifier({
          issuer,
          clientId: publicId,
          jwksUri: `${issuer}.well-known/jwks.json`,
        });
        assert.equal((await sdkVerify(tokens.access_token)).aud, publicId);
        const koaVerify = createVerifier({ issuer, clientId: publicId });
        assert.notEqual(await koaVerify(tokens.access_token), null);
        // Neither takes the ID token in its place.
        await assert.rejects(sdkVerify(idToken));
        assert.equal(await koaVerify(idToken), null);

        // A refresh's ID token, and signed userinfo, follow the org's algorithm.
        const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
        assert.equal(decodeProtectedHeader(refreshed.id_token as string).alg, alg);
        const signed = await signInWithOpenidClient(signedUserinfoId);
        const userinfo = await fetch(`${issuer}oauth/userinfo`, {
          headers: { authorization: `Bearer ${signed.tokens.access_token}` },
        });
        assert.equal(userinfo.headers.get('content-type'), 'application/jwt');
        const jwt = await userinfo.text();
        assert.equal(decodeProtectedHeader(jwt).alg, alg);
        await jwtVerify(jwt, createLocalJWKSet(await jwks()), { algorithms: [alg], issuer });
        // An ID token of this algorithm is a hint RP-initiated logout takes.
        const logout = await fetch(`${issuer}oauth/logout?id_token_hint=${idToken}`, { redirect: 'manual' });
        assert.notEqual(logout.status, 400, await logout.text());
      }
      // Refused: another algorithm, `none`, HS256.
      for (const bad of ['none', 'HS256', 'RS512', 'es256']) {
        const refused = await settings({ id_token_signing_alg: bad });
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error, 'invalid_request');
      }
      assert.equal((await settings({})).body.id_token_signing_alg, 'PS256');
      // A confidential client's refresh (its key read with the client, apart from the key ring's lookup).
      const confidential = await makeClient(server.deps, org, {
        name: 'Server app',
        kind: 'confidential',
        firstParty: true,
      });
      const server_ = await signInWithOpenidClient(confidential.clientId, confidential.secret as string);
      const again = await oidc.refreshTokenGrant(server_.config, server_.tokens.refresh_token as string);
      assert.equal(decodeProtectedHeader(again.id_token as string).alg, 'PS256');
      assert.equal(decodeProtectedHeader(again.access_token).alg, 'RS256');

      // A client asking for unsigned ID tokens or userinfo at registration: the userinfo ask is
      // refused, the ID-token one is not registered (RFC 7591 ignores it; the answer shows so).
      assert.equal((await settings({ dynamic_registration: true })).status, 200);
      const register = (extra: Record<string, string>) =>
        fetch(`${issuer}oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'Sneaky', redirect_uris: [CALLBACK], ...extra }),
        });
      const unsignedUserinfo = await register({ userinfo_signed_response_alg: 'none' });
      assert.equal(unsignedUserinfo.status, 400);
      assert.equal(((await unsignedUserinfo.json()) as { error: string }).error, 'invalid_client_metadata');
      const unsignedIdTokens = await register({ id_token_signed_response_alg: 'none' });
      assert.equal(unsignedIdTokens.status, 201);
      assert.equal(
        ((await unsignedIdTokens.json()) as Record<string, unknown>).id_token_signed_response_alg,
        undefined,
      );
      await settings({ dynamic_registration: false });
    });

    test('a rotation rotates the keys of both algorithms; back to RS256 the other keys stay published until their tokens expire', {
      skip,
    }, async () => {
      await settings({ id_token_signing_alg: 'ES256' });
      const activeOf = async (alg: string) => {
        const { tokens } = await signInWithOpenidClient();
        const idHeader = decodeProtectedHeader(tokens.id_token as string);
        assert.equal(idHeader.alg, alg);
        return {
          id: idHeader.kid as string,
          access: decodeProtectedHeader(tokens.access_token).kid as string,
        };
      };
      const first = await activeOf('ES256');
      const rotated = await call(server, 'POST', '/organizations/acme/keys/rotate', owner);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const second = await activeOf('ES256');
      assert.notEqual(second.id, first.id);
      assert.notEqual(second.access, first.access);
      const kids = (await jwks()).keys.map((k) => k.kid);
      for (const kid of [first.id, first.access, second.id, second.access]) assert.ok(kids.includes(kid));

      // Back to RS256: the ES256 keys are retired, still published for the ID tokens they signed.
      await settings({ id_token_signing_alg: 'RS256' });
      const third = await activeOf('RS256');
      assert.equal(third.id, third.access, 'RS256 ID tokens are signed with the access-token key');
      assert.ok((await jwks()).keys.some((k) => k.kid === second.id));
      assert.deepEqual((await discovery()).id_token_signing_alg_values_supported, ['RS256']);
      // And a rotation afterwards rotates RS256 alone.
      assert.equal((await call(server, 'POST', '/organizations/acme/keys/rotate', owner)).status, 200);
      const fourth = await activeOf('RS256');
      assert.notEqual(fourth.access, third.access);
    });
  });
}
