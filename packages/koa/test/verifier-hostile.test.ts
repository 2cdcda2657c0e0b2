import assert from 'node:assert/strict';
import { createHmac, createPublicKey } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createVerifier, type Verify } from '@tessera/koa';
import {
  base64url,
  CLIENT_ID,
  createTestKey,
  replacePart,
  signRaw,
  signToken,
  startIssuer,
  type TestIssuer,
  type TestKey,
  userClaims,
} from './support/issuer.js';

describe('createVerifier: hostile tokens are all null', () => {
  let idp: TestIssuer;
  let attacker: TestIssuer;
  let verify: Verify;
  let valid: string;

  before(async () => {
    idp = await startIssuer();
    // A second issuer whose key the attacker holds; its server also plays the attacker's jku/x5u host.
    attacker = await startIssuer();
    verify = createVerifier({ issuer: idp.issuer, clientId: CLIENT_ID });
    valid = await signToken(idp.key, userClaims(idp.issuer));
  });
  after(async () => {
    await idp.close();
    await attacker.close();
  });

  const header = (extra: Record<string, unknown> = {}) => ({
    alg: 'RS256',
    typ: 'at+jwt',
    kid: idp.key.kid,
    ...extra,
  });
  const hmac = (secret: Buffer | string, headerJson: object, payload: object) => {
    const input = `${base64url(JSON.stringify(headerJson))}.${base64url(JSON.stringify(payload))}`;
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };

  test('control: the raw signer used below produces a token that verifies', async () => {
    assert.equal((await verify(signRaw(idp.key, header(), userClaims(idp.issuer))))?.kind, 'user');
    assert.equal((await verify(valid))?.kind, 'user');
  });

  test('alg none, with or without a signature part', async () => {
    const input = `${base64url(JSON.stringify(header({ alg: 'none' })))}.${base64url(JSON.stringify(userClaims(idp.issuer)))}`;
    assert.equal(await verify(`${input}.`), null);
    assert.equal(await verify(input), null);
    assert.equal(await verify(`${input}.${valid.split('.')[2]}`), null);
  });

  test('an RS256 signature under any other alg name (RS512, PS256, rs256)', async () => {
    const claims = userClaims(idp.issuer);
    for (const alg of ['RS512', 'PS256', 'rs256', 'RS256 ']) {
      assert.equal(await verify(signRaw(idp.key, header({ alg }), claims)), null, alg);
    }
  });

  test('HS256 keyed with the public key (PEM, DER or JWK bytes as the HMAC secret)', async () => {
    const publicKey = createPublicKey({ key: idp.key.publicJwk as never, format: 'jwk' });
    const secrets = [
      publicKey.export({ format: 'pem', type: 'spki' }),
      publicKey.export({ format: 'pem', type: 'pkcs1' }),
      publicKey.export({ format: 'der', type: 'spki' }),
      JSON.stringify(idp.key.publicJwk),
    ];
    for (const secret of secrets) {
      assert.equal(await verify(hmac(secret, header({ alg: 'HS256' }), userClaims(idp.issuer))), null);
    }
  });

  test('an embedded jwk header carrying the attacker key is never used', async () => {
    const claims = userClaims(idp.issuer);
    const embedded = { jwk: attacker.key.publicJwk };
    assert.equal(await verify(signRaw(attacker.key, header(embedded), claims)), null);
    assert.equal(
      await verify(signRaw(attacker.key, header({ ...embedded, kid: attacker.key.kid }), claims)),
      null,
    );
  });

  test('jku and x5u headers pointing at an attacker server are never fetched', async () => {
    const claims = userClaims(idp.issuer);
    const jwksUrl = `${attacker.issuer}.well-known/jwks.json`;
    for (const kid of [idp.key.kid, attacker.key.kid]) {
      assert.equal(await verify(signRaw(attacker.key, header({ kid, jku: jwksUrl }), claims)), null);
      assert.equal(await verify(signRaw(attacker.key, header({ kid, x5u: jwksUrl }), claims)), null);
    }
    assert.equal(attacker.requests, 0);
  });

  test('an unknown crit header, even on a correctly signed token', async () => {
    const claims = userClaims(idp.issuer);
    assert.equal(await verify(signRaw(idp.key, header({ crit: ['exp'], exp: 1 }), claims)), null);
    assert.equal(await verify(signRaw(idp.key, header({ crit: ['b64'], b64: false }), claims)), null);
    assert.equal(await verify(signRaw(idp.key, header({ crit: [] }), claims)), null);
  });

  test('exp missing, non-numeric, infinite (1e400, 1e999) or in the past', async () => {
    const sign = (exp: unknown) => signToken(idp.key, userClaims(idp.issuer, { exp }));
    assert.equal(await verify(await sign(undefined)), null);
    assert.equal(await verify(await sign('9999999999')), null);
    assert.equal(await verify(await sign(null)), null);
    for (const infinite of ['1e400', '1e999']) {
      // JSON.stringify cannot write such a number, so the payload text is written by hand.
      const json = JSON.stringify(userClaims(idp.issuer)).replace(/"exp":\d+/, `"exp":${infinite}`);
      assert.ok(json.includes(`"exp":${infinite}`));
      assert.equal(JSON.parse(json).exp, Number.POSITIVE_INFINITY);
      assert.equal(await verify(signRaw(idp.key, header(), json)), null, infinite);
    }
    assert.equal(await verify(await sign(Math.floor(Date.now() / 1000) - 1)), null);
  });

  test('nbf in the future, or not a number', async () => {
    const soon = Math.floor(Date.now() / 1000) + 60;
    assert.equal(await verify(await signToken(idp.key, userClaims(idp.issuer, { nbf: soon }))), null);
    assert.equal(await verify(await signToken(idp.key, userClaims(idp.issuer, { nbf: 'now' }))), null);
  });

  test('iss off by one slash, or of another issuer', async () => {
    const sign = (iss: string) => signToken(idp.key, userClaims(idp.issuer, { iss }));
    assert.equal(await verify(await sign(idp.issuer.slice(0, -1))), null);
    assert.equal(await verify(await sign(`${idp.issuer}/`)), null);
    assert.equal(await verify(await sign(attacker.issuer)), null);
  });

  test('aud array without clientId', async () => {
    const token = await signToken(idp.key, userClaims(idp.issuer, { aud: ['cli_other', 'cli_web2'] }));
    assert.equal(await verify(token), null);
  });

  test('a huge token is refused without fetching or parsing anything', async () => {
    const fresh = await startIssuer(idp.key);
    try {
      const verifyFresh = createVerifier({ issuer: fresh.issuer, clientId: CLIENT_ID });
      const huge = await signToken(idp.key, userClaims(fresh.issuer, { pad: 'x'.repeat(9000) }));
      assert.ok(huge.length > 8192);
      assert.equal(await verifyFresh(huge), null);
      assert.equal(fresh.fetches, 0);
      const padded = await signToken(idp.key, userClaims(fresh.issuer, { pad: 'x'.repeat(100_000) }));
      assert.ok(padded.length > 100_000);
      assert.equal(await verifyFresh(padded), null);
      assert.equal(await verifyFresh(`${'a'.repeat(5_000_000)}.b.c`), null);
      assert.equal(fresh.fetches, 0);
    } finally {
      await fresh.close();
    }
  });

  test("a token signed with another issuer's key under a known kid", async () => {
    const impostor: TestKey = { ...(await createTestKey()), kid: idp.key.kid };
    assert.equal(await verify(await signToken(impostor, userClaims(idp.issuer))), null);
  });

  test('a tampered payload, header or signature', async () => {
    const forged = base64url(JSON.stringify(userClaims(idp.issuer, { sub: 'usr_mallory' })));
    assert.equal(await verify(replacePart(valid, 1, forged)), null);
    assert.equal(await verify(replacePart(valid, 0, base64url(JSON.stringify(header({ extra: 1 }))))), null);
    const signature = valid.split('.')[2] ?? '';
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    assert.equal(await verify(replacePart(valid, 2, flipped)), null);
  });

  test('odd base64url: padding, standard alphabet, whitespace, extra parts', async () => {
    const [h = '', p = '', s = ''] = valid.split('.');
    const standard = Buffer.from(s, 'base64url').toString('base64');
    assert.notEqual(standard, s);
    for (const odd of [
      `${h}.${p}.${s}=`,
      `${h}.${p}.${s}==`,
      `${h}.${p}.${standard}`,
      `${h}.${p}.${s.slice(0, 20)} ${s.slice(20)}`,
      `${h}.${p}.${s}\n`,
      `${h}=.${p}.${s}`,
      `${h}.${p}.${s}.`,
      `${h}.${p}.${s}.${s}`,
      `${h}..${p}.${s}`,
      ` ${valid}`,
    ]) {
      assert.equal(await verify(odd), null, JSON.stringify(odd.slice(-12)));
    }
  });

  test('a typ header missing or other than at+jwt (an ID token or a plain JWT)', async () => {
    const claims = userClaims(idp.issuer);
    assert.equal(await verify(signRaw(idp.key, { alg: 'RS256', kid: idp.key.kid }, claims)), null);
    for (const typ of ['JWT', 'dpop+jwt', '', null, ['at+jwt']]) {
      assert.equal(await verify(signRaw(idp.key, header({ typ }), claims)), null, JSON.stringify(typ));
    }
    assert.equal(
      (await verify(await signToken(idp.key, claims, { typ: 'application/at+jwt' })))?.kind,
      'user',
    );
  });

  test('a missing or empty kid', async () => {
    const claims = userClaims(idp.issuer);
    assert.equal(await verify(signRaw(idp.key, { alg: 'RS256', typ: 'at+jwt' }, claims)), null);
    assert.equal(await verify(signRaw(idp.key, header({ kid: '' }), claims)), null);
    assert.equal(await verify(signRaw(idp.key, header({ kid: 7 }), claims)), null);
  });

  test('a payload that is not a JSON object', async () => {
    for (const payload of ['[1,2]', 'null', '"user"', '{"typ":"user"', '']) {
      assert.equal(await verify(signRaw(idp.key, header(), payload)), null);
    }
  });

  test('garbage strings', async () => {
    for (const garbage of [
      '',
      '.',
      '..',
      '...',
      'Bearer x',
      'a.b.c',
      'null',
      '🙂.🙂.🙂',
      '\u0000',
      'eyJ.eyJ.eyJ',
    ]) {
      assert.equal(await verify(garbage), null);
    }
  });

  test('non-string input resolves to null and never throws', async () => {
    const loose = verify as (token: unknown) => Promise<unknown>;
    for (const input of [
      undefined,
      null,
      0,
      1n,
      true,
      {},
      [],
      Buffer.from(valid),
      Symbol('t'),
      () => valid,
    ]) {
      assert.equal(await loose(input), null);
    }
  });
});
