import { accessTokenHash, DPOP_ALGORITHMS, readDpopProof } from '../../crypto/dpop-proof.js';
import { sha256 } from '../../crypto/random.js';
import { unverifiedClaims } from '../../crypto/verify-jwt.js';
import { purgeProofJtis, recordProofJti } from '../../storage/repos/dpop-proof-jtis.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { issuerOf } from '../issuers.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import type { Client, Org } from '../types.js';
import type { TokensDeps } from './deps.js';

/**
 * DPoP (RFC 9449, DESIGN §20): the checks of §4.3 this service makes of a proof, at its token
 * endpoint and at its own APIs. The proof's signature and shape are crypto/dpop-proof.ts's; here,
 * the request it was made for (`htm`, `htu`), the time window, the access token it goes with
 * (`ath`), server nonces and replay.
 */

export { DPOP_ALGORITHMS };

/** `iat` may be this far from now, either way (DESIGN §20). */
export const PROOF_WINDOW_S = 60;

/** A nonce this service hands out names a window of this length; it is taken in that one and the next. */
const NONCE_WINDOW_MS = 5 * 60_000;

/** What a proof showed: the thumbprint of its key, or why it was refused (`nonce`: ask again with this one). */
export type ProofCheck = { ok: true; jkt: string } | { ok: false; why: string; nonce?: string };

/** The request a proof must be for. */
export interface ProofRequest {
  /** The `DPoP` header's value, as it came. */
  proof: string;
  /** `htm`: the request's method. */
  method: string;
  /** `htu`: the URL the request was sent to, as this service serves it; query and fragment are ignored. */
  url: string;
  /** At a protected resource, the access token the proof goes with (`ath`, RFC 9449 §7). */
  accessToken?: string;
  /** Whether the proof must carry a nonce this service handed out (§8). */
  nonceRequired?: boolean;
}

/** A URL without query and fragment, normalised as RFC 9449 §4.3 check 9 allows; null when it is none. */
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

/** The nonce the org's proofs should carry now (§8: handed out with `use_dpop_nonce`). */
export function currentNonce(deps: TokensDeps, org: Org): string {
  return deps.dpopNonces.nonce(issuerOf(deps.config, org), Math.floor(clock.now() / NONCE_WINDOW_MS));
}

function nonceIsCurrent(deps: TokensDeps, org: Org, nonce: string | undefined): boolean {
  if (nonce === undefined) return false;
  const window = deps.dpopNonces.windowOf(issuerOf(deps.config, org), nonce);
  const current = Math.floor(clock.now() / NONCE_WINDOW_MS);
  return window === current || window === current - 1;
}

/**
 * Checks a proof for `request` (RFC 9449 §4.3): its signature and shape, `htm` and `htu`, `iat`
 * within a minute of now, `ath` when an access token goes with it, a current nonce when one is
 * required, and — last, so a refused proof burns nothing — that its `jti` was never accepted
 * before from the same key (recorded in the database, so one proof is taken once on every node).
 */
export async function checkProof(deps: TokensDeps, org: Org, request: ProofRequest): Promise<ProofCheck> {
  const now = clock.now();
  const read = await readDpopProof(request.proof, now);
  if (!read.ok) return read;
  const { claims, jkt } = read;
  if (claims.htm !== request.method)
    return { ok: false, why: "the DPoP proof's htm is not this request's method" };
  const htu = targetOf(claims.htu);
  if (htu === null || htu !== targetOf(request.url))
    return { ok: false, why: "the DPoP proof's htu is not this request's URL" };
  if (Math.abs(claims.iat - now / 1000) > PROOF_WINDOW_S)
    return { ok: false, why: `the DPoP proof's iat is more than ${PROOF_WINDOW_S} seconds from now` };
  if (request.accessToken !== undefined && claims.ath !== accessTokenHash(request.accessToken))
    return { ok: false, why: "the DPoP proof's ath is not the hash of this access token" };
  if (request.nonceRequired === true && !nonceIsCurrent(deps, org, claims.nonce))
    return {
      ok: false,
      why: 'the DPoP proof must carry the nonce this server provides',
      nonce: currentNonce(deps, org),
    };
  // Kept until the proof could no longer be accepted for its iat, then purged.
  const expiresAt = (claims.iat + PROOF_WINDOW_S + 1) * 1000;
  await purgeAtMostEveryMinute(deps.store, 'dpop_proof_jtis', now, (db) => purgeProofJtis(db, now));
  const fresh = await recordProofJti(deps.store, sha256(`${jkt}\n${claims.jti}`), expiresAt);
  if (!fresh) return { ok: false, why: 'the DPoP proof was already used (its jti is single use)' };
  return { ok: true, jkt };
}

/**
 * The DPoP proof of a token request (RFC 9449 §5), after the client authenticated: the key's
 * thumbprint the tokens are to be bound to, or null when the request carries no proof (then plain
 * bearer tokens, unless the client registered `dpop_bound_access_tokens`). A bad proof is
 * `invalid_dpop_proof`; a missing nonce `use_dpop_nonce` with the `DPoP-Nonce` to use.
 */
export async function tokenRequestKey(
  deps: TokensDeps,
  org: Org,
  client: Client,
  proof: string | null,
  tokenEndpoint: string,
): Promise<string | null> {
  if (proof === null) {
    if (client.dpopBoundAccessTokens === true)
      fail('token.dpop.required', 'this client must send a DPoP proof with every token request');
    return null;
  }
  const check = await checkProof(deps, org, {
    proof,
    method: 'POST',
    url: tokenEndpoint,
    nonceRequired: client.dpopNonceRequired === true,
  });
  if (check.ok) return check.jkt;
  if (check.nonce !== undefined) return fail('token.dpop.nonce', check.why, { 'dpop-nonce': check.nonce });
  return fail('token.dpop.invalid', check.why);
}

/**
 * The thumbprint of the key an access token is bound to (`cnf.jkt`), or null for a bearer token.
 * Read without verifying: only for a token whose signature was just verified.
 */
export function boundKeyOf(verifiedToken: string): string | null {
  const cnf = unverifiedClaims(verifiedToken)?.cnf;
  if (typeof cnf !== 'object' || cnf === null) return null;
  const jkt = (cnf as Record<string, unknown>).jkt;
  return typeof jkt === 'string' ? jkt : null;
}
