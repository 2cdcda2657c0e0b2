import assert from 'node:assert/strict';
import { sign as cryptoSign, KeyObject } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { makeVerifier, type Verify } from '@tessera/sdk';
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { type FakeApi, json, startFakeApi } from './support/fake-api.js';
import { CLIENT_ID, caught, fieldsOf, sdkFor } from './support/sdk.js';

interface Key {
  kid: string;
  jwk: JWK;
  privateKey: CryptoKey;
}

async function newKey(): Promise<Key> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, jwk: { ...jwk, kid, alg: 'RS256', use: 'sig' }, privateKey };
}

describe('makeVerifier', () => {
  let api: FakeApi;
  let key: Key;
  let other: Key;
  let issuer: string;
  let jwksStatus = 200;
  let verify: Verify;

  before(async () => {
    [key, other] = await Promise.all([newKey(), newKey()]);
    api = await startFakeApi((r) =>
      r.path === '/.well-known/jwks.json'
        ? json(jwksStatus, jwksStatus === 200 ? { keys: [key.jwk] } : { error: 'server_error' })
        : json(404, { error: 'not_found' }),
    );
    issuer = `${api.base}/`;
    verify = makeVerifier({ issuer, clientId: CLIENT_ID, jwksUri: `${api.base}/.well-known/jwks.json` });
  });
  after(() => api.close());

  const claims = (): JWTPayload => ({
    typ: 'user',
    iss: issuer,
    aud: CLIENT_ID,
    sub: 'usr_1',
    tnt: 'tnt_1',
    sid: 'ses_1',
    jti: 'jti_1',
  });

  function sign(
    payload: JWTPayload,
    options: { key?: Key; kid?: string; exp?: number | null; typ?: string } = {},
  ) {
    const signer = options.key ?? key;
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? signer.kid, typ: options.typ ?? 'at+jwt' })
      .setIssuedAt();
    if (options.exp !== null) jwt.setExpirationTime(options.exp ?? '15m');
    return jwt.sign(signer.privateKey);
  }

  it('returns the payload of a valid token', async () => {
    const payload = await verify(await sign(claims()));
    assert.equal(payload.sub, 'usr_1');
    assert.equal(payload.tnt, 'tnt_1');
    assert.equal(payload.iss, issuer);
    assert.ok(typeof payload.exp === 'number');
  });

  it('accepts an aud array that includes the client id', async () => {
    const payload = await verify(await sign({ ...claims(), aud: ['cli_other', CLIENT_ID] }));
    assert.deepEqual(payload.aud, ['cli_other', CLIENT_ID]);
  });

  it('does not check the typ claim, only the header typ (at+jwt, also as application/at+jwt)', async () => {
    for (const typ of ['client', 'console', 'something-else']) {
      assert.equal((await verify(await sign({ ...claims(), typ }))).typ, typ);
    }
    const { typ: _dropped, ...untyped } = claims();
    assert.equal((await verify(await sign(untyped))).typ, undefined);
    assert.equal((await verify(await sign(claims(), { typ: 'application/at+jwt' }))).sub, 'usr_1');
  });

  /** Signs header and payload text as given, for tokens jose would not produce (no `typ`, `exp` 1e400). */
  function signRaw(header: object, payload: string) {
    const encode = (text: string) => Buffer.from(text).toString('base64url');
    const input = `${encode(JSON.stringify(header))}.${encode(payload)}`;
    const signature = cryptoSign('RSA-SHA256', Buffer.from(input), KeyObject.from(key.privateKey));
    return `${input}.${signature.toString('base64url')}`;
  }
  const exp = () => Math.floor(Date.now() / 1000) + 900;

  const refusals: [string, () => Promise<string>, { code: string; detail: string }][] = [
    [
      'a wrong iss',
      () => sign({ ...claims(), iss: 'http://evil.example/' }),
      { code: 'invalid_token', detail: '"iss" does not match' },
    ],
    [
      'an iss without the trailing slash',
      () => sign({ ...claims(), iss: issuer.slice(0, -1) }),
      { code: 'invalid_token', detail: '"iss" does not match' },
    ],
    [
      'a wrong aud',
      () => sign({ ...claims(), aud: 'cli_other' }),
      { code: 'invalid_token', detail: '"aud" does not match' },
    ],
    [
      'an expired token',
      () => sign(claims(), { exp: Math.floor(Date.now() / 1000) - 5 }),
      { code: 'token_expired', detail: '"exp" is in the past' },
    ],
    [
      'a token without exp',
      () => sign(claims(), { exp: null }),
      { code: 'invalid_token', detail: '"exp" is missing' },
    ],
    [
      'alg none',
      async () => new UnsecuredJWT(claims()).setExpirationTime('15m').encode(),
      { code: 'invalid_token', detail: 'the token is not signed with RS256' },
    ],
    [
      'HS256, even keyed with the public key (algorithm confusion)',
      () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: key.kid })
          .setExpirationTime('15m')
          .sign(new TextEncoder().encode(JSON.stringify(key.jwk))),
      { code: 'invalid_token', detail: 'the token is not signed with RS256' },
    ],
    [
      'a signature by another key under the right kid',
      () => sign(claims(), { key: other, kid: key.kid }),
      { code: 'invalid_token', detail: 'the signature does not verify' },
    ],
    [
      'a kid that is not in the key set',
      () => sign(claims(), { key: other }),
      { code: 'invalid_token', detail: 'no single key of the key set matches the token' },
    ],
    [
      'a tampered payload',
      async () => {
        const [head, , signature] = (await sign(claims())).split('.');
        const body = Buffer.from(JSON.stringify({ ...claims(), sub: 'usr_admin', exp: 9e9 })).toString(
          'base64url',
        );
        return `${head}.${body}.${signature}`;
      },
      { code: 'invalid_token', detail: 'the signature does not verify' },
    ],
    [
      'a token with no header typ',
      async () => signRaw({ alg: 'RS256', kid: key.kid }, JSON.stringify({ ...claims(), exp: exp() })),
      { code: 'invalid_token', detail: 'the header "typ" is not at+jwt' },
    ],
    [
      'a header typ of JWT, as an ID token has',
      () => sign(claims(), { typ: 'JWT' }),
      { code: 'invalid_token', detail: 'the header "typ" is not at+jwt' },
    ],
    [
      'exp 1e400, which parses to Infinity',
      async () => {
        const payload = JSON.stringify({ ...claims(), exp: exp() }).replace(/"exp":\d+/, '"exp":1e400');
        assert.ok(payload.includes('"exp":1e400'));
        assert.equal(JSON.parse(payload).exp, Number.POSITIVE_INFINITY);
        return signRaw({ alg: 'RS256', typ: 'at+jwt', kid: key.kid }, payload);
      },
      { code: 'invalid_token', detail: '"exp" is not a finite number' },
    ],
    [
      'a token with no kid, though the key set holds a single key',
      async () => signRaw({ alg: 'RS256', typ: 'at+jwt' }, JSON.stringify({ ...claims(), exp: exp() })),
      { code: 'invalid_token', detail: 'the header has no "kid"' },
    ],
    [
      'a token with an empty kid',
      () => sign(claims(), { kid: '' }),
      { code: 'invalid_token', detail: 'the header has no "kid"' },
    ],
    [
      'a 100 KB token, correctly signed',
      async () => {
        const token = await sign({ ...claims(), pad: 'x'.repeat(100_000) });
        assert.ok(token.length > 100_000);
        return token;
      },
      { code: 'invalid_token', detail: 'the token is longer than 8192 characters' },
    ],
    [
      'a string that is not a JWT',
      async () => 'not-a-jwt',
      { code: 'invalid_token', detail: 'the token is malformed' },
    ],
  ];

  for (const [label, token, expected] of refusals) {
    it(`refuses ${label}`, async () => {
      const err = await caught(verify(await token()));
      assert.deepEqual(fieldsOf(err), { status: 0, ...expected });
      assert.equal(err.message, `access token refused: ${expected.detail}`);
    });
  }

  it('refuses a missing token as invalid_token', async () => {
    assert.equal((await caught(verify(undefined as unknown as string))).code, 'invalid_token');
    assert.equal((await caught(verify(''))).code, 'invalid_token');
  });

  it('reports jwks_unavailable when the key set cannot be fetched', async () => {
    const token = await sign(claims());
    jwksStatus = 500;
    try {
      const fresh = makeVerifier({
        issuer,
        clientId: CLIENT_ID,
        jwksUri: new URL('/.well-known/jwks.json', api.base),
      });
      assert.deepEqual(fieldsOf(await caught(fresh(token))), {
        status: 0,
        code: 'jwks_unavailable',
        detail: 'the key set could not be fetched',
      });
    } finally {
      jwksStatus = 200;
    }
  });

  it('checks its options when created, naming the bad one', () => {
    const ok = { issuer, clientId: CLIENT_ID, jwksUri: `${api.base}/.well-known/jwks.json` };
    assert.throws(() => makeVerifier({ ...ok, issuer: 'http://127.0.0.1' }), {
      name: 'TypeError',
      message: 'makeVerifier: "issuer" must be an absolute http(s) URL ending in "/"',
    });
    assert.throws(() => makeVerifier({ ...ok, clientId: '' }), /makeVerifier: "clientId"/);
    assert.throws(() => makeVerifier({ ...ok, jwksUri: 'file:///etc/keys.json' }), /makeVerifier: "jwksUri"/);
  });

  it('sdk.verify fetches keys from jwksUri, with host= under a hostOverride', async () => {
    const sdk = sdkFor(api, { hostOverride: 'acme.localhost:4000' });
    const before = api.requests.length;
    assert.equal((await sdk.verify(await sign(claims()))).sub, 'usr_1');
    const fetched = api.requests.slice(before);
    assert.deepEqual(
      fetched.map((r) => r.url),
      ['/.well-known/jwks.json?host=acme.localhost%3A4000'],
    );
  });
});
