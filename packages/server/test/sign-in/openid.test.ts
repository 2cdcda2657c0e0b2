import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { clock } from '../../src/domain/clock.js';
import { insertUserWithTenant, prepareUser } from '../../src/domain/directory/users.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, signInThroughPages } from './support/browser.js';
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
import { openidClientSignIn } from './support/openid-client-flow.js';

/** The access token's claims: OpenID Connect must not change them (spec "Access token claims"). */
const ID_CLAIMS = ['acr', 'amr', 'at_hash', 'aud', 'auth_time', 'exp', 'iat', 'iss', 'sid', 'sub'];
const EMAIL = { email: 'ada@acme.test', email_verified: false };
/** Ada's profile claims but `updated_at` (seconds of her row's updated_at, known once she is made). */
const NAMES = { name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace' };

/** Every OIDC Core §5.1 claim of Augusta, as the management API takes them (migration 037's columns). */
const AUGUSTA = {
  email: 'augusta@acme.test',
  password: PASSWORD,
  firstName: 'Augusta',
  lastName: 'King',
  picture: 'https://people.example/augusta.png',
  claims: {
    middleName: 'Ada',
    nickname: 'Ada',
    preferredUsername: 'augusta.k',
    profile: 'https://people.example/augusta',
    website: 'https://augusta.example/',
    gender: 'female',
    birthdate: '1815-12-10',
    zoneinfo: 'Europe/London',
    locale: 'en-GB',
    phoneNumber: '+442079460000',
    phoneNumberVerified: true,
    address: {
      street_address: '12 St James’s Square',
      locality: 'London',
      postal_code: 'SW1Y 4JH',
      country: 'UK',
    },
  },
};

/** OIDC Core §3.1.3.6, computed independently of the server. */
const atHash = (accessToken: string) =>
  createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');

for (const database of storageSuite(
  'the standard claims (users columns of migration 037), the claims request kept with the authorization ' +
    'request and its session, and a client’s userinfo_signed_response_alg',
)) {
  describe(`OpenID Connect: ID tokens and userinfo on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only the tests that read what migration 037 stores run (support/databases.ts).
    const test = storageTestsOn(database, [
      'oidcc-scope-all: every scope at once, every stored claim, in the ID token and from userinfo',
      'oidcc-claims-essential: the claims parameter names claims for userinfo and the ID token, kept through a refresh',
      'oidcc-userinfo-signed: a client that registered userinfo_signed_response_alg gets a JWT',
    ]);
    let server: TestServer;
    let issuer: string;
    let clientId: string;
    let userId: string;
    let acme: Org;
    let augustaId: string;
    let augustaUpdatedAt: number;
    let PROFILE: Record<string, unknown>;
    let jwks: ReturnType<typeof createRemoteJWKSet>;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      const org = await makeOrg(server, 'acme');
      acme = org;
      const ada = (await makeUser(server.deps, org, 'ada@acme.test')).user;
      userId = ada.id;
      PROFILE = { ...NAMES, updated_at: Math.floor(ada.updatedAt / 1000) };
      const augusta = await server.db
        .transaction()
        .execute(async (trx) => insertUserWithTenant(trx, org.id, await prepareUser(AUGUSTA), SYSTEM));
      augustaId = augusta.user.id;
      augustaUpdatedAt = Math.floor(augusta.user.updatedAt / 1000);
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

    /** Signs Ada (or `email`) in through the hosted pages and exchanges the code with plain requests. */
    async function codeFlow(
      extra: Record<string, string | null>,
      browser = new FormBrowser(),
      email = 'ada@acme.test',
    ) {
      const { url, verifier } = authorizeUrl(issuer, clientId, extra);
      const callback = await signInThroughPages(browser, url, { email, password: PASSWORD });
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
      assert.deepEqual(metadata.claims_supported, [
        ...['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'sid', 'amr', 'acr', 'at_hash'],
        ...['name', 'given_name', 'family_name', 'middle_name', 'nickname', 'preferred_username'],
        ...['profile', 'picture', 'website', 'gender', 'birthdate', 'zoneinfo', 'locale', 'updated_at'],
        ...['email', 'email_verified', 'address', 'phone_number', 'phone_number_verified'],
      ]);
      assert.equal(metadata.claims_parameter_supported, true);
      assert.deepEqual(metadata.userinfo_signing_alg_values_supported, ['RS256']);
      assert.deepEqual(metadata.scopes_supported, [
        'openid',
        'profile',
        'email',
        'address',
        'phone',
        'offline_access',
      ]);
      assert.ok(metadata.revocation_endpoint && metadata.authorization_response_iss_parameter_supported);

      const { tokens, nonce } = await openidClientSignIn(config, { scope: 'openid profile email' });
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
      // The ID token's sid is the browser sign-in's for this client (Back-Channel Logout 1.0 §2.1), the
      // access token's the OAuth session's.
      assert.match(String(payload.sid), /^sid_[a-z0-9]{20}$/);
      assert.notEqual(payload.sid, access.sid);
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
      await server.db
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
        updated_at: Math.floor(prepared.user.updatedAt / 1000),
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
        // A new OAuth session, from the same browser sign-in: the ID token's sid stays (logout's).
        assert.notEqual(decodeJwt(second.access_token).sid, decodeJwt(first.access_token).sid);
        assert.equal(later.sid, signedIn.sid);
        assert.equal(later.nonce, 'second');
        assert.equal(later.auth_time, signedIn.auth_time);
        assert.ok(Number(later.iat) - Number(later.auth_time) >= 3600);
      } finally {
        clock.now = () => Date.now();
      }
    });

    /** What each scope releases of Augusta, who has every claim (OIDC Core §5.4). */
    const augustaByScope = (): Record<string, Record<string, unknown>> => ({
      profile: {
        name: 'Augusta Ada King',
        given_name: 'Augusta',
        family_name: 'King',
        middle_name: 'Ada',
        nickname: 'Ada',
        preferred_username: 'augusta.k',
        profile: 'https://people.example/augusta',
        picture: 'https://people.example/augusta.png',
        website: 'https://augusta.example/',
        gender: 'female',
        birthdate: '1815-12-10',
        zoneinfo: 'Europe/London',
        locale: 'en-GB',
        updated_at: augustaUpdatedAt,
      },
      email: { email: 'augusta@acme.test', email_verified: false },
      address: { address: AUGUSTA.claims.address },
      phone: { phone_number: '+442079460000', phone_number_verified: true },
    });

    /** Signs Augusta in with `scope` (and `extra`); the ID token's and userinfo's claims beyond `sub`. */
    async function augustaClaims(scope: string, extra: Record<string, string> = {}) {
      const tokens = await codeFlow({ scope, ...extra }, new FormBrowser(), 'augusta@acme.test');
      const payload = await verifyIdToken(tokens.id_token as string);
      const info = await userinfo(tokens.access_token);
      assert.equal(info.status, 200);
      assert.equal(info.body.sub, augustaId);
      const { sub: _, ...fromUserinfo } = info.body as Record<string, unknown>;
      const fromIdToken = Object.fromEntries(Object.entries(payload).filter(([k]) => !ID_CLAIMS.includes(k)));
      return { tokens, fromIdToken, fromUserinfo };
    }

    for (const scope of ['profile', 'email', 'address', 'phone']) {
      test(`oidcc-scope-${scope}: the ${scope} scope releases its claims, in the ID token and from userinfo`, {
        skip,
      }, async () => {
        const released = augustaByScope()[scope];
        const { fromIdToken, fromUserinfo } = await augustaClaims(`openid ${scope}`);
        assert.deepEqual(fromUserinfo, released);
        assert.deepEqual(fromIdToken, released);
      });
    }

    test('oidcc-scope-all: every scope at once, every stored claim, in the ID token and from userinfo', {
      skip,
    }, async () => {
      const all = Object.assign({}, ...Object.values(augustaByScope()));
      const { fromIdToken, fromUserinfo } = await augustaClaims('openid profile email address phone');
      assert.deepEqual(fromUserinfo, all);
      assert.deepEqual(fromIdToken, all);
    });

    test('oidcc-claims-essential: the claims parameter names claims for userinfo and the ID token, kept through a refresh', {
      skip,
    }, async () => {
      const claims = {
        userinfo: { name: { essential: true }, phone_number: null, unknown_claim: null },
        id_token: { email: { essential: true }, locale: { value: 'fr-FR' }, auth_time: { essential: true } },
      };
      const { tokens, fromIdToken, fromUserinfo } = await augustaClaims('openid', {
        claims: JSON.stringify(claims),
      });
      // By name, beyond the scope: a `value` is a wish, answered with the stored value (§5.5.1).
      assert.deepEqual(fromUserinfo, { name: 'Augusta Ada King', phone_number: '+442079460000' });
      assert.deepEqual(fromIdToken, { email: 'augusta@acme.test', locale: 'en-GB' });
      const stored = await server.db
        .selectFrom('oauth_sessions')
        .select('claims')
        .where('id', '=', String(decodeJwt(tokens.access_token).sid))
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(stored.claims ?? 'null'), claims);

      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      assert.equal(refreshed.status, 200);
      const again = await verifyIdToken(refreshed.body.id_token as string);
      assert.equal(again.email, 'augusta@acme.test');
      assert.equal(again.locale, 'en-GB');
      const info = await userinfo(refreshed.body.access_token as string);
      assert.deepEqual(info.body, {
        sub: augustaId,
        name: 'Augusta Ada King',
        phone_number: '+442079460000',
      });
    });

    test('oidcc-ensure-request-with-acr-values-succeeds: acr_values is a wish; the acr reached is in the ID token', {
      skip,
    }, async () => {
      const tokens = await codeFlow({ scope: 'openid', acr_values: '1 2' });
      const payload = await verifyIdToken(tokens.id_token as string);
      assert.equal(payload.acr, 'urn:tessera:acr:pwd');
    });

    test('claims: an essential acr is met or the request fails with unmet_authentication_requirements (§5.5.1.1)', {
      skip,
    }, async () => {
      const acr = (values: string[]) => JSON.stringify({ id_token: { acr: { essential: true, values } } });
      // Reached by a password sign-in: granted, that acr in the ID token.
      const met = await codeFlow({
        scope: 'openid',
        claims: acr(['urn:tessera:acr:mfa', 'urn:tessera:acr:pwd']),
      });
      assert.equal((await verifyIdToken(met.id_token as string)).acr, 'urn:tessera:acr:pwd');

      // Two factors asked of a password sign-in: the person signs in, and the client is told.
      const { url, state } = authorizeUrl(issuer, clientId, {
        scope: 'openid',
        claims: acr(['urn:tessera:acr:mfa']),
      });
      const callback = new URL(
        await signInThroughPages(new FormBrowser(), url, { email: 'ada@acme.test', password: PASSWORD }),
      );
      assert.deepEqual(Object.fromEntries(callback.searchParams), {
        error: 'unmet_authentication_requirements',
        error_description: 'the sign-in did not reach an essential acr value',
        state,
        iss: issuer,
      });

      // No sign-in here reaches it: answered at once, nobody is asked to sign in.
      const never = authorizeUrl(issuer, clientId, { scope: 'openid', claims: acr(['urn:example:loa:4']) });
      const answer = await fetch(never.url, { redirect: 'manual' });
      assert.equal(answer.status, 302);
      const back = new URL(answer.headers.get('location') ?? '');
      assert.equal(back.origin + back.pathname, CALLBACK);
      assert.equal(back.searchParams.get('error'), 'unmet_authentication_requirements');
      assert.equal(back.searchParams.get('state'), never.state);
    });

    test('claims: a sub asked for by value answers for that person only; a malformed parameter is invalid_request', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      await codeFlow({ scope: 'openid' }, browser);
      const claims = JSON.stringify({ id_token: { sub: { value: augustaId } } });
      const { url, state } = authorizeUrl(issuer, clientId, { scope: 'openid', claims });
      const answer = await browser.get(url);
      const back = new URL(answer.headers.get('location') ?? '');
      assert.deepEqual(Object.fromEntries(back.searchParams), {
        error: 'login_required',
        error_description: 'the claims parameter names someone else',
        state,
        iss: issuer,
      });
      const mine = JSON.stringify({ id_token: { sub: { value: userId } } });
      const ok = await codeFlow({ scope: 'openid', claims: mine }, browser);
      assert.equal((await verifyIdToken(ok.id_token as string)).sub, userId);

      for (const [bad, detail] of [
        ['not json', 'claims is not a JSON object'],
        ['[1]', 'claims is not a JSON object'],
        ['{"userinfo":[]}', 'claims.userinfo must be an object'],
        ['{"userinfo":{"name":true}}', 'claims.userinfo.name must be null or an object'],
        ['{"id_token":{"acr":{"essential":"yes"}}}', 'claims.id_token.acr.essential must be true or false'],
        [
          '{"id_token":{"acr":{"values":"urn:tessera:acr:pwd"}}}',
          'claims.id_token.acr.values must be an array',
        ],
      ]) {
        const request = authorizeUrl(issuer, clientId, { scope: 'openid', claims: bad as string });
        const refused = await fetch(request.url, { redirect: 'manual' });
        const to = new URL(refused.headers.get('location') ?? '');
        assert.equal(to.searchParams.get('error'), 'invalid_request', bad);
        assert.equal(to.searchParams.get('error_description'), detail, bad);
      }
    });

    test('claims: the consent page lists what the claims parameter names by scope, beyond the scope asked', {
      skip,
    }, async () => {
      const thirdParty = await makeClient(server.deps, acme, { name: 'Third party', firstParty: false });
      const claims = JSON.stringify({
        userinfo: { phone_number: null },
        id_token: { address: { essential: true } },
      });
      const { url } = authorizeUrl(issuer, thirdParty.clientId, { scope: 'openid', claims });
      const browser = new FormBrowser();
      const loginUrl = locationOf(await browser.get(url), url);
      const login = await browser.get(loginUrl);
      const signedIn = await browser.submit(loginUrl, await login.text(), {
        email: 'augusta@acme.test',
        password: PASSWORD,
      });
      const consentUrl = locationOf(signedIn, loginUrl);
      assert.equal(new URL(consentUrl).pathname, '/consent');
      const page = await (await browser.get(consentUrl)).text();
      for (const words of ['Know who you are', 'See your postal address', 'See your phone number']) {
        assert.ok(page.includes(words), words);
      }
      assert.ok(!page.includes('See your email address'));
    });

    test('oidcc-userinfo-signed: a client that registered userinfo_signed_response_alg gets a JWT', {
      skip,
    }, async () => {
      const org = await makeOrg(server, 'signed');
      const signedIssuer = server.issuer('signed');
      const prepared = await prepareUser({ ...AUGUSTA, email: 'augusta@signed.test' });
      const user = await server.db
        .transaction()
        .execute((trx) => insertUserWithTenant(trx, org.id, prepared, SYSTEM));
      const client = await makeClient(server.deps, org, { userinfoSignedResponseAlg: 'RS256' });
      const stored = await server.db
        .selectFrom('clients')
        .select('userinfo_signed_response_alg')
        .where('id', '=', client.clientId)
        .executeTakeFirstOrThrow();
      assert.equal(stored.userinfo_signed_response_alg, 'RS256');

      const { url, verifier } = authorizeUrl(signedIssuer, client.clientId, { scope: 'openid email phone' });
      const callback = await signInThroughPages(new FormBrowser(), url, {
        email: 'augusta@signed.test',
        password: PASSWORD,
      });
      const { body } = await tokenRequest(signedIssuer, {
        grant_type: 'authorization_code',
        code: new URL(callback).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: client.clientId,
      });
      for (const method of ['GET', 'POST']) {
        const response = await fetch(new URL('oauth/userinfo', signedIssuer), {
          method,
          headers: { authorization: `Bearer ${body.access_token as string}` },
        });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-type'), 'application/jwt');
        assert.equal(response.headers.get('cache-control'), 'no-store');
        const keys = createRemoteJWKSet(new URL('.well-known/jwks.json', signedIssuer));
        const { payload, protectedHeader } = await jwtVerify(await response.text(), keys, {
          algorithms: ['RS256'],
          issuer: signedIssuer,
          audience: client.clientId,
        });
        assert.equal(protectedHeader.kid, decodeProtectedHeader(body.access_token as string).kid);
        assert.deepEqual(payload, {
          sub: user.user.id,
          email: 'augusta@signed.test',
          email_verified: false,
          phone_number: '+442079460000',
          phone_number_verified: true,
          iss: signedIssuer,
          aud: client.clientId,
        });
      }
      // Signed with the key of its ID tokens, it has no `exp`: never taken for one (here as id_token_hint).
      const signedAnswer = await (
        await fetch(new URL('oauth/userinfo', signedIssuer), {
          headers: { authorization: `Bearer ${body.access_token as string}` },
        })
      ).text();
      const hinted = authorizeUrl(signedIssuer, client.clientId, {
        scope: 'openid',
        prompt: 'none',
        id_token_hint: signedAnswer,
      });
      const refused = new URL(
        (await fetch(hinted.url, { redirect: 'manual' })).headers.get('location') ?? '',
      );
      assert.equal(refused.searchParams.get('error'), 'invalid_request');
      assert.equal(
        refused.searchParams.get('error_description'),
        'id_token_hint is not an ID token of this issuer',
      );

      // openid-client with its defaults, told of the registration, verifies the signature (non-repudiation).
      const config = await oidc.discovery(
        new URL(signedIssuer),
        client.clientId,
        { userinfo_signed_response_alg: 'RS256' },
        oidc.None(),
        { execute: [oidc.allowInsecureRequests] },
      );
      oidc.enableNonRepudiationChecks(config);
      const fetched = await oidc.fetchUserInfo(config, body.access_token as string, user.user.id);
      assert.deepEqual(
        { ...fetched },
        {
          sub: user.user.id,
          email: 'augusta@signed.test',
          email_verified: false,
          phone_number: '+442079460000',
          phone_number_verified: true,
          iss: signedIssuer,
          aud: client.clientId,
        },
      );

      // Others of the org still get JSON.
      const plain = await makeClient(server.deps, org);
      const other = authorizeUrl(signedIssuer, plain.clientId, { scope: 'openid' });
      const back = await signInThroughPages(new FormBrowser(), other.url, {
        email: 'augusta@signed.test',
        password: PASSWORD,
      });
      const json = await tokenRequest(signedIssuer, {
        grant_type: 'authorization_code',
        code: new URL(back).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: other.verifier,
        client_id: plain.clientId,
      });
      const info = await api(signedIssuer, 'GET', 'oauth/userinfo', json.body.access_token as string);
      assert.match(info.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(info.body, { sub: user.user.id });
    });

    test('openid-client fetchUserInfo gets what its claims parameter asked for', {
      skip,
    }, async () => {
      const config = await oidc.discovery(new URL(issuer), clientId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        claims: JSON.stringify({ userinfo: { address: { essential: true }, birthdate: null } }),
      });
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'augusta@acme.test',
        password: PASSWORD,
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      const info = await oidc.fetchUserInfo(config, tokens.access_token, augustaId);
      assert.deepEqual(
        { ...info },
        { sub: augustaId, address: AUGUSTA.claims.address, birthdate: '1815-12-10' },
      );
    });

    test('console tokens get userinfo too', { skip }, async () => {
      const consoleOrg = await findConsoleOrg(server.db);
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
