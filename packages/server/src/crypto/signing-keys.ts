import { createPrivateKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
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

export function openPrivateKey(sealer: Sealer, sealed: string): KeyObject {
  return createPrivateKey(sealer.open(sealed));
}
