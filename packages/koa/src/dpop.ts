import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import type { RefusalCode } from './refusal.js';

/**
 * DPoP proofs at a resource server (RFC 9449 §4.3, §7): what `authenticate` checks of the `DPoP`
 * header that comes with an `Authorization: DPoP <token>` request, when its `dpop` option is set.
 */

/**
 * The proof algorithms taken, as Tessera's token endpoint takes them: ES256, RS256, EdDSA and its
 * fully-specified name Ed25519 (RFC 9864). Named in the `DPoP algs="…"` challenge.
 *
 * @example
 * ```ts
 * DPOP_ALGORITHMS.join(' '); // 'ES256 RS256 EdDSA Ed25519'
 * ```
 */
export const DPOP_ALGORITHMS = ['ES256', 'RS256', 'EdDSA', 'Ed25519'] as const;

/** A proof's `iat` may be this far from now, either way. */
export const PROOF_WINDOW_S = 60;

/** Longer proofs are refused before they are parsed (an RS256 proof with a 4096-bit key is ~1,400). */
const MAX_PROOF_LENGTH = 4096;
const MAX_RSA_BITS = 4096;
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * Where accepted proofs are remembered until they could no longer be accepted, so that each is taken
 * once. `authenticate` uses an in-memory one ({@link memoryReplayStore}) unless given another; an API
 * run on several processes gives them one they share (a database or Redis `SET NX PX`).
 *
 * @example
 * ```ts
 * const shared: DpopReplayStore = {
 *   async claim(key, expiresAt) {
 *     return (await redis.set(`dpop:${key}`, '1', { NX: true, PXAT: expiresAt })) === 'OK';
 *   },
 * };
 * ```
 */
export interface DpopReplayStore {
  /**
   * Records `key` (a proof's key thumbprint and `jti`) until `expiresAt` (ms since the epoch). True
   * when it was not recorded before, false for a replay. A throw or rejection refuses the request.
   */
  claim(key: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * Server nonces (RFC 9449 §9) at this API: `authenticate` answers a proof without a nonce `check`
 * accepts with 401 `use_dpop_nonce` and a `DPoP-Nonce: <current()>` header.
 *
 * @example
 * ```ts
 * const nonces: DpopNonces = { current: () => nonce, check: (n) => n === nonce };
 * ```
 */
export interface DpopNonces {
  current(): string;
  check(nonce: string): boolean;
}

/**
 * An in-memory {@link DpopReplayStore}: entries live until they expire, and at most `maxEntries` are
 * kept (default 100,000). When it is full of live entries, new proofs are refused rather than
 * remembered nowhere.
 *
 * @example
 * ```ts
 * authenticate({ verify, realm: 'api', dpop: 'allowed', dpopReplay: memoryReplayStore({ maxEntries: 10_000 }) });
 * ```
 */
export function memoryReplayStore(
  options: { maxEntries?: number; now?: () => number } = {},
): DpopReplayStore {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const seen = new Map<string, number>();
  const sweep = (at: number) => {
    for (const [key, expiresAt] of seen) if (expiresAt <= at) seen.delete(key);
  };
  return {
    claim(key, expiresAt) {
      const at = now();
      const known = seen.get(key);
      if (known !== undefined && known > at) return false;
      if (seen.size >= maxEntries) sweep(at);
      if (seen.size >= maxEntries) return false;
      seen.set(key, expiresAt);
      return true;
    },
  };
}

/** What a proof showed, or the refusal's code (never the proof's text). */
export type ProofCheck =
  | { ok: true; jkt: string; replayKey: string; expiresAt: number }
  | { ok: false; code: RefusalCode };

/** The length in bits of a base64url big-endian unsigned integer. */
function bitLength(encoded: string): number {
  const bytes = Buffer.from(encoded, 'base64url');
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i) * 8 - Math.clz32(bytes[i] as number) + 24;
}

/** A proof's public key, imported once: its RFC 7638 thumbprint and what verifies with it. */
interface ProofKey {
  readonly jkt: string;
  readonly key: KeyObject;
  /** The `alg` values this key verifies. */
  readonly algs: readonly string[];
}

/** Imported keys by their RFC 7638 thumbprint input: a client signs its proofs with one key. */
const KEY_CACHE_SIZE = 1000;
const keyCache = new Map<string, ProofKey | null>();

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The RFC 7638 members of a public JWK, in their order (the thumbprint's input), and the algorithms
 * it may sign with; null for a key of another type, a private or symmetric one, or an RSA key outside
 * 2048-4096 bits.
 */
function thumbprintInput(jwk: Record<string, unknown>): { input: string; algs: string[] } | null {
  if (PRIVATE_MEMBERS.some((member) => member in jwk)) return null;
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && isText(jwk.x) && isText(jwk.y))
    return { input: JSON.stringify({ crv: jwk.crv, kty: 'EC', x: jwk.x, y: jwk.y }), algs: ['ES256'] };
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && isText(jwk.x))
    return { input: JSON.stringify({ crv: jwk.crv, kty: 'OKP', x: jwk.x }), algs: ['EdDSA', 'Ed25519'] };
  if (jwk.kty === 'RSA' && isText(jwk.e) && isText(jwk.n)) {
    const bits = bitLength(jwk.n);
    // A public exponent is 65537 in practice; a huge one would make each check cost a private key's.
    if (bits < 2048 || bits > MAX_RSA_BITS || bitLength(jwk.e) > 32) return null;
    return { input: JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }), algs: ['RS256'] };
  }
  return null;
}

function proofKey(jwk: Record<string, unknown>): ProofKey | null {
  const member = thumbprintInput(jwk);
  if (member === null) return null;
  const cached = keyCache.get(member.input);
  if (cached !== undefined) return cached;
  let imported: ProofKey | null;
  try {
    imported = {
      jkt: createHash('sha256').update(member.input).digest('base64url'),
      key: createPublicKey({ key: JSON.parse(member.input) as Record<string, string>, format: 'jwk' }),
      algs: member.algs,
    };
  } catch {
    imported = null;
  }
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value as string);
  keyCache.set(member.input, imported);
  return imported;
}

function decodeObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The signature of `input` checks with the proof's key for its `alg` (JWS's raw r||s for ES256), on
 * libuv's thread pool like the token's own check (jws.ts): the event loop serves other requests
 * meanwhile. Resolves false on any error.
 */
function signatureHolds(alg: string, key: KeyObject, input: string, signature: Buffer): Promise<boolean> {
  if (alg === 'ES256' && signature.length !== 64) return Promise.resolve(false);
  const data = Buffer.from(input);
  const digest = alg === 'ES256' || alg === 'RS256' ? 'sha256' : null;
  const verifyKey = alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' as const } : key;
  return new Promise((resolve) => {
    cryptoVerify(digest, data, verifyKey, signature, (error, ok) => resolve(error === null && ok));
  });
}

/** A URL without query and fragment, normalised (RFC 9449 §4.3 check 9); null when it is not one. */
function targetOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
    parsed.search = '';
    parsed.hash = '';
    return parsed.href;
  } catch {
    return null;
  }
}

const accessTokenHash = (token: string): string =>
  createHash('sha256').update(token, 'ascii').digest('base64url');

/**
 * Checks a proof for a request (RFC 9449 §4.3): one `DPoP` header, a JWS typed `dpop+jwt` signed by
 * the public key in its own `jwk` (P-256, Ed25519, or RSA of 2048 to 4096 bits; imported once and
 * kept, with its thumbprint, for the next proofs of the same client) with one of {@link DPOP_ALGORITHMS}; `htm` the method, `htu` the
 * URL (query and fragment ignored), `iat` within a minute of now, `ath` the token's hash, a nonce
 * `nonces` accepts when configured. Replay is the caller's last step (`replayKey` until `expiresAt`).
 */
export async function checkProof(
  proof: string | string[] | undefined,
  request: { method: string; url: string; token: string; nowMs: number; nonces?: DpopNonces },
): Promise<ProofCheck> {
  const no = (code: RefusalCode): ProofCheck => ({ ok: false, code });
  if (proof === undefined) return no('dpop_proof_missing');
  // Node joins repeated headers with ", ", which no proof contains.
  if (typeof proof !== 'string' || proof.length > MAX_PROOF_LENGTH || /[\s,]/.test(proof))
    return no('dpop_proof_invalid');
  const parts = proof.split('.');
  if (parts.length !== 3) return no('dpop_proof_invalid');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const header = decodeObject(encodedHeader);
  if (header === null || header.typ !== 'dpop+jwt' || 'crit' in header) return no('dpop_proof_invalid');
  const alg = header.alg;
  const jwk = header.jwk;
  if (typeof alg !== 'string' || !(DPOP_ALGORITHMS as readonly string[]).includes(alg))
    return no('dpop_proof_invalid');
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) return no('dpop_proof_invalid');
  const key = proofKey(jwk as Record<string, unknown>);
  if (key === null || !key.algs.includes(alg)) return no('dpop_proof_invalid');
  const signature = Buffer.from(encodedSignature, 'base64url');
  if (!signatureHolds(alg, key.key, `${encodedHeader}.${encodedPayload}`, signature))
    return no('dpop_proof_invalid');
  // The payload is parsed only once its signature holds.
  const payload = decodeObject(encodedPayload);
  if (payload === null) return no('dpop_proof_invalid');
  const { jti, htm, htu, iat, ath, nonce } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256) return no('dpop_proof_invalid');
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return no('dpop_proof_invalid');
  if (htm !== request.method) return no('dpop_proof_mismatch');
  const target = typeof htu === 'string' ? targetOf(htu) : null;
  if (target === null || target !== targetOf(request.url)) return no('dpop_proof_mismatch');
  if (Math.abs(iat - request.nowMs / 1000) > PROOF_WINDOW_S) return no('dpop_proof_stale');
  if (ath !== accessTokenHash(request.token)) return no('dpop_proof_mismatch');
  if (request.nonces !== undefined && (typeof nonce !== 'string' || !request.nonces.check(nonce)))
    return no('dpop_nonce_required');
  const { jkt } = key;
  return { ok: true, jkt, replayKey: `${jkt}.${jti}`, expiresAt: (iat + PROOF_WINDOW_S + 1) * 1000 };
}
