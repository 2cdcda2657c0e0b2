import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import { createVerifierWith } from '../src/verifier.js';
import {
  base64url,
  CLIENT_ID,
  createTestKey,
  replacePart,
  signToken,
  startIssuer,
  type TestIssuer,
  type TestKey,
  userClaims,
} from './support/issuer.js';

const MINUTE = 60 * 1000;

describe('key set: cache, cooldown and outages', () => {
  let idp: TestIssuer;
  let now: number;
  const clock = () => now;
  const verifierFor = (issuer: TestIssuer) =>
    createVerifierWith({ issuer: issuer.issuer, clientId: CLIENT_ID }, { now: clock });
  const tokenFor = (issuer: TestIssuer, overrides: Record<string, unknown> = {}) =>
    signToken(issuer.key, userClaims(issuer.issuer, { exp: Math.floor(now / 1000) + 3600, ...overrides }));
  const withKid = (token: string, kid: string) =>
    replacePart(token, 0, base64url(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid })));

  // RSA key generation is slow; two keys serve every test.
  let signing: TestKey;
  let other: TestKey;
  before(async () => {
    [signing, other] = await Promise.all([createTestKey(), createTestKey()]);
  });
  beforeEach(async () => {
    idp = await startIssuer(signing);
    now = Date.now();
  });
  afterEach(() => idp.close());

  test('1,000 tokens with random kids, one after another, cost at most a handful of fetches', async () => {
    const verify = verifierFor(idp);
    const token = await tokenFor(idp);
    for (let i = 0; i < 1000; i++) {
      assert.equal(await verify(withKid(token, randomBytes(16).toString('base64url'))), null);
      now += 10;
    }
    // Ten simulated seconds pass: the initial fetch, and nothing else inside the 30 s cooldown.
    assert.ok(idp.fetches <= 2, `fetched ${idp.fetches} times`);
    assert.equal((await verify(token))?.kind, 'user');
  });

  test('1,000 concurrent tokens with random kids share a single fetch', async () => {
    const verify = verifierFor(idp);
    const token = await tokenFor(idp);
    const kids = Array.from({ length: 1000 }, () => randomBytes(16).toString('base64url'));
    const results = await Promise.all(kids.map((kid) => verify(withKid(token, kid))));
    assert.ok(results.every((result) => result === null));
    assert.equal(idp.fetches, 1);
  });

  test('concurrent first verifications share one fetch', async () => {
    const verify = verifierFor(idp);
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => tokenFor(idp, { jti: `j${i}` })));
    const results = await Promise.all(tokens.map((token) => verify(token)));
    assert.ok(results.every((result) => result?.kind === 'user'));
    assert.equal(idp.fetches, 1);
  });

  test('a rotated-in key with a new kid is picked up by one refetch once the cooldown allows', async () => {
    const verify = verifierFor(idp);
    assert.equal((await verify(await tokenFor(idp)))?.kind, 'user');
    assert.equal(idp.fetches, 1);

    idp.keys = [idp.key.publicJwk, other.publicJwk];
    const rotated = await signToken(other, userClaims(idp.issuer, { exp: Math.floor(now / 1000) + 3600 }));

    now += 5 * 1000;
    assert.equal(await verify(rotated), null, 'inside the cooldown the new kid is not fetched');
    assert.equal(idp.fetches, 1);

    now += 30 * 1000;
    assert.equal((await verify(rotated))?.kind, 'user');
    assert.equal(idp.fetches, 2);
    assert.equal((await verify(await tokenFor(idp, { jti: 'again' })))?.kind, 'user');
    assert.equal(idp.fetches, 2);
  });

  test('the key set is kept for ten minutes and fetched again after that', async () => {
    const verify = verifierFor(idp);
    const token = await tokenFor(idp);
    assert.equal((await verify(token))?.kind, 'user');
    now += 9 * MINUTE;
    assert.equal((await verify(await tokenFor(idp, { jti: 'later' })))?.kind, 'user');
    assert.equal(idp.fetches, 1);
    now += 1 * MINUTE + 1;
    assert.equal((await verify(token))?.kind, 'user');
    assert.equal(idp.fetches, 2);
  });

  test('a key removed from the key set stops verifying once the set is refreshed, cached results too', async () => {
    const verify = verifierFor(idp);
    const token = await tokenFor(idp);
    assert.equal((await verify(token))?.kind, 'user');
    idp.keys = [other.publicJwk];
    now += 10 * MINUTE + 1;
    assert.equal(await verify(token), null);
    assert.equal(idp.fetches, 2);
  });

  test('a cached result is not returned once its exp has passed', async () => {
    const verify = verifierFor(idp);
    const token = await tokenFor(idp, { exp: Math.floor(now / 1000) + 60 });
    assert.equal((await verify(token))?.kind, 'user');
    now += 30 * 1000;
    assert.equal((await verify(token))?.kind, 'user');
    now += 31 * 1000;
    assert.equal(await verify(token), null);
  });

  for (const [name, outage] of [
    ['a 500 answer', (res) => res.writeHead(500).end('{"keys":[]}')],
    ['a 302 redirect', (res) => res.writeHead(302, { location: '/elsewhere' }).end()],
    ['a body that is not JSON', (res) => res.writeHead(200).end('<html>maintenance</html>')],
    ['JSON without a keys array', (res) => res.writeHead(200).end('{"keys":{}}')],
    ['a dropped connection', (res) => res.socket?.destroy()],
  ] as const satisfies readonly (readonly [string, NonNullable<TestIssuer['override']>])[]) {
    test(`a key-set outage (${name}) fails closed, and recovery is picked up after the cooldown`, async () => {
      const verify = verifierFor(idp);
      const token = await tokenFor(idp);
      idp.override = outage;
      assert.equal(await verify(token), null);
      assert.equal(idp.fetches, 1);

      idp.override = null;
      now += 5 * 1000;
      assert.equal(await verify(token), null, 'no new fetch inside the cooldown');
      assert.equal(idp.fetches, 1);
      now += 30 * 1000;
      assert.equal((await verify(token))?.kind, 'user');
      assert.equal(idp.fetches, 2);
    });
  }

  test('a key-set redirect is not followed, not even to a server with valid keys', async () => {
    const elsewhere = await startIssuer(other);
    try {
      idp.override = (res) =>
        res.writeHead(302, { location: `${elsewhere.issuer}.well-known/jwks.json` }).end();
      const verify = verifierFor(idp);
      assert.equal(await verify(await signToken(other, userClaims(idp.issuer))), null);
      assert.equal(elsewhere.requests, 0);
    } finally {
      await elsewhere.close();
    }
  });

  test('an unreachable issuer fails closed', async () => {
    const gone = await startIssuer(signing);
    await gone.close();
    const verify = verifierFor(gone);
    assert.equal(await verify(await tokenFor(gone)), null);
  });

  test('a stale key set whose refresh fails is not used: verification fails closed', async () => {
    const verify = verifierFor(idp);
    const token = await tokenFor(idp);
    assert.equal((await verify(token))?.kind, 'user');
    idp.override = (res) => res.writeHead(503).end();
    now += 10 * MINUTE + 1;
    assert.equal(await verify(token), null);
    assert.equal(await verify(await tokenFor(idp, { jti: 'other' })), null);
    assert.equal(idp.fetches, 2);
  });

  test('keys that cannot verify RS256 are skipped, and a kid listed twice is ignored', async () => {
    const { kid } = idp.key;
    idp.keys = [
      { ...other.publicJwk, kid: 'enc', use: 'enc' },
      { ...other.publicJwk, kid: 'ps', alg: 'PS256' },
      { kty: 'oct', k: 'c2VjcmV0', kid: 'hmac' },
      { ...idp.key.publicJwk },
      { ...other.publicJwk, kid: 'dup' },
      { ...idp.key.publicJwk, kid: 'dup' },
    ];
    const verify = verifierFor(idp);
    const claims = userClaims(idp.issuer, { exp: Math.floor(now / 1000) + 3600 });
    assert.equal((await verify(await signToken(idp.key, claims, { kid })))?.kind, 'user');
    for (const badKid of ['enc', 'ps', 'hmac', 'dup']) {
      assert.equal(await verify(await signToken(idp.key, claims, { kid: badKid })), null, badKid);
      assert.equal(await verify(await signToken(other, claims, { kid: badKid })), null, badKid);
    }
  });
});
