import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { clock } from '../../src/domain/clock.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
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
  tokenRequest,
  USER_CLAIMS,
} from './support/fixtures.js';

/** The access token's claims: OpenID Connect must not change them (spec "Access token claims"). */
const ID_CLAIMS = ['acr', 'amr', 'at_hash', 'aud', 'auth_time', 'exp', 'iat', 'iss', 'sid', 'sub'];
const EMAIL = { email: 'ada@acme.test', email_verified: false };
const PROFILE = { name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace' };

/** OIDC Core §3.1.3.6, computed independently of the server. */
const atHash = (accessToken: string) =>
  createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');

for (const database of httpSuite()) {
  describe(`OpenID Connect: ID tokens and userinfo on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let issuer: string;
    let clientId: string;
    let userId: string;
    let jwks: ReturnType<typeof createRemoteJWKSet>;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      const org = await makeOrg(server, 'acme');
      userId = (await makeUser(server.deps, org, 'ada@acme.test')).user.id;
      ({ clientId } = await makeClient(server.deps, org, { name: 'Acme web' }));
      await makeOrg(server, 'beta');
      jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
    });
    after(async () => {
      clock.now = () => Date.now();
      if (!skip) await server.close();
    });

    /** Verifies an ID token as a relying party would: the issuer's key set, RS256, `iss`, `aud`, `exp`. */
    async function verifyIdToken(token: string, audience = clientId): Promise<JWTPayload> {
      const { payload, protectedHeader } = await jwtVerify(token, jwks, {
        algorithms: ['RS256'],
        issuer,
        audience,
        typ: 'JWT',
      });
      assert.ok(protectedHeader.kid);
      return payload;
    }

    /** Signs Ada in through the hosted pages and exchanges the code with plain requests. */
    async function codeFlow(extra: Record<string, string | null>, browser = new FormBrowser()) {
      const { url, verifier } = authorizeUrl(issuer, clientId, extra);
      const callback = await signInThroughPages(browser, url, { email: 'ada@acme.test', password: PASSWORD });
      const code = new URL(callback).searchParams.get('code') ?? '';
      const response = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: clientId,
      });
      assert.equal(response.status, 200);
      return response.body as { access_token: string; refresh_token: string; id_token?: string };
    }

    async function userinfo(token: string | null, method = 'GET') {
      return api(issuer, method, 'oauth/userinfo', token);
    }

    test('openid-client signs in with openid profile email and a nonce; userinfo agrees', {
      skip,
    }, async () => {
      const config = await oidc.discovery(new URL(issuer), clientId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
      const metadata = config.serverMetadata();
      assert.equal(metadata.userinfo_endpoint, `${issuer}oauth/userinfo`);
      assert.deepEqual(metadata.id_token_signing_alg_values_supported, ['RS256']);
      assert.deepEqual(metadata.subject_types_supported, ['public']);
      for (const claim of [...ID_CLAIMS, 'nonce', ...Object.keys(EMAIL), ...Object.keys(PROFILE)]) {
        assert.ok(metadata.claims_supported?.includes(claim), claim);
      }
      assert.ok(metadata.revocation_endpoint && metadata.authorization_response_iss_parameter_supported);

      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope: 'openid profile email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      assert.ok(claims);
      assert.equal(claims.sub, userId);
      assert.equal(claims.nonce, nonce);
      assert.equal(claims.email, 'ada@acme.test');
      assert.equal(claims.email_verified, false);
      assert.equal(claims.name, 'Ada Lovelace');
      assert.equal(claims.given_name, 'Ada');
      assert.equal(claims.family_name, 'Lovelace');

      const idToken = tokens.id_token as string;
      const header = decodeProtectedHeader(idToken);
      assert.equal(header.typ, 'JWT');
      assert.equal(header.alg, 'RS256');
      assert.equal(header.kid, decodeProtectedHeader(tokens.access_token).kid, 'signed by the active key');
      const payload = await verifyIdToken(idToken);
      assert.deepEqual(
        Object.keys(payload).sort(),
        [...ID_CLAIMS, 'nonce', ...Object.keys(EMAIL), ...Object.keys(PROFILE)].sort(),
      );
      assert.equal(payload.iss, issuer);
      assert.equal(payload.aud, clientId);
      assert.equal(payload.at_hash, atHash(tokens.access_token));

      // The access token is exactly what it was: no scopes, no profile, no nonce.
      const access = decodeJwt(tokens.access_token);
      assert.deepEqual(Object.keys(access).sort(), USER_CLAIMS);
      assert.equal(payload.sid, access.sid);
      assert.deepEqual(payload.amr, access.amr);
      assert.equal(payload.acr, access.acr);
      assert.ok(Number(payload.auth_time) <= Number(payload.iat));
      assert.ok(Number(payload.iat) - Number(payload.auth_time) < 60, 'signed in just now');

      const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
      assert.deepEqual({ ...info }, { sub: userId, ...EMAIL, ...PROFILE });

      // A refresh brings a new ID token of the same sign-in (OIDC Core §12.2): no nonce.
      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
      assert.ok(refreshed.id_token);
      const again = await verifyIdToken(refreshed.id_token);
      assert.equal(again.nonce, undefined);
      for (const claim of ['iss', 'sub', 'aud', 'auth_time', 'sid', 'email', 'name'] as const) {
        assert.deepEqual(again[claim], payload[claim], claim);
      }
      assert.equal(again.at_hash, atHash(refreshed.access_token));
      assert.deepEqual(Object.keys(decodeJwt(refreshed.access_token)).sort(), USER_CLAIMS);
    });

    test('no openid scope: no ID token, on the code or the refresh grant, and no userinfo', {
      skip,
    }, async () => {
      const tokens = await codeFlow({ scope: 'profile email', nonce: 'n-0S6_WzA2Mj' });
      assert.equal(tokens.id_token, undefined);
      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      assert.equal(refreshed.status, 200);
      assert.equal(refreshed.body.id_token, undefined);

      const info = await userinfo(tokens.access_token);
      assert.equal(info.status, 403);
      assert.equal(
        info.headers.get('www-authenticate'),
        'Bearer realm="tessera", error="insufficient_scope", scope="openid"',
      );
    });

    test('each scope releases its own claims, in the ID token and from userinfo', { skip }, async () => {
      const cases: [string, Record<string, unknown>][] = [
        ['openid', {}],
        ['openid email', EMAIL],
        ['openid profile', PROFILE],
        ['openid profile email offline_access', { ...EMAIL, ...PROFILE }],
      ];
      for (const [scope, released] of cases) {
        const tokens = await codeFlow({ scope });
        assert.ok(tokens.id_token, scope);
        const payload = await verifyIdToken(tokens.id_token);
        assert.equal(payload.nonce, undefined, 'no nonce was sent');
        assert.deepEqual(Object.keys(payload).sort(), [...ID_CLAIMS, ...Object.keys(released)].sort(), scope);
        for (const method of ['GET', 'POST']) {
          const info = await userinfo(tokens.access_token, method);
          assert.equal(info.status, 200);
          assert.equal(info.headers.get('cache-control'), 'no-store');
          assert.match(info.headers.get('content-type') ?? '', /^application\/json/);
          assert.deepEqual(info.body, { sub: userId, ...released }, `${method} ${scope}`);
        }
      }
    });

    test('claims without a stored value are left out, not null', { skip }, async () => {
      const org = await makeOrg(server, 'nameless');
      const prepared = await makeUser(server.deps, org, 'grace@nameless.test');
      await server.deps.db
        .updateTable('users')
        .set({ first_name: null, last_name: null })
        .where('id', '=', prepared.user.id)
        .execute();
      const client = await makeClient(server.deps, org);
      const orgIssuer = server.issuer('nameless');
      const { url, verifier } = authorizeUrl(orgIssuer, client.clientId, { scope: 'openid profile email' });
      const callback = await signInThroughPages(new FormBrowser(), url, {
        email: 'grace@nameless.test',
        password: PASSWORD,
      });
      const { body } = await tokenRequest(orgIssuer, {
        grant_type: 'authorization_code',
        code: new URL(callback).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: client.clientId,
      });
      const info = await api(orgIssuer, 'GET', 'oauth/userinfo', body.access_token as string);
      assert.deepEqual(info.body, {
        sub: prepared.user.id,
        email: 'grace@nameless.test',
        email_verified: false,
      });
      const payload = decodeJwt(body.id_token as string);
      for (const claim of ['name', 'given_name', 'family_name', 'picture']) assert.ok(!(claim in payload));
    });

    test('userinfo refuses a missing, bad, foreign or revoked token with 401 invalid_token', {
      skip,
    }, async () => {
      const none = await userinfo(null);
      assert.equal(none.status, 401);
      assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="tessera"');

      const tokens = await codeFlow({ scope: 'openid email' });
      const tampered = `${tokens.access_token.slice(0, -4)}AAAA`;
      // An ID token is not an access token (typ JWT, no at+jwt), though the same key signed it.
      for (const bad of ['not-a-token', tampered, tokens.id_token as string]) {
        const answer = await userinfo(bad);
        assert.equal(answer.status, 401);
        assert.equal(answer.headers.get('www-authenticate'), 'Bearer realm="tessera", error="invalid_token"');
      }
      const other = await api(server.issuer('beta'), 'GET', 'oauth/userinfo', tokens.access_token);
      assert.equal(other.status, 401, "another org's issuer does not accept it");

      assert.equal((await userinfo(tokens.access_token)).status, 200);
      const revoked = await fetch(new URL('oauth/revoke', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }).toString(),
      });
      assert.equal(revoked.status, 200);
      assert.equal((await userinfo(tokens.access_token)).status, 401);
    });

    test('userinfo takes the token in a POST form body (RFC 6750 §2.2) as in the header; both at once is 400 invalid_request; never from the query', {
      skip,
    }, async () => {
      const tokens = await codeFlow({ scope: 'openid email' });
      const url = new URL('oauth/userinfo', issuer);
      const post = (body: string, headers: Record<string, string> = {}, to = url) =>
        fetch(to, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
          body,
        });
      const inBody = await post(new URLSearchParams({ access_token: tokens.access_token }).toString());
      assert.equal(inBody.status, 200);
      assert.equal(inBody.headers.get('cache-control'), 'no-store');
      assert.match(inBody.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await inBody.json(), { sub: userId, ...EMAIL });

      const invalidRequest = async (res: Response, description: string) => {
        assert.equal(res.status, 400);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="tessera", error="invalid_request"');
        assert.deepEqual(await res.json(), { error: 'invalid_request', error_description: description });
      };
      const form = new URLSearchParams({ access_token: tokens.access_token }).toString();
      await invalidRequest(
        await post(form, { authorization: `Bearer ${tokens.access_token}` }),
        'send the access token in the Authorization header or in the body, not both',
      );
      await invalidRequest(await post(`${form}&${form}`), 'access_token given more than once');

      // A bad token in the body is the header's 401 invalid_token.
      const bad = await post('access_token=not-a-token');
      assert.equal(bad.status, 401);
      assert.equal(bad.headers.get('www-authenticate'), 'Bearer realm="tessera", error="invalid_token"');
      // The query (RFC 6750 §2.3) is not read, and a JSON body is no form: both are requests without a token.
      const query = new URL(url);
      query.searchParams.set('access_token', tokens.access_token);
      for (const res of [
        await fetch(query),
        await post('', {}, query),
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ access_token: tokens.access_token }),
        }),
      ]) {
        assert.equal(res.status, 401);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="tessera"');
      }
      // An empty access_token counts as absent: the header alone goes on.
      const emptyBesideHeader = await post('access_token=', {
        authorization: `Bearer ${tokens.access_token}`,
      });
      assert.equal(emptyBesideHeader.status, 200);
    });

    test('auth_time is when the person signed in, not when a later code was issued', { skip }, async () => {
      const browser = new FormBrowser();
      const first = await codeFlow({ scope: 'openid', nonce: 'first' }, browser);
      const signedIn = decodeJwt(first.id_token as string);
      assert.equal(signedIn.nonce, 'first');
      const start = Date.now();
      clock.now = () => start + 60 * 60 * 1000;
      try {
        // The login cookie is still good: no password this time, a new session and code.
        const second = await codeFlow({ scope: 'openid', nonce: 'second' }, browser);
        const later = decodeJwt(second.id_token as string);
        assert.notEqual(later.sid, signedIn.sid);
        assert.equal(later.nonce, 'second');
        assert.equal(later.auth_time, signedIn.auth_time);
        assert.ok(Number(later.iat) - Number(later.auth_time) >= 3600);
      } finally {
        clock.now = () => Date.now();
      }
    });

    test('console tokens get userinfo too', { skip }, async () => {
      const consoleOrg = await findConsoleOrg(server.deps.db);
      assert.ok(consoleOrg);
      const consoleClient = await makeClient(server.deps, consoleOrg, { name: 'Console' });
      const consoleIssuer = `${server.base}/`;
      const { url, verifier } = authorizeUrl(consoleIssuer, consoleClient.clientId, {
        scope: 'openid email',
      });
      const callback = await signInThroughPages(new FormBrowser(), url, {
        email: 'owner@acme.test',
        password: 'owner password 1',
      });
      const { body } = await tokenRequest(consoleIssuer, {
        grant_type: 'authorization_code',
        code: new URL(callback).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: consoleClient.clientId,
      });
      assert.equal(decodeJwt(body.access_token as string).typ, 'console');
      const idToken = decodeJwt(body.id_token as string);
      assert.equal(idToken.iss, consoleIssuer);
      const info = await api(consoleIssuer, 'GET', 'oauth/userinfo', body.access_token as string);
      assert.equal(info.status, 200);
      assert.deepEqual(info.body, { sub: idToken.sub, email: 'owner@acme.test', email_verified: false });
    });
  });
}
