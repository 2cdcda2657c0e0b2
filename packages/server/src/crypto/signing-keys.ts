import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, importPKCS8, type JWK } from 'jose';
import type { Sealer } from './sealing.js';

const generate = promisify(generateKeyPair);

export interface NewKey {
  kid: string;
  publicJwk: JWK;
  sealedPrivateKey: string;
}

/** A fresh RSA-2048 key; `kid` is its RFC 7638 thumbprint; the private half is sealed at once. */
export async function generateSigningKey(sealer: Sealer): Promise<NewKey> {
  const { publicKey, privateKey } = await generate('rsa', { modulusLength: 2048 });
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
