import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, type JWK, jwtVerify } from 'jose';

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

/** Why a proof's header is refused, or null when it is one this service verifies. */
function headerProblem(header: Record<string, unknown>): string | null {
  if (header.typ !== 'dpop+jwt') return 'the DPoP proof is not typed dpop+jwt';
  if (!(DPOP_ALGORITHMS as readonly unknown[]).includes(header.alg))
    return `the DPoP proof's alg is not one of ${DPOP_ALGORITHMS.join(', ')}`;
  const jwk = header.jwk;
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    return 'the DPoP proof has no jwk header parameter';
  const key = jwk as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((m) => m in key)) return "the DPoP proof's jwk is not a public key";
  if (key.kty === 'RSA' && (typeof key.n !== 'string' || bitLength(key.n) > MAX_RSA_BITS))
    return `the DPoP proof's RSA key is larger than ${MAX_RSA_BITS} bits`;
  return null;
}

/** Why the claims are refused, or null when each has the type RFC 9449 §4.2 gives it. */
function claimsProblem(payload: Record<string, unknown>): string | null {
  const { jti, htm, htu, iat, ath, nonce } = payload;
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 256)
    return 'the DPoP proof has no jti, or one longer than 256 characters';
  if (typeof htm !== 'string' || htm.length === 0) return 'the DPoP proof has no htm claim';
  if (typeof htu !== 'string' || htu.length === 0) return 'the DPoP proof has no htu claim';
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return 'the DPoP proof has no iat claim';
  if (ath !== undefined && typeof ath !== 'string') return "the DPoP proof's ath claim is not a string";
  if (nonce !== undefined && typeof nonce !== 'string') return "the DPoP proof's nonce claim is not a string";
  return null;
}

/**
 * Reads a DPoP proof: a compact JWS typed `dpop+jwt`, signed (ES256, RS256 or EdDSA) by the public
 * key in its own `jwk` header, with `jti`, `htm`, `htu` and `iat` of the right types. Answers the
 * key's RFC 7638 thumbprint (`jkt`) and the claims, or why it was refused (never the proof's text).
 * `now` judges an `exp` or `nbf` the proof may carry.
 */
export async function readDpopProof(proof: string, now: number): Promise<ProofOutcome> {
  if (proof.length > MAX_PROOF_LENGTH) return no('the DPoP proof is too long');
  // Node joins repeated headers with ", ": a proof has neither (RFC 9449 §4.3 check 1).
  if (/[\s,]/.test(proof))
    return no('the request carries more than one DPoP header, or one that is not a JWT');
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(proof) as Record<string, unknown>;
  } catch {
    return no('the DPoP proof is not a JWT');
  }
  const problem = headerProblem(header);
  if (problem !== null) return no(problem);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...DPOP_ALGORITHMS],
      currentDate: new Date(now),
    }));
  } catch {
    return no('the DPoP proof does not verify with the key in its jwk header');
  }
  const claimsIssue = claimsProblem(payload);
  if (claimsIssue !== null) return no(claimsIssue);
  const jkt = await calculateJwkThumbprint(header.jwk as JWK, 'sha256');
  return { ok: true, jkt, claims: payload as unknown as ProofClaims };
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
