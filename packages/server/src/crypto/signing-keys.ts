import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, importPKCS8, type JWK } from 'jose';
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
}

// The tail of the queue of generations: each waits for the one before it.
let generating: Promise<unknown> = Promise.resolve();

/**
 * A fresh RSA-2048 key; `kid` is its RFC 7638 thumbprint; the private half is sealed at once.
 * Generations run one at a time per process: each takes 50-200 ms of one thread of libuv's pool,
 * which also signs every token (see openPrivateKey), so a burst of generations leaves the other
 * threads to signing instead of filling the pool.
 */
export function generateSigningKey(sealer: Sealer): Promise<NewKey> {
  const key = generating.then(() => generateNow(sealer));
  generating = key.catch(() => {});
  return key;
}

async function generateNow(sealer: Sealer): Promise<NewKey> {
  const { publicKey, privateKey } = await keyPairs.generate();
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk, 'sha256');
  const publicJwk: JWK = { kty: 'RSA', n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' };
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  return { kid, publicJwk, sealedPrivateKey: sealer.seal(pem) };
}

/**
 * The private key as a non-extractable WebCrypto key: jose signs with it directly, and WebCrypto
 * runs the RSA operation off the event loop, on libuv's thread pool.
 */
export function openPrivateKey(sealer: Sealer, sealed: string): Promise<CryptoKey> {
  return importPKCS8(sealer.open(sealed), 'RS256');
}
