import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, importPKCS8, type JWK } from 'jose';
import type { JwsAlgorithm } from './jwt.js';
import type { Sealer } from './sealing.js';

const generate = promisify(generateKeyPair);

/**
 * Where new RSA-2048 key pairs come from: node's generator. The test suites set a source of real
 * keys generated ahead of time (test/support/key-pairs.ts: a test creates hundreds of orgs, and each
 * generation costs ~170 ms of CPU); nothing else sets it.
 */
export const keyPairs = {
  generate: (): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> =>
    generate('rsa', { modulusLength: 2048 }),
};

export interface NewKey {
  kid: string;
  publicJwk: JWK;
  sealedPrivateKey: string;
  alg: JwsAlgorithm;
}

/** A P-256 pair for ES256: fast to make, so never made ahead. */
const ecKeyPair = (): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> =>
  generate('ec', { namedCurve: 'P-256' });

// The tail of the queue of generations: each waits for the one before it.
let generating: Promise<unknown> = Promise.resolve();

/**
 * A fresh key for `alg` — RSA-2048 for RS256 and PS256, P-256 for ES256 —; `kid` is its RFC 7638
 * thumbprint, the public JWK names `alg`; the private half is sealed at once.
 * Generations run one at a time per process: each takes 50-200 ms of one thread of libuv's pool,
 * which also signs every token (see openPrivateKey), so a burst of generations leaves the other
 * threads to signing instead of filling the pool.
 */
export function generateSigningKey(sealer: Sealer, alg: JwsAlgorithm = 'RS256'): Promise<NewKey> {
  const key = generating.then(() => generateNow(sealer, alg));
  generating = key.catch(() => {});
  return key;
}

async function generateNow(sealer: Sealer, alg: JwsAlgorithm): Promise<NewKey> {
  const { publicKey, privateKey } = alg === 'ES256' ? await ecKeyPair() : await keyPairs.generate();
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  const members: JWK =
    alg === 'ES256' ? { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y } : { kty: 'RSA', n: jwk.n, e: jwk.e };
  const publicJwk: JWK = { ...members, kid, alg, use: 'sig' };
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { kid, publicJwk, sealedPrivateKey: sealer.seal(pem), alg };
}

/**
 * The private key as a non-extractable WebCrypto key for `alg`: jose signs with it directly, and
 * WebCrypto runs the operation off the event loop, on libuv's thread pool.
 */
export function openPrivateKey(
  sealer: Sealer,
  sealed: string,
  alg: JwsAlgorithm = 'RS256',
): Promise<CryptoKey> {
  return importPKCS8(sealer.open(sealed), alg);
}
