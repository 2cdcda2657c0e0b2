import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { after, before, describe } from 'node:test';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
} from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { createServiceAccount } from '../../src/domain/directory/service-accounts.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import { CALLBACK, makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

/** A DPoP key pair as a client holds it, with its public JWK and RFC 7638 thumbprint. */
interface Key {
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
  alg: string;
}

async function newKey(alg = 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk), alg };
}

interface ProofOptions {
  htm?: string;
  ath?: string;
  nonce?: string;
  iat?: number;
  jti?: string;
  header?: Record<string, unknown>;
}

/** A DPoP proof (RFC 9449 §4.2) for `htu`, signed by `key`; `options` change any part of it. */
function proof(key: Key, htu: string, options: ProofOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = {
    htm: options.htm ?? 'POST',
    htu,
    jti: options.jti ?? randomUUID(),
    iat: options.iat ?? Math.floor(Date.now() / 1000),
    ...(options.ath === undefined ? {} : { ath: options.ath }),
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...options.header })
    .sign(key.privateKey);
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

/** POST /oauth/token with a form, and a DPoP header when one is given. */
async function tokenCall(issuer: string, fields: Record<string, string>, dpop?: string, basic?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (dpop !== undefined) headers.dpop = dpop;
  if (basic !== undefined) headers.authorization = `Basic ${basic}`;
  const response = await fetch(new URL('oauth/token', issuer), {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** A call to a resource of this server with `authorization` and, when given, a DPoP proof. */
async function resourceCall(url: string, authorization: string | null, dpop?: string) {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  if (dpop !== undefined) headers.dpop = dpop;
  const response = await fetch(url, { headers });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

for (const database of storageSuite(
  'the DPoP proof replay store: one jti accepted once across concurrent requests; the key an authorization code is bound to (dpop_jkt)',
)) {
  describe(`DPoP (RFC 9449) against Tessera on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const test = storageTestsOn(database, [
      'two requests carrying one proof at once: exactly one is answered',
      'dpop_jkt at /authorize binds the code: another key or no proof is invalid_grant, its key gets bound tokens',
    ]);
    let server: TestServer;
    let issuer: string;
    let tokenUrl: string;
    let userinfoUrl: string;
    let org: Org;
    let publicId: string;
    let machine: { id: string; basic: string };

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      tokenUrl = `${issuer}oauth/token`;
      userinfoUrl = `${issuer}oauth/userinfo`;
      org = await makeOrg(server, 'acme');
      await makeUser(server.deps, org, 'ada@acme.test');
      ({ clientId: publicId } = await makeClient(server.deps, org, { name: 'Acme CLI' }));
      const m = await makeClient(server.deps, org, {
        name: 'Acme worker',
        kind: 'confidential',
        redirectUris: [],
        grantTypes: ['client_credentials'],
      });
      machine = { id: m.clientId, basic: Buffer.from(`${m.clientId}:${m.secret}`).toString('base64') };
    });
    after(async () => {
      if (!skip) await server.close();
    });

    /** Signs ada in through the pages for `clientId`; the code and its PKCE verifier. */
    async function authorizationCode(clientId: string, extra: Record<string, string> = {}) {
      const verifier = oauth.generateRandomCodeVerifier();
      const url = new URL('oauth/authorize', issuer);
      url.search = new URLSearchParams({
        ...extra,
        response_type: 'code',
        client_id: clientId,
        redirect_uri: CALLBACK,
        scope: 'openid',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'xyz',
      }).toString();
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      return { callback, verifier, code: new URL(callback).searchParams.get('code') as string };
    }

    /** A bound TokenSet of the public client: code exchanged with a proof of `key`. */
    async function boundTokens(key: Key) {
      const { code, verifier } = await authorizationCode(publicId);
      const answer = await tokenCall(
        issuer,
        {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: CALLBACK,
          client_id: publicId,
        },
        await proof(key, tokenUrl),
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body as { access_token: string; refresh_token: string; token_type: string };
    }

    test("oauth4webapi's DPoP handle gets bound tokens, calls userinfo and refreshes", { skip }, async () => {
      const as = await oauth.processDiscoveryResponse(
        new URL(issuer),
        await oauth.discoveryRequest(new URL(issuer), { [oauth.allowInsecureRequests]: true }),
      );
      assert.deepEqual(as.dpop_signing_alg_values_supported, ['ES256', 'RS256', 'EdDSA', 'Ed25519']);
      const client: oauth.Client = { client_id: publicId };
      const keyPair = await oauth.generateKeyPair('ES256');
      const DPoP = oauth.DPoP(client, keyPair);
      const { callback, verifier } = await authorizationCode(publicId);
      const params = oauth.validateAuthResponse(as, client, new URL(callback), 'xyz');
      const options = { DPoP, [oauth.allowInsecureRequests]: true };
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          params,
          CALLBACK,
          verifier,
          options,
        ),
      );
      assert.equal(tokens.token_type, 'dpop');
      const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
      assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
      const claims = decodeJwt(tokens.id_token as string);
      const info = await oauth.processUserInfoResponse(
        as,
        client,
        claims.sub as string,
        await oauth.userInfoRequest(as, client, tokens.access_token, options),
      );
      assert.equal(info.sub, claims.sub);
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(
          as,
          client,
          oauth.None(),
          tokens.refresh_token as string,
          options,
        ),
      );
      assert.equal(refreshed.token_type, 'dpop');
      assert.deepEqual(decodeJwt(refreshed.access_token).cnf, { jkt });
    });

    test("openid-client's getDPoPHandle with its defaults: code flow, userinfo, client_credentials", {
      skip,
    }, async () => {
      const config = await oidc.discovery(new URL(issuer), publicId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
      const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair());
      const { callback, verifier } = await authorizationCode(publicId);
      const tokens = await oidc.authorizationCodeGrant(
        config,
        new URL(callback),
        { pkceCodeVerifier: verifier, expectedState: 'xyz' },
        undefined,
        { DPoP },
      );
      assert.equal(tokens.token_type, 'dpop');
      const sub = tokens.claims()?.sub as string;
      const info = await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP });
      assert.equal(info.sub, sub);

      const machineConfig = await oidc.discovery(
        new URL(issuer),
        machine.id,
        undefined,
        oidc.ClientSecretBasic(Buffer.from(machine.basic, 'base64').toString().split(':')[1] as string),
        { execute: [oidc.allowInsecureRequests] },
      );
      const machineDpop = oidc.getDPoPHandle(machineConfig, await oidc.randomDPoPKeyPair('EdDSA'));
      const machineTokens = await oidc.clientCredentialsGrant(machineConfig, {}, { DPoP: machineDpop });
      assert.equal(machineTokens.token_type, 'dpop');
      assert.equal(typeof (decodeJwt(machineTokens.access_token).cnf as { jkt?: unknown }).jkt, 'string');
    });

    test('a stolen bound access token is refused at userinfo and /users/me without the key', {
      skip,
    }, async () => {
      const key = await newKey();
      const tokens = await boundTokens(key);
      assert.equal(tokens.token_type, 'DPoP');
      const token = tokens.access_token;
      const legit = await proof(key, userinfoUrl, { htm: 'GET', ath: ath(token) });
      assert.equal((await resourceCall(userinfoUrl, `DPoP ${token}`, legit)).status, 200);

      const algs = 'algs="ES256 RS256 EdDSA Ed25519"';
      const asBearer = await resourceCall(userinfoUrl, `Bearer ${token}`);
      assert.equal(asBearer.status, 401);
      assert.match(
        asBearer.challenge ?? '',
        new RegExp(`^DPoP realm="tessera", ${algs}, error="invalid_token"`),
      );
      assert.deepEqual(asBearer.body, { error: 'unauthorized', error_detail: "we don't know who you are" });

      const noProof = await resourceCall(userinfoUrl, `DPoP ${token}`);
      assert.equal(noProof.status, 401);
      assert.match(noProof.challenge ?? '', /error="invalid_dpop_proof"/);

      const thief = await newKey('RS256');
      const otherKey = await resourceCall(
        userinfoUrl,
        `DPoP ${token}`,
        await proof(thief, userinfoUrl, { htm: 'GET', ath: ath(token) }),
      );
      assert.equal(otherKey.status, 401);
      assert.match(
        otherKey.challenge ?? '',
        /error="invalid_dpop_proof", error_description="the DPoP proof is signed by another key"/,
      );

      const replayed = await resourceCall(userinfoUrl, `DPoP ${token}`, legit);
      assert.equal(replayed.status, 401);
      assert.match(replayed.challenge ?? '', /already used/);

      // The proof names the URL it was made for: one for userinfo does not open /users/me.
      const meUrl = `${issuer}users/me`;
      const wrongUrl = await resourceCall(
        meUrl,
        `DPoP ${token}`,
        await proof(key, userinfoUrl, { htm: 'GET', ath: ath(token) }),
      );
      assert.equal(wrongUrl.status, 401);
      // Nor does a proof made for another access token (ath).
      const wrongAth = await resourceCall(
        meUrl,
        `DPoP ${token}`,
        await proof(key, meUrl, { htm: 'GET', ath: ath('x') }),
      );
      assert.equal(wrongAth.status, 401);
      const me = await resourceCall(
        meUrl,
        `DPoP ${token}`,
        await proof(key, meUrl, { htm: 'GET', ath: ath(token) }),
      );
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal((await resourceCall(meUrl, `Bearer ${token}`)).status, 401);

      // An unbound token is not taken under the DPoP scheme, and plain bearer tokens work as before.
      const plain = await tokenCall(issuer, { grant_type: 'client_credentials' }, undefined, machine.basic);
      assert.equal(plain.body.token_type, 'Bearer');
    });

    test('the management API takes a service account’s bound token only as DPoP with its proof', {
      skip,
    }, async () => {
      const { account, secret } = await createServiceAccount(
        server.deps,
        org,
        { name: 'Deployer', scopes: ['org:read'] },
        SYSTEM,
      );
      const key = await newKey('RS256');
      const basic = Buffer.from(`${account.id}:${secret}`).toString('base64');
      const consoleToken = `${server.base}/oauth/token`;
      const issued = await tokenCall(
        `${server.base}/`,
        { grant_type: 'client_credentials' },
        await proof(key, consoleToken),
        basic,
      );
      assert.equal(issued.body.token_type, 'DPoP', JSON.stringify(issued.body));
      const token = issued.body.access_token as string;
      const clientsUrl = `${server.base}/organizations/acme/clients`;
      const asBearer = await resourceCall(clientsUrl, `Bearer ${token}`);
      assert.equal(asBearer.status, 401);
      assert.match(asBearer.challenge ?? '', /^DPoP realm="tessera", algs="[^"]+", error="invalid_token"/);
      const asDpop = await resourceCall(
        clientsUrl,
        `DPoP ${token}`,
        await proof(key, clientsUrl, { htm: 'GET', ath: ath(token) }),
      );
      assert.equal(asDpop.status, 200, JSON.stringify(asDpop.body));
      // A proof of the org issuer's URL does not open the console's.
      const other = await resourceCall(
        clientsUrl,
        `DPoP ${token}`,
        await proof(key, `${issuer}organizations/acme/clients`, { htm: 'GET', ath: ath(token) }),
      );
      assert.equal(other.status, 401);
    });

    test('a stolen bound refresh token is refused without the key, with another key, or with a replayed proof', {
      skip,
    }, async () => {
      const key = await newKey();
      const tokens = await boundTokens(key);
      const refresh = {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: publicId,
      };

      const none = await tokenCall(issuer, refresh);
      assert.equal(none.status, 400);
      assert.equal(none.body.error, 'invalid_grant');
      assert.equal(none.headers.get('tessera-error-code'), 'token.refresh.dpop_key');
      const other = await tokenCall(issuer, refresh, await proof(await newKey('EdDSA'), tokenUrl));
      assert.equal(other.status, 400);
      assert.equal(other.body.error, 'invalid_grant');

      const legit = await proof(key, tokenUrl);
      const ok = await tokenCall(issuer, refresh, legit);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.token_type, 'DPoP');
      const replay = await tokenCall(
        issuer,
        { ...refresh, refresh_token: ok.body.refresh_token as string },
        legit,
      );
      assert.equal(replay.status, 400);
      assert.deepEqual(replay.body, {
        error: 'invalid_dpop_proof',
        error_description: 'the DPoP proof was already used (its jti is single use)',
      });
      // None of the refusals revoked anything: the holder of the key refreshes on.
      const next = await tokenCall(
        issuer,
        { ...refresh, refresh_token: ok.body.refresh_token as string },
        await proof(key, tokenUrl),
      );
      assert.equal(next.status, 200, JSON.stringify(next.body));
      // Within the reuse grace, the key's holder may retry the token rotated last (its answer may
      // have been lost), which a public client's unbound token may not: it proves nothing.
      const retry = await tokenCall(
        issuer,
        { ...refresh, refresh_token: ok.body.refresh_token as string },
        await proof(key, tokenUrl),
      );
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
    });

    test('a bound token writes with its proof, and moves to another tenant only with a proof of its key', {
      skip,
    }, async () => {
      const key = await newKey();
      const tokens = await boundTokens(key);
      const token = tokens.access_token;
      const tenantsUrl = `${issuer}tenants`;
      const created = await fetch(tenantsUrl, {
        method: 'POST',
        headers: {
          authorization: `DPoP ${token}`,
          dpop: await proof(key, tenantsUrl, { ath: ath(token) }),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'Engines' }),
      });
      assert.equal(created.status, 201);
      const tenantId = ((await created.json()) as { id: string }).id;
      const switchFields = {
        grant_type: 'urn:service:params:oauth:grant-type:switch-tenant',
        access_token: token,
        tenant_id: tenantId,
        client_id: publicId,
      };
      const stolen = await tokenCall(issuer, switchFields);
      assert.equal(stolen.status, 400);
      assert.equal(stolen.body.error, 'invalid_grant');
      assert.equal(stolen.headers.get('tessera-error-code'), 'token.switch_tenant.dpop_key');
      const other = await tokenCall(issuer, switchFields, await proof(await newKey(), tokenUrl));
      assert.equal(other.headers.get('tessera-error-code'), 'token.switch_tenant.dpop_key');
      const moved = await tokenCall(issuer, switchFields, await proof(key, tokenUrl));
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.token_type, 'DPoP');
      const claims = decodeJwt(moved.body.access_token as string);
      assert.equal(claims.tnt, tenantId);
      assert.deepEqual(claims.cnf, { jkt: key.jkt });
    });

    test('introspection shows cnf and token_type DPoP for a bound token and a bound refresh token', {
      skip,
    }, async () => {
      const key = await newKey();
      const tokens = await boundTokens(key);
      const introspect = async (token: string) => {
        const response = await fetch(new URL('oauth/introspect', issuer), {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${machine.basic}`,
          },
          body: new URLSearchParams({ token }).toString(),
        });
        return (await response.json()) as Record<string, unknown>;
      };
      const access = await introspect(tokens.access_token);
      assert.equal(access.active, true);
      assert.equal(access.token_type, 'DPoP');
      assert.deepEqual(access.cnf, { jkt: key.jkt });
    });

    test('nonces: use_dpop_nonce with a DPoP-Nonce, then the proof carrying it is taken', {
      skip,
    }, async () => {
      const m = await makeClient(server.deps, org, {
        name: 'Nonce worker',
        kind: 'confidential',
        redirectUris: [],
        grantTypes: ['client_credentials'],
        dpopNonceRequired: true,
      });
      const basic = Buffer.from(`${m.clientId}:${m.secret}`).toString('base64');
      const key = await newKey();
      const first = await tokenCall(
        issuer,
        { grant_type: 'client_credentials' },
        await proof(key, tokenUrl),
        basic,
      );
      assert.equal(first.status, 400);
      assert.equal(first.body.error, 'use_dpop_nonce');
      assert.equal(first.headers.get('cache-control'), 'no-store');
      const nonce = first.headers.get('dpop-nonce');
      assert.ok(nonce);
      const forged = await tokenCall(
        issuer,
        { grant_type: 'client_credentials' },
        await proof(key, tokenUrl, { nonce: `${nonce}x` }),
        basic,
      );
      assert.equal(forged.body.error, 'use_dpop_nonce');
      const second = await tokenCall(
        issuer,
        { grant_type: 'client_credentials' },
        await proof(key, tokenUrl, { nonce }),
        basic,
      );
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(second.body.token_type, 'DPoP');

      // openid-client retries on use_dpop_nonce by itself.
      const config = await oidc.discovery(
        new URL(issuer),
        m.clientId,
        undefined,
        oidc.ClientSecretBasic(m.secret as string),
        {
          execute: [oidc.allowInsecureRequests],
        },
      );
      const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair());
      assert.equal((await oidc.clientCredentialsGrant(config, {}, { DPoP })).token_type, 'dpop');
    });

    test('dpop_bound_access_tokens: a token request without a proof is refused', { skip }, async () => {
      const m = await makeClient(server.deps, org, {
        name: 'Bound worker',
        kind: 'confidential',
        redirectUris: [],
        grantTypes: ['client_credentials'],
        dpopBoundAccessTokens: true,
      });
      const basic = Buffer.from(`${m.clientId}:${m.secret}`).toString('base64');
      const refused = await tokenCall(issuer, { grant_type: 'client_credentials' }, undefined, basic);
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body, {
        error: 'invalid_request',
        error_description: 'this client must send a DPoP proof with every token request',
      });
      const ok = await tokenCall(
        issuer,
        { grant_type: 'client_credentials' },
        await proof(await newKey(), tokenUrl),
        basic,
      );
      assert.equal(ok.body.token_type, 'DPoP');
    });

    test("a confidential client's refresh token is bound to its credentials, not a key: refreshed without a proof", {
      skip,
    }, async () => {
      const m = await makeClient(server.deps, org, { name: 'Acme server', kind: 'confidential' });
      const { code, verifier } = await authorizationCode(m.clientId);
      const basic = Buffer.from(`${m.clientId}:${m.secret}`).toString('base64');
      const first = await tokenCall(
        issuer,
        { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK },
        await proof(await newKey(), tokenUrl),
        basic,
      );
      assert.equal(first.body.token_type, 'DPoP');
      const refreshed = await tokenCall(
        issuer,
        { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string },
        undefined,
        basic,
      );
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.equal(refreshed.body.token_type, 'Bearer');
      assert.equal(decodeJwt(refreshed.body.access_token as string).cnf, undefined);
    });

    test('proofs that are not proofs: invalid_dpop_proof, never a 500', { skip }, async () => {
      const key = await newKey();
      const cc = { grant_type: 'client_credentials' };
      const refuse = async (dpop: string, why: RegExp) => {
        const answer = await tokenCall(issuer, cc, dpop, machine.basic);
        assert.equal(answer.status, 400, `${why}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error, 'invalid_dpop_proof');
        assert.match(answer.body.error_description as string, why);
      };
      // A private key in the jwk header.
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const privateJwk = await exportJWK(privateKey);
      await refuse(await proof({ ...key, jwk: privateJwk }, tokenUrl), /not a public key/);
      // alg none, and HS256 with a symmetric key.
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: key.jwk })).toString('base64url')}.${Buffer.from(JSON.stringify({ htm: 'POST', htu: tokenUrl, jti: 'a', iat: Math.floor(Date.now() / 1000) })).toString('base64url')}.`;
      await refuse(unsigned, /alg is not one of/);
      const secret = new Uint8Array(32);
      const hs = await new SignJWT({
        htm: 'POST',
        htu: tokenUrl,
        jti: 'b',
        iat: Math.floor(Date.now() / 1000),
      })
        .setProtectedHeader({
          alg: 'HS256',
          typ: 'dpop+jwt',
          jwk: { kty: 'oct', k: Buffer.from(secret).toString('base64url') } as JWK,
        })
        .sign(secret);
      await refuse(hs, /alg is not one of/);
      // Another issuer's token endpoint, another method, another typ.
      await refuse(await proof(key, `${server.issuer('other')}oauth/token`), /htu/);
      await refuse(await proof(key, `${server.base}/oauth/token`), /htu/);
      await refuse(await proof(key, tokenUrl, { htm: 'GET' }), /htm/);
      await refuse(await proof(key, tokenUrl, { header: { typ: 'JWT' } }), /dpop\+jwt/);
      // iat an hour ahead, or two minutes old.
      await refuse(await proof(key, tokenUrl, { iat: Math.floor(Date.now() / 1000) + 3600 }), /iat/);
      await refuse(await proof(key, tokenUrl, { iat: Math.floor(Date.now() / 1000) - 120 }), /iat/);
      // Signed by another key than the one it names.
      const other = await newKey();
      await refuse(await proof({ ...other, jwk: key.jwk }, tokenUrl), /does not verify/);
      // Huge: a long jti, a proof past the size cap, garbage, two headers joined.
      await refuse(await proof(key, tokenUrl, { jti: 'j'.repeat(300) }), /jti/);
      await refuse(await proof(key, tokenUrl, { header: { pad: 'x'.repeat(5000) } }), /too long/);
      await refuse('not.a.jwt', /not a JWT|verify/);
      await refuse(
        `${await proof(key, tokenUrl)}, ${await proof(key, tokenUrl)}`,
        /more than one DPoP header/,
      );
      // RSA keys too small, or with an exponent that would make each check cost a private key's.
      const rsaProof = (jwk: Record<string, unknown>) =>
        [
          Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'dpop+jwt', jwk })).toString('base64url'),
          Buffer.from(
            JSON.stringify({
              htm: 'POST',
              htu: tokenUrl,
              jti: randomUUID(),
              iat: Math.floor(Date.now() / 1000),
            }),
          ).toString('base64url'),
          'c2ln',
        ].join('.');
      const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
      await refuse(rsaProof(small), /2048 to 4096 bits/);
      const rsa = (await newKey('RS256')).jwk;
      await refuse(rsaProof({ ...rsa, e: Buffer.alloc(512, 0xff).toString('base64url') }), /exponent/);
      // A query and fragment on htu are ignored (RFC 9449 §4.3).
      const withQuery = await tokenCall(issuer, cc, await proof(key, `${tokenUrl}?a=1#f`), machine.basic);
      assert.equal(withQuery.status, 200);
    });

    /** The code exchange of the public client, with a proof of `key` when one is given. */
    async function exchange(code: string, verifier: string, key?: Key) {
      const form = {
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: CALLBACK,
        client_id: publicId,
      };
      return tokenCall(issuer, form, key === undefined ? undefined : await proof(key, tokenUrl));
    }

    const boundCodeRefusal = {
      error: 'invalid_grant',
      error_description: 'the authorization code is bound to a DPoP key this request did not prove',
    };

    test('dpop_jkt at /authorize binds the code: another key or no proof is invalid_grant, its key gets bound tokens', {
      skip,
    }, async () => {
      const key = await newKey();
      const thief = await newKey();
      for (const [by, status] of [
        [thief, 400],
        [undefined, 400],
      ] as const) {
        const { code, verifier } = await authorizationCode(publicId, { dpop_jkt: key.jkt });
        const refused = await exchange(code, verifier, by);
        assert.equal(refused.status, status);
        assert.deepEqual(refused.body, boundCodeRefusal);
        assert.equal(refused.headers.get('tessera-error-code'), 'token.code.dpop_key');
        // The code is spent: its own key cannot redeem it afterwards either.
        assert.equal((await exchange(code, verifier, key)).body.error, 'invalid_grant');
      }
      const { code, verifier } = await authorizationCode(publicId, { dpop_jkt: key.jkt });
      const ok = await exchange(code, verifier, key);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.token_type, 'DPoP');
      assert.deepEqual(decodeJwt(ok.body.access_token as string).cnf, { jkt: key.jkt });
      // Without dpop_jkt nothing changes: any key, or none.
      const plain = await authorizationCode(publicId);
      assert.equal((await exchange(plain.code, plain.verifier)).status, 200);
    });

    test('a dpop_jkt that is no thumbprint is invalid_request, sent back to the redirect URI', {
      skip,
    }, async () => {
      for (const bad of ['short', `${'a'.repeat(42)}=`, 'a'.repeat(44)]) {
        const url = new URL('oauth/authorize', issuer);
        url.search = new URLSearchParams({
          response_type: 'code',
          client_id: publicId,
          redirect_uri: CALLBACK,
          code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
          code_challenge_method: 'S256',
          state: 's',
          dpop_jkt: bad,
        }).toString();
        const answer = await fetch(url, { redirect: 'manual' });
        assert.equal(answer.status, 302);
        const back = new URL(answer.headers.get('location') as string);
        assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
        assert.deepEqual(Object.fromEntries(back.searchParams), {
          error: 'invalid_request',
          error_description: 'dpop_jkt is not the base64url SHA-256 thumbprint of a key',
          state: 's',
          iss: issuer,
        });
      }
    });

    test("PAR carries the binding: dpop_jkt pushed, or the PAR request's own DPoP proof (openid-client)", {
      skip,
    }, async () => {
      const parUrl = `${issuer}oauth/par`;
      /** Pushes a request for the public client; the answer's status and body. */
      async function push(fields: Record<string, string>, dpop?: string) {
        const verifier = oauth.generateRandomCodeVerifier();
        const body = new URLSearchParams({
          response_type: 'code',
          client_id: publicId,
          redirect_uri: CALLBACK,
          scope: 'openid',
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state: 'xyz',
          ...fields,
        });
        const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
        if (dpop !== undefined) headers.dpop = dpop;
        const answer = await fetch(parUrl, { method: 'POST', headers, body });
        return { status: answer.status, body: (await answer.json()) as Record<string, string>, verifier };
      }
      async function codeOf(requestUri: string) {
        const url = new URL('oauth/authorize', issuer);
        url.search = new URLSearchParams({ client_id: publicId, request_uri: requestUri }).toString();
        const callback = await signInThroughPages(new FormBrowser(), url.href, {
          email: 'ada@acme.test',
          password: PASSWORD,
        });
        return new URL(callback).searchParams.get('code') as string;
      }
      const key = await newKey();
      const thief = await newKey();

      // dpop_jkt in the pushed form.
      const pushed = await push({ dpop_jkt: key.jkt });
      assert.equal(pushed.status, 201, JSON.stringify(pushed.body));
      const code = await codeOf(pushed.body.request_uri as string);
      assert.deepEqual((await exchange(code, pushed.verifier, thief)).body, boundCodeRefusal);

      // The PAR request's proof binds the code to its key.
      const proven = await push({}, await proof(key, parUrl));
      assert.equal(proven.status, 201, JSON.stringify(proven.body));
      const provenCode = await codeOf(proven.body.request_uri as string);
      assert.deepEqual((await exchange(provenCode, proven.verifier)).body, boundCodeRefusal);
      const again = await push({}, await proof(key, parUrl));
      const ok = await exchange(await codeOf(again.body.request_uri as string), again.verifier, key);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.deepEqual(decodeJwt(ok.body.access_token as string).cnf, { jkt: key.jkt });

      // Both, naming different keys; a proof for another endpoint; a replayed proof.
      const mismatch = await push({ dpop_jkt: thief.jkt }, await proof(key, parUrl));
      assert.equal(mismatch.status, 400);
      assert.deepEqual(mismatch.body, {
        error: 'invalid_dpop_proof',
        error_description: "dpop_jkt is not the thumbprint of the DPoP proof's key",
      });
      const elsewhere = await push({}, await proof(key, tokenUrl));
      assert.equal(elsewhere.body.error, 'invalid_dpop_proof');
      const once = await proof(key, parUrl);
      assert.equal((await push({}, once)).status, 201);
      assert.equal((await push({}, once)).body.error, 'invalid_dpop_proof');

      // openid-client: its DPoP handle on the PAR request and the code exchange, defaults otherwise.
      const config = await oidc.discovery(new URL(issuer), publicId, undefined, oidc.None(), {
        execute: [oidc.allowInsecureRequests],
      });
      const keyPair = await oidc.randomDPoPKeyPair();
      const DPoP = oidc.getDPoPHandle(config, keyPair);
      const verifier = oidc.randomPKCECodeVerifier();
      const parameters = {
        redirect_uri: CALLBACK,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'xyz',
      };
      const bindings = [];
      for (const handle of [oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair()), DPoP]) {
        const url = await oidc.buildAuthorizationUrlWithPAR(config, parameters, { DPoP });
        const callback = await signInThroughPages(new FormBrowser(), url.href, {
          email: 'ada@acme.test',
          password: PASSWORD,
        });
        bindings.push(
          await oidc
            .authorizationCodeGrant(
              config,
              new URL(callback),
              { pkceCodeVerifier: verifier, expectedState: 'xyz' },
              undefined,
              { DPoP: handle },
            )
            .then(
              (tokens) => decodeJwt(tokens.access_token).cnf,
              (err: oidc.ResponseBodyError) => err.error,
            ),
        );
      }
      const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
      assert.deepEqual(bindings, ['invalid_grant', { jkt }]);
    });

    test('discovery is unchanged by dpop_jkt: it names the proof algorithms, and nothing else of DPoP', {
      skip,
    }, async () => {
      const discovery = (await (await fetch(`${issuer}.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      assert.deepEqual(
        Object.keys(discovery).filter((name) => name.includes('dpop')),
        ['dpop_signing_alg_values_supported'],
      );
    });

    test('a nonce handed out by one org is not taken by another (nonces are per issuer)', {
      skip,
    }, async () => {
      const beta = await makeOrg(server, 'beta');
      const m = await makeClient(server.deps, beta, {
        name: 'Beta worker',
        kind: 'confidential',
        redirectUris: [],
        grantTypes: ['client_credentials'],
        dpopNonceRequired: true,
      });
      const acme = await makeClient(server.deps, org, {
        name: 'Acme nonce worker',
        kind: 'confidential',
        redirectUris: [],
        grantTypes: ['client_credentials'],
        dpopNonceRequired: true,
      });
      const basic = (c: { clientId: string; secret: string | null }) =>
        Buffer.from(`${c.clientId}:${c.secret}`).toString('base64');
      const key = await newKey();
      const acmeNonce = (
        await tokenCall(issuer, { grant_type: 'client_credentials' }, await proof(key, tokenUrl), basic(acme))
      ).headers.get('dpop-nonce') as string;
      const betaTokenUrl = `${server.issuer('beta')}oauth/token`;
      const crossed = await tokenCall(
        server.issuer('beta'),
        { grant_type: 'client_credentials' },
        await proof(key, betaTokenUrl, { nonce: acmeNonce }),
        basic(m),
      );
      assert.equal(crossed.status, 400);
      assert.equal(crossed.body.error, 'use_dpop_nonce');
      assert.notEqual(crossed.headers.get('dpop-nonce'), acmeNonce);
      // At the org that handed it out the nonce is taken; the proof carrying it is still single use.
      const same = await proof(key, tokenUrl, { nonce: acmeNonce });
      const taken = await tokenCall(issuer, { grant_type: 'client_credentials' }, same, basic(acme));
      assert.equal(taken.status, 200, JSON.stringify(taken.body));
      const replayed = await tokenCall(issuer, { grant_type: 'client_credentials' }, same, basic(acme));
      assert.equal(replayed.body.error, 'invalid_dpop_proof');
    });

    test('two requests carrying one proof at once: exactly one is answered', { skip }, async () => {
      const shared = await proof(await newKey(), tokenUrl);
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          tokenCall(issuer, { grant_type: 'client_credentials' }, shared, machine.basic),
        ),
      );
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400]);
      for (const a of answers.filter((x) => x.status === 400))
        assert.equal(a.body.error, 'invalid_dpop_proof');
    });
  });
}
