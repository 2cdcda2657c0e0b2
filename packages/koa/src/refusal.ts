/**
 * Why a request was refused, for the application's eyes only (`authenticate`'s `onRefused`): the
 * response never says it (the spec's 401 is the same for every failure). Neither field ever holds the
 * token or a claim's value.
 *
 * @example
 * ```ts
 * const reason: Refusal = { code: 'expired', detail: 'the token expired (exp is in the past)' };
 * ```
 */
export interface Refusal {
  readonly code: RefusalCode;
  /** One sentence an operator can act on. */
  readonly detail: string;
}

/**
 * The reasons a token, or a request, is refused.
 *
 * @example
 * ```ts
 * const code: RefusalCode = 'token_type_not_accepted';
 * ```
 */
export type RefusalCode =
  | 'no_token'
  | 'malformed_token'
  | 'unknown_key'
  | 'bad_signature'
  | 'wrong_issuer'
  | 'expired'
  | 'not_yet_valid'
  | 'malformed_claims'
  | 'token_type_not_accepted'
  | 'untrusted_client'
  | 'wrong_audience'
  | 'verify_refused'
  | 'dpop_required'
  | 'dpop_bound_token_as_bearer'
  | 'dpop_token_not_bound'
  | 'dpop_proof_missing'
  | 'dpop_proof_invalid'
  | 'dpop_proof_mismatch'
  | 'dpop_proof_stale'
  | 'dpop_nonce_required'
  | 'dpop_key_mismatch'
  | 'dpop_replayed';

const DETAILS: Record<RefusalCode, string> = {
  no_token: 'no Authorization: Bearer header (or another scheme, or an empty token)',
  malformed_token:
    'not a compact JWS this verifier reads (size, encoding, header: alg RS256, typ at+jwt, a kid)',
  unknown_key:
    "its kid is not in the issuer's key set, or the key set could not be fetched (see the issuer's jwks.json)",
  bad_signature: 'the signature does not verify with the key its kid names',
  wrong_issuer: 'its iss is not the verifier\'s "issuer" (compared exactly, trailing slash included)',
  expired: 'it has expired (exp is not after now)',
  not_yet_valid: 'it is not valid yet (nbf is after now)',
  malformed_claims:
    'a claim has the wrong form (sub, aud, tnt, iat, jti, azp or act), or the token is sender-constrained (cnf) and this API takes no DPoP',
  token_type_not_accepted:
    'its type is not accepted: a machine token (typ client) needs accept: [..., "client"] (the default is ["user"]), a user token accept: ["user", ...]',
  untrusted_client: 'a machine token of a client that is not in "trustedClients"',
  wrong_audience:
    'its aud does not name this API: a user token needs "clientId" (and "resource", when set) in aud; a machine token its own client id (and "resource")',
  verify_refused: 'the verify function returned null, or threw, without saying why',
  dpop_required:
    'dpop is "required": a token sent as Bearer is refused; send Authorization: DPoP with a proof',
  dpop_bound_token_as_bearer:
    'the token is DPoP-bound (cnf.jkt) and came as Bearer: send it as DPoP with a proof',
  dpop_token_not_bound: 'the token came as DPoP but is not bound to a key (no cnf.jkt): send it as Bearer',
  dpop_proof_missing: 'Authorization: DPoP came without a DPoP proof header',
  dpop_proof_invalid:
    'the DPoP proof is not one (two headers, size, typ dpop+jwt, alg, a public jwk, its signature, jti, iat)',
  dpop_proof_mismatch: "the DPoP proof's htm, htu or ath is not this request's method, URL or access token",
  dpop_proof_stale: "the DPoP proof's iat is more than 60 seconds from now",
  dpop_nonce_required: 'the DPoP proof carries no nonce, or not one this API hands out (use_dpop_nonce)',
  dpop_key_mismatch: "the DPoP proof's key is not the one the token is bound to (cnf.jkt)",
  dpop_replayed: 'the DPoP proof was used before (its jti), or the replay store refused it',
};

/** The refusal of `code`, with its one sentence. */
export const refusal = (code: RefusalCode): Refusal => Object.freeze({ code, detail: DETAILS[code] });

/** Told why a verification failed; optional, so a verifier works the same without one. */
export type RefusalReport = (reason: Refusal) => void;
