import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';

/**
 * The key an app proves possession of with DPoP (RFC 9449). In a browser it is a WebCrypto ES256 key
 * pair generated non-extractable and kept in IndexedDB, one per issuer and client, so it survives
 * reloads while no script — the app's own or an injected one — can ever read the private key out; in
 * Node (no IndexedDB) one generated per SDK, or the pair the app passes.
 */

/** The proof algorithms the SDK signs with, by the key's WebCrypto algorithm. */
export type DpopAlgorithm = 'ES256' | 'EdDSA' | 'RS256';

/** A key ready to sign proofs: its private half, the public JWK proofs carry, and its RFC 7638 thumbprint. */
export interface DpopKey {
  readonly alg: DpopAlgorithm;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
  readonly thumbprint: string;
}

const DATABASE = 'tessera-dpop';
const STORE = 'keys';

/** The proof algorithm of a private key, or null when it signs with none the SDK takes. */
function algorithmOf(key: CryptoKey): DpopAlgorithm | null {
  const algorithm = key.algorithm as { name: string; namedCurve?: string; hash?: { name: string } };
  if (algorithm.name === 'ECDSA' && algorithm.namedCurve === 'P-256') return 'ES256';
  if (algorithm.name === 'Ed25519') return 'EdDSA';
  if (algorithm.name === 'RSASSA-PKCS1-v1_5' && algorithm.hash?.name === 'SHA-256') return 'RS256';
  return null;
}

/**
 * The problem with a key pair given as DPoP key, or null when it is one: a `CryptoKeyPair` whose
 * private key signs with ECDSA P-256, Ed25519 or RSASSA-PKCS1-v1_5 SHA-256 and whose public key matches.
 */
export function keyPairProblem(value: unknown): string | null {
  const pair = value as Partial<CryptoKeyPair> | null;
  if (typeof pair !== 'object' || pair === null) return 'must be a CryptoKeyPair';
  const { privateKey, publicKey } = pair;
  if (!(privateKey instanceof CryptoKey) || !(publicKey instanceof CryptoKey))
    return 'must be a CryptoKeyPair';
  if (privateKey.type !== 'private' || publicKey.type !== 'public' || !privateKey.usages.includes('sign'))
    return 'must hold a private key that signs and its public key';
  const alg = algorithmOf(privateKey);
  if (alg === null || algorithmOf(publicKey) !== alg)
    return 'must be an ECDSA P-256, Ed25519 or RSASSA-PKCS1-v1_5 SHA-256 key pair';
  return null;
}

/** A new ES256 pair whose private key can never be exported (the public one always can). */
export function generateDpopKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ]) as Promise<CryptoKeyPair>;
}

/** The signing key of a pair: its algorithm, public JWK (exactly the RFC 7638 members) and thumbprint. */
export async function dpopKeyOf(pair: CryptoKeyPair): Promise<DpopKey> {
  const alg = algorithmOf(pair.privateKey);
  if (alg === null) throw new TypeError('the DPoP key pair signs with no algorithm the SDK takes');
  const exported = await exportJWK(pair.publicKey);
  const members =
    alg === 'RS256' ? ['kty', 'n', 'e'] : alg === 'ES256' ? ['kty', 'crv', 'x', 'y'] : ['kty', 'crv', 'x'];
  const jwk: JWK = Object.fromEntries(members.map((m) => [m, exported[m as keyof JWK]]));
  return Object.freeze({
    alg,
    privateKey: pair.privateKey,
    jwk: Object.freeze(jwk),
    thumbprint: await calculateJwkThumbprint(jwk),
  });
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function openDatabase(): Promise<IDBDatabase> {
  const open = indexedDB.open(DATABASE, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  return request(open);
}

/** A stored pair the SDK can use: one it generated, the private key still not extractable. */
function usable(value: unknown): value is CryptoKeyPair {
  if (keyPairProblem(value) !== null) return false;
  return (value as CryptoKeyPair).privateKey.extractable === false;
}

async function withStore<T>(
  mode: IDBTransactionMode,
  use: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const db = await openDatabase();
  try {
    return await request(use(db.transaction(STORE, mode).objectStore(STORE)));
  } finally {
    db.close();
  }
}

/**
 * The browser's pair for `id` (issuer and client): the stored one, else a new non-extractable pair
 * stored first. Two tabs starting at once both end with the one stored first (`add` never
 * overwrites). A stored entry that is not a non-extractable key pair (written by another script) is
 * replaced, so no key whose private half could be read out is ever used.
 */
export async function storedKeyPair(id: string): Promise<CryptoKeyPair> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const stored: unknown = await withStore('readonly', (s) => s.get(id));
    if (usable(stored)) return stored;
    if (stored !== undefined) await withStore('readwrite', (s) => s.delete(id));
    const pair = await generateDpopKeyPair();
    try {
      await withStore('readwrite', (s) =>
        s.add({ privateKey: pair.privateKey, publicKey: pair.publicKey }, id),
      );
      return pair;
    } catch (failure) {
      // Another tab stored one between the read and the add: read it again.
      if (!(failure instanceof DOMException && failure.name === 'ConstraintError')) throw failure;
    }
  }
  throw new Error('the DPoP key could not be stored in IndexedDB');
}

/** Removes the browser's stored pair for `id`; the next proof makes a new one. */
export async function forgetStoredKeyPair(id: string): Promise<void> {
  await withStore('readwrite', (s) => s.delete(id));
}

/** Whether this runtime has IndexedDB (browsers; not Node). */
export const hasIndexedDb = (): boolean => typeof indexedDB !== 'undefined';
