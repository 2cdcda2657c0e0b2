import {
  createHash,
  createHmac,
  createPublicKey,
  verify as cryptoVerify,
  hkdfSync,
  type KeyObject,
} from 'node:crypto';

/**
 * DPoP proofs (RFC 9449 §4): what a proof's signature and shape say, before any rule of this
 * service (the method, the URL, the time window, replay) is applied to its claims.
 */

/**
 * The proof algorithms taken: asymmetric only (RFC 9449 §4.3 check 5), the ones DESIGN §20 names,
 * and `Ed25519`, RFC 9864's fully-specified name for EdDSA with an Ed25519 key, which is what
 * oauth4webapi and openid-client sign Ed25519 proofs with.
 */
export const DPOP_ALGORITHMS = ['ES256', 'RS256', 'EdDSA', 'Ed25519'] as const;

/**
 * A proof is at most this long. An ES256 or EdDSA proof is about 600 characters, an RS256 one with
 * a 4096-bit key about 1,400; anything longer is refused before it is parsed.
 */
export const MAX_PROOF_LENGTH = 4096;

/** The members of a private or symmetric JWK: a proof's `jwk` carrying one is refused (check 7). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/** RSA keys above this many bits are refused: verifying them costs time for nothing. */
const MAX_RSA_BITS = 4096;

/** The claims of a proof whose signature held, as their types were checked. */
export interface ProofClaims {
  jti: string;
  htm: string;
  htu: string;
  iat: number;
  ath?: string;
  nonce?: string;
}

export type ProofOutcome = { ok: true; jkt: string; claims: ProofClaims } | { ok: false; why: string };

const no = (why: string): ProofOutcome => ({ ok: false, why });

/** The length in bits of a base64url big-endian unsigned integer. */
function bitLength(encoded: string): number {
  const bytes = Buffer.from(encoded, 'base64url');
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i) * 8 - Math.clz32(bytes[i] as number) + 24;
}

/** A proof's public key, imported once: its RFC 7638 thumbprint and the algorithms it verifies. */
interface ProofKey {
  readonly jkt: string;
  readonly key: KeyObject;
  readonly algs: readonly string[];
}

/** Imported keys by their thumbprint input: a client signs all its proofs with one key. */
const KEY_CACHE_SIZE = 1000;
const keyCache = new Map<string, ProofKey | null>();

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The RFC 7638 members of a public JWK in their order (the thumbprint's input) and the algorithms it
 * signs with, or why it is refused: a private or symmetric key (check 7), another curve or type, an
 * RSA key outside 2048-4096 bits.
 */
function thumbprintInput(jwk: Record<string, unknown>): { input: string; algs: string[] } | string {
  if (PRIVATE_MEMBERS.some((member) => member in jwk)) return "the DPoP proof's jwk is not a public key";
  if (jwk.kty === 'EC' && jwk.crv === 'P-256' && isText(jwk.x) && isText(jwk.y))
    return { input: JSON.stringify({ crv: 'P-256', kty: 'EC', x: jwk.x, y: jwk.y }), algs: ['ES256'] };
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && isText(jwk.x))
    return { input: JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x: jwk.x }), algs: ['EdDSA', 'Ed25519'] };
  if (jwk.kty === 'RSA' && isText(jwk.e) && isText(jwk.n)) {
    const bits = bitLength(jwk.n);
    if (bits < 2048 || bits > MAX_RSA_BITS)
      return `the DPoP proof's RSA key is not of 2048 to ${MAX_RSA_BITS} bits`;
    // A public exponent is 65537 in practice; a huge one would make each check cost a private key's.
    if (bitLength(jwk.e) > 32) return "the DPoP proof's RSA exponent is larger than 32 bits";
    return { input: JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }), algs: ['RS256'] };
  }
  return "the DPoP proof's jwk is not a P-256, Ed25519 or RSA public key";
}

function proofKey(jwk: Record<string, unknown>): ProofKey | string {
  const member = thumbprintInput(jwk);
  if (typeof member === 'string') return member;
  const cached = keyCache.get(member.input);
  if (cached !== undefined) return cached ?? "the DPoP proof's jwk is not a usable key";
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
  return imported ?? "the DPoP proof's jwk is not a usable key";
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
 * The signature of `input` checks with the key for `alg` (JWS's raw r||s for ES256), on libuv's
 * thread pool so the event loop serves other requests meanwhile. False on any error.
 */
function signatureHolds(alg: string, key: KeyObject, input: string, signature: Buffer): Promise<boolean> {
  if (alg === 'ES256' && signature.length !== 64) return Promise.resolve(false);
  const digest = alg === 'ES256' || alg === 'RS256' ? 'sha256' : null;
  const verifyKey = alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' as const } : key;
  return new Promise((resolve) => {
    cryptoVerify(digest, Buffer.from(input), verifyKey, signature, (error, ok) =>
      resolve(error === null && ok),
    );
  });
}

/** Why the claims are refused, or null when each has the type RFC 9449 §4.2 gives it. */
function claimsProblem(payload: Record<string, unknown>, now: number): string | null {
  const { jti, htm, htu, iat, ath, nonce, exp, nbf } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256)
    return 'the DPoP proof has no jti, or one longer than 256 characters';
  if (typeof htm !== 'string' || htm.length === 0) return 'the DPoP proof has no htm claim';
  if (typeof htu !== 'string' || htu.length === 0) return 'the DPoP proof has no htu claim';
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return 'the DPoP proof has no iat claim';
  if (ath !== undefined && typeof ath !== 'string') return "the DPoP proof's ath claim is not a string";
  if (nonce !== undefined && typeof nonce !== 'string') return "the DPoP proof's nonce claim is not a string";
  // Not DPoP's, but a proof that says it has expired, or is not valid yet, is not taken.
  if (exp !== undefined && !(typeof exp === 'number' && exp * 1000 > now))
    return 'the DPoP proof has expired';
  if (nbf !== undefined && !(typeof nbf === 'number' && nbf * 1000 <= now))
    return 'the DPoP proof is not valid yet';
  return null;
}

/**
 * Reads a DPoP proof: a compact JWS typed `dpop+jwt`, signed (ES256, RS256, EdDSA or Ed25519) by the
 * public key in its own `jwk` header — P-256, Ed25519 or RSA of 2048 to 4096 bits, never a private
 * or symmetric key; imported once and kept, with its thumbprint, for the client's next proofs — with
 * `jti`, `htm`, `htu` and `iat` of the right types. Answers the key's RFC 7638 thumbprint (`jkt`) and
 * the claims, or why it was refused (never the proof's text). `now` judges an `exp` or `nbf` it carries.
 */
export async function readDpopProof(proof: string, now: number): Promise<ProofOutcome> {
  if (proof.length > MAX_PROOF_LENGTH) return no('the DPoP proof is too long');
  // Node joins repeated headers with ", ": a proof has neither (RFC 9449 §4.3 check 1).
  if (/[\s,]/.test(proof))
    return no('the request carries more than one DPoP header, or one that is not a JWT');
  const parts = proof.split('.');
  if (parts.length !== 3) return no('the DPoP proof is not a JWT');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const header = decodeObject(encodedHeader);
  if (header === null) return no('the DPoP proof is not a JWT');
  if (header.typ !== 'dpop+jwt') return no('the DPoP proof is not typed dpop+jwt');
  if (typeof header.alg !== 'string' || !(DPOP_ALGORITHMS as readonly string[]).includes(header.alg))
    return no(`the DPoP proof's alg is not one of ${DPOP_ALGORITHMS.join(', ')}`);
  if ('crit' in header) return no("the DPoP proof's header has crit, which is not understood here");
  const jwk = header.jwk;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    return no('the DPoP proof has no jwk header parameter');
  const key = proofKey(jwk as Record<string, unknown>);
  if (typeof key === 'string') return no(key);
  if (!key.algs.includes(header.alg)) return no(`the DPoP proof's jwk is not a key for ${header.alg}`);
  const signature = Buffer.from(encodedSignature, 'base64url');
  if (!(await signatureHolds(header.alg, key.key, `${encodedHeader}.${encodedPayload}`, signature)))
    return no('the DPoP proof does not verify with the key in its jwk header');
  // The payload is read only once its signature holds.
  const payload = decodeObject(encodedPayload);
  if (payload === null) return no('the DPoP proof is not a JWT');
  const claimsIssue = claimsProblem(payload, now);
  if (claimsIssue !== null) return no(claimsIssue);
  return { ok: true, jkt: key.jkt, claims: payload as unknown as ProofClaims };
}

/** RFC 9449 §4.2 `ath`: the base64url SHA-256 of the access token's ASCII. */
export const accessTokenHash = (token: string): string =>
  createHash('sha256').update(token, 'ascii').digest('base64url');

/**
 * Server nonces (RFC 9449 §8) without storage, so every node takes every other's: a nonce names a
 * time window and carries an HMAC of it (and of the issuer it was handed out for) under a key
 * derived from TESSERA_SECRET.
 */
export class NonceMinter {
  readonly #key: Buffer;

  constructor(masterSecret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', masterSecret, 'tessera', 'tessera dpop nonce v1', 32));
  }

  /** The nonce of `window` for `scope` (an issuer). */
  nonce(scope: string, window: number): string {
    const mac = createHmac('sha256', this.#key).update(`${scope}\n${window}`).digest('base64url');
    return `${window.toString(36)}.${mac.slice(0, 22)}`;
  }

  /** The window a nonce names when it is one this minter made for `scope`, else null. */
  windowOf(scope: string, nonce: string): number | null {
    const dot = nonce.indexOf('.');
    if (dot <= 0 || nonce.length > 64) return null;
    const window = Number.parseInt(nonce.slice(0, dot), 36);
    if (!Number.isSafeInteger(window) || window < 0) return null;
    const expected = this.nonce(scope, window);
    // Both are this minter's format and length; compare them without an early exit.
    if (expected.length !== nonce.length) return null;
    let diff = 0;
    for (let i = 0; i < nonce.length; i++) diff |= expected.charCodeAt(i) ^ nonce.charCodeAt(i);
    return diff === 0 ? window : null;
  }
}
