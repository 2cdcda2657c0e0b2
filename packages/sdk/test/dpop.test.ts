import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  calculateJwkThumbprint,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  type JWK,
  jwtVerify,
} from 'jose';
import { type FakeApi, json, type Recorded, startFakeApi } from './support/fake-api.js';
import { caught, sdkFor } from './support/sdk.js';

const TOKEN_RESPONSE = {
  access_token: 'at_new',
  token_type: 'DPoP',
  expires_in: 900,
  refresh_token: 'rt_new',
};
const USER = {
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: null,
  picture: null,
  provider: 'password',
};

/** An access token as the SDK sees it: a JWT whose payload it reads only to pick the scheme. */
const tokenWith = (payload: object) =>
  `eyJhbGciOiJSUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2ln`;
const BOUND = tokenWith({ sub: 'usr_1', cnf: { jkt: 'x'.repeat(43) } });
const UNBOUND = tokenWith({ sub: 'usr_1' });

const ath = (token: string) => createHash('sha256').update(token, 'ascii').digest('base64url');

/** A recorded request's proof, verified with the key in its own header; its header and claims. */
async function proofOf(r: Recorded) {
  const proof = r.headers.dpop;
  assert.equal(typeof proof, 'string', `${r.method} ${r.url} carries a DPoP proof`);
  const header = decodeProtectedHeader(proof as string);
  const { payload } = await jwtVerify(proof as string, header.jwk as JWK, { typ: 'dpop+jwt' });
  return { header, claims: payload, jkt: await calculateJwkThumbprint(header.jwk as JWK) };
}

const nonceChallenge = (nonce: string, realm = 'api') => ({
  'www-authenticate': `DPoP realm="${realm}", algs="ES256", error="use_dpop_nonce"`,
  'dpop-nonce': nonce,
});

describe('DPoP at the token endpoint', () => {
  let api: FakeApi;
  before(async () => {
    api = await startFakeApi();
  });
  after(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    api.handler = () => json(200, TOKEN_RESPONSE);
  });

  it('is off by default: no proof, and sdk.dpop is undefined', async () => {
    const sdk = sdkFor(api);
    assert.equal(sdk.dpop, undefined);
    await sdk.token.refresh({ refreshToken: 'rt_1' });
    assert.equal(api.last().headers.dpop, undefined);
  });

  it('signs each token request with an ES256 key whose proof names the request; the private key stays out', async () => {
    const sdk = sdkFor(api, { dpop: true });
    const tokens = await sdk.token.authorizationCode({
      code: 'c',
      redirectUri: 'https://app/cb',
      codeVerifier: 'v',
    });
    assert.equal(tokens.tokenType, 'DPoP');
    await sdk.token.refresh({ refreshToken: 'rt_1' });
    await sdk.token.switchTenant({ accessToken: BOUND, tenantId: 'tnt_2' });
    await sdk.token.clientCredentials({ clientId: 'cli_m', clientSecret: 's' });
    const proofs = await Promise.all(api.requests.map(proofOf));
    const jkt = await sdk.dpop?.thumbprint();
    for (const { header, claims, jkt: proven } of proofs) {
      assert.equal(header.alg, 'ES256');
      assert.deepEqual(Object.keys(header.jwk ?? {}).sort(), ['crv', 'kty', 'x', 'y']);
      assert.equal(proven, jkt, 'one key signs every proof of this SDK');
      assert.deepEqual(Object.keys(claims).sort(), ['htm', 'htu', 'iat', 'jti']);
      assert.equal(claims.htm, 'POST');
      assert.equal(claims.htu, `${api.base}/oauth/token`);
      assert.ok(Math.abs((claims.iat as number) - Date.now() / 1000) < 5);
    }
    assert.equal(new Set(proofs.map((p) => p.claims.jti)).size, 4, 'each proof has its own jti');
    // The token-endpoint request sends no Authorization header; the bound token travels in the form only.
    assert.ok(api.requests.every((r) => r.headers.authorization === undefined));
  });

  it('retries once with the DPoP-Nonce of a use_dpop_nonce answer, and keeps the nonce for the next request', async () => {
    const sdk = sdkFor(api, { dpop: true });
    api.handler = (r) =>
      r.headers.dpop && decodeJwt(r.headers.dpop as string).nonce === 'n-1'
        ? json(200, TOKEN_RESPONSE)
        : json(400, { error: 'use_dpop_nonce', error_description: 'nonce' }, { 'dpop-nonce': 'n-1' });
    await sdk.token.refresh({ refreshToken: 'rt_1' });
    assert.equal(api.requests.length, 2);
    const [first, second] = await Promise.all(api.requests.map(proofOf));
    assert.equal(first?.claims.nonce, undefined);
    assert.equal(second?.claims.nonce, 'n-1');
    assert.notEqual(first?.claims.jti, second?.claims.jti);
    await sdk.token.refresh({ refreshToken: 'rt_2' });
    assert.equal(api.requests.length, 3, 'the kept nonce is used at once');
  });

  it('retries only once: a second use_dpop_nonce is the error', async () => {
    const sdk = sdkFor(api, { dpop: true });
    let n = 0;
    api.handler = () => json(400, { error: 'use_dpop_nonce' }, { 'dpop-nonce': `n-${++n}` });
    const err = await caught(sdk.token.refresh({ refreshToken: 'rt_1' }));
    assert.equal(err.code, 'use_dpop_nonce');
    assert.equal(api.requests.length, 2);
  });

  it('does not retry another 400, nor a use_dpop_nonce without a DPoP-Nonce', async () => {
    const sdk = sdkFor(api, { dpop: true });
    api.handler = () => json(400, { error: 'invalid_dpop_proof' }, { 'dpop-nonce': 'n-1' });
    assert.equal((await caught(sdk.token.refresh({ refreshToken: 'rt_1' }))).code, 'invalid_dpop_proof');
    api.handler = () => json(400, { error: 'use_dpop_nonce' });
    assert.equal((await caught(sdk.token.refresh({ refreshToken: 'rt_1' }))).code, 'use_dpop_nonce');
    assert.equal(api.requests.length, 2);
  });

  it('authorizationUrl names the key with dpop_jkt when asked', async () => {
    const sdk = sdkFor(api, { dpop: true });
    const jkt = (await sdk.dpop?.thumbprint()) as string;
    const url = new URL(
      sdk.authorizationUrl({ redirectUri: 'https://app/cb', codeChallenge: 'c', state: 's', dpopJkt: jkt }),
    );
    assert.equal(url.searchParams.get('dpop_jkt'), jkt);
    const plain = new URL(
      sdk.authorizationUrl({ redirectUri: 'https://app/cb', codeChallenge: 'c', state: 's' }),
    );
    assert.equal(plain.searchParams.has('dpop_jkt'), false);
  });

  it('revocation carries no proof (RFC 9449 binds token requests and resource calls only)', async () => {
    api.handler = () => ({ status: 200 });
    await sdkFor(api, { dpop: true }).revoke({ token: 'rt_1' });
    assert.equal(api.last().headers.dpop, undefined);
  });

  it('names the issuer in htu under a hostOverride, never the ?host= address', async () => {
    const sdk = sdkFor(api, {
      dpop: true,
      issuer: 'http://acme.localhost:4000/',
      hostOverride: 'acme.localhost:4000',
    });
    await sdk.token.refresh({ refreshToken: 'rt_1' });
    assert.equal(api.last().url, '/oauth/token?host=acme.localhost%3A4000');
    assert.equal((await proofOf(api.last())).claims.htu, 'http://acme.localhost:4000/oauth/token');
  });
});

describe('DPoP at Tessera’s APIs', () => {
  let api: FakeApi;
  before(async () => {
    api = await startFakeApi();
  });
  after(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    api.handler = () => json(200, USER);
  });

  it('sends a bound token as DPoP with a proof of this request (ath its hash), an unbound one as Bearer', async () => {
    const sdk = sdkFor(api, { dpop: true });
    await sdk.users.me(BOUND);
    const bound = api.last();
    assert.equal(bound.headers.authorization, `DPoP ${BOUND}`);
    const { claims, jkt } = await proofOf(bound);
    assert.equal(jkt, await sdk.dpop?.thumbprint());
    assert.equal(claims.htm, 'GET');
    assert.equal(claims.htu, `${api.base}/users/me`);
    assert.equal(claims.ath, ath(BOUND));
    await sdk.users.me(UNBOUND);
    assert.equal(api.last().headers.authorization, `Bearer ${UNBOUND}`);
    assert.equal(api.last().headers.dpop, undefined);
  });

  it('without the option a bound token still goes as Bearer, with no proof', async () => {
    await sdkFor(api).users.me(BOUND);
    assert.equal(api.last().headers.authorization, `Bearer ${BOUND}`);
    assert.equal(api.last().headers.dpop, undefined);
  });

  it('retries a 401 use_dpop_nonce once with the nonce', async () => {
    const sdk = sdkFor(api, { dpop: true });
    api.handler = (r) =>
      decodeJwt(r.headers.dpop as string).nonce === 'rn'
        ? json(200, [])
        : json(401, { error: 'unauthorized' }, nonceChallenge('rn'));
    assert.deepEqual(await sdk.tenants.list(BOUND), []);
    assert.equal(api.requests.length, 2);
    assert.equal((await proofOf(api.requests[1] as Recorded)).claims.nonce, 'rn');
  });

  it('does not retry a 401 whose DPoP challenge is another error', async () => {
    const sdk = sdkFor(api, { dpop: true });
    api.handler = () =>
      json(
        401,
        { error: 'unauthorized' },
        { 'www-authenticate': 'DPoP error="invalid_token"', 'dpop-nonce': 'n' },
      );
    assert.equal((await caught(sdk.users.me(BOUND))).status, 401);
    assert.equal(api.requests.length, 1);
  });
});

describe('sdk.dpop for the app’s own APIs', () => {
  let api: FakeApi;
  before(async () => {
    api = await startFakeApi();
  });
  after(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
  });

  it('fetch sends Authorization: DPoP and a proof of the method and URL (no query), and resends the body after a nonce', async () => {
    const sdk = sdkFor(api, { dpop: true });
    api.handler = (r) =>
      decodeJwt(r.headers.dpop as string).nonce === 'app-n'
        ? json(201, { ok: true }, { 'dpop-nonce': 'app-n2' })
        : json(401, { error: 'unauthorized' }, nonceChallenge('app-n'));
    const res = await sdk.dpop?.fetch(BOUND, `${api.base}/notes?page=2#top`, {
      method: 'post',
      headers: { 'content-type': 'application/json', authorization: 'Bearer overridden' },
      body: '{"text":"hi"}',
    });
    assert.equal(res?.status, 201);
    assert.deepEqual(await res?.json(), { ok: true });
    assert.equal(api.requests.length, 2);
    for (const r of api.requests) {
      assert.equal(r.headers.authorization, `DPoP ${BOUND}`);
      assert.equal(r.body, '{"text":"hi"}');
      assert.equal(r.url, '/notes?page=2');
    }
    const second = await proofOf(api.requests[1] as Recorded);
    assert.deepEqual(
      { htm: second.claims.htm, htu: second.claims.htu, ath: second.claims.ath, nonce: second.claims.nonce },
      { htm: 'POST', htu: `${api.base}/notes`, ath: ath(BOUND), nonce: 'app-n' },
    );
    // The nonce handed out with the success is the one the next proof to this server carries.
    await sdk.dpop?.fetch(BOUND, `${api.base}/notes`);
    assert.equal((await proofOf(api.requests[2] as Recorded)).claims.nonce, 'app-n2');
  });

  it("fetch retries once only, and a server's nonce never goes to another server", async () => {
    const sdk = sdkFor(api, { dpop: true });
    api.handler = () => json(401, { error: 'unauthorized' }, nonceChallenge('app-only'));
    const res = await sdk.dpop?.fetch(BOUND, `${api.base}/notes`);
    assert.equal(res?.status, 401);
    assert.equal(api.requests.length, 2);
    api.handler = () => json(200, TOKEN_RESPONSE);
    const other = sdkFor(api, { dpop: true, issuer: 'http://localhost:1/' });
    await other.token.refresh({ refreshToken: 'rt' });
    assert.equal((await proofOf(api.last())).claims.nonce, undefined);
  });

  it('proof makes a proof for any request; thumbprint is its key’s', async () => {
    const sdk = sdkFor(api, { dpop: true });
    const proof = await sdk.dpop?.proof({
      method: 'delete',
      url: 'https://api.example.com/x?y=1',
      accessToken: BOUND,
      nonce: 'n',
    });
    const header = decodeProtectedHeader(proof as string);
    const { payload } = await jwtVerify(proof as string, header.jwk as JWK, { typ: 'dpop+jwt' });
    assert.deepEqual(
      { htm: payload.htm, htu: payload.htu, ath: payload.ath, nonce: payload.nonce },
      { htm: 'DELETE', htu: 'https://api.example.com/x', ath: ath(BOUND), nonce: 'n' },
    );
    assert.equal(await calculateJwkThumbprint(header.jwk as JWK), await sdk.dpop?.thumbprint());
    assert.throws(() => sdk.dpop?.proof({ method: '', url: 'https://a' }), TypeError);
  });

  it('takes the app’s key pair, and refuses what is no signing key pair', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const sdk = sdkFor(api, { dpop: { keyPair: pair } });
    const proof = (await sdk.dpop?.proof({ method: 'GET', url: 'https://a/' })) as string;
    assert.equal(decodeProtectedHeader(proof).alg, 'EdDSA');
    const { publicKey } = await generateKeyPair('ES256');
    await sdk.dpop?.forget();
    assert.equal(
      await sdk.dpop?.thumbprint(),
      await calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK),
      'forget keeps a pair the app passed',
    );
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const es384 = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    for (const keyPair of [
      {},
      { privateKey: hmac, publicKey: hmac },
      es384,
      { privateKey: pair.privateKey, publicKey },
    ]) {
      assert.throws(
        () => sdkFor(api, { dpop: { keyPair: keyPair as CryptoKeyPair } }),
        /createSdk: "dpop.keyPair" must/,
      );
    }
    assert.throws(() => sdkFor(api, { dpop: 'yes' as unknown as boolean }), /createSdk: "dpop" must be/);
  });

  it('forget gives the SDK a new key when it made its own', async () => {
    const sdk = sdkFor(api, { dpop: true });
    const before = await sdk.dpop?.thumbprint();
    await sdk.dpop?.forget();
    assert.notEqual(await sdk.dpop?.thumbprint(), before);
  });
});
