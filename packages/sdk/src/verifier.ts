import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { checkIssuer, checkJwksUri, record, text } from './checks.js';
import { SdkError, safeCause } from './errors.js';

/**
 * Options of {@link makeVerifier}.
 *
 * @example
 * ```ts
 * const options: VerifierOptions = {
 *   issuer: 'https://acme.auth.example.com/',
 *   clientId: 'cli_web',
 *   jwksUri: 'https://acme.auth.example.com/.well-known/jwks.json',
 * };
 * ```
 */
export interface VerifierOptions {
  /** The exact `iss` tokens must carry, trailing slash included. */
  readonly issuer: string;
  /** The client id `aud` must include. */
  readonly clientId: string;
  /** Where the signing keys are fetched from — configured, never taken from the token. */
  readonly jwksUri: string | URL;
}

/**
 * The claims of a Tessera access token (spec, "Access token claims"). Which ones are present depends
 * on the token's `typ` claim; the verifier does not check that claim, so read it before trusting `tnt` or
 * `sid`.
 *
 * @example
 * ```ts
 * const tenantId = claims.typ === 'user' ? claims.tnt : undefined;
 * ```
 */
export interface AccessTokenClaims extends JWTPayload {
  /** `user`, `client` or `console`. */
  typ?: string;
  /** The tenant a user session acts in, `tnt_…`. */
  tnt?: string;
  /** The sign-in session. */
  sid?: string;
  amr?: string[];
  acr?: string;
  /** Only on an impersonated session: the acting admin. */
  act?: { sub: string };
  /** Only on a promoted token: the public client it came from. */
  azp?: string;
}

/**
 * Verifies one access token: resolves to its claims, or rejects with an {@link SdkError}.
 *
 * @example
 * ```ts
 * const verify: Verify = makeVerifier(options);
 * ```
 */
export type Verify = (token: string) => Promise<AccessTokenClaims>;

/** The only signature algorithm Tessera issues; anything else (`none`, `HS256`, …) is refused. */
const ALGORITHMS = ['RS256'];
/**
 * The header `typ` of an access token (RFC 9068 §4); jose also takes `application/at+jwt`, in any case. Requiring it
 * keeps an ID token of the same issuer and `aud`, whose header says `JWT`, from passing as an access token.
 */
const ACCESS_TOKEN_TYP = 'at+jwt';
/** Longer tokens are refused unread, as `@tessera/koa` does: Tessera tokens are well under 2 KiB. */
const MAX_TOKEN_LENGTH = 8192;
const CLAIM_NAMES = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'sub', 'jti']);

function refused(
  code: 'invalid_token' | 'token_expired' | 'jwks_unavailable',
  detail: string,
  failure?: unknown,
) {
  const options = failure === undefined ? undefined : { cause: safeCause(failure) };
  return new SdkError(`access token refused: ${detail}`, { status: 0, code, detail }, options);
}

/** jose's reasons, restated in fixed words: jose errors carry the token's claims, which must not travel on. */
function refusal(failure: unknown): SdkError {
  if (failure instanceof SdkError) return failure; // already worded: the `kid` check of keyFor
  if (failure instanceof errors.JWTExpired) return refused('token_expired', '"exp" is in the past', failure);
  if (failure instanceof errors.JWTClaimValidationFailed) {
    // jose reports the header `typ` check under the claim name `typ`; the `typ` claim is never checked.
    if (failure.claim === 'typ') return refused('invalid_token', 'the header "typ" is not at+jwt', failure);
    const claim = CLAIM_NAMES.has(failure.claim) ? `"${failure.claim}"` : 'a claim';
    const why = failure.reason === 'missing' ? 'is missing' : 'does not match';
    return refused('invalid_token', `${claim} ${why}`, failure);
  }
  if (failure instanceof errors.JOSEAlgNotAllowed) {
    return refused('invalid_token', 'the token is not signed with RS256', failure);
  }
  if (failure instanceof errors.JWSSignatureVerificationFailed) {
    return refused('invalid_token', 'the signature does not verify', failure);
  }
  if (failure instanceof errors.JWKSNoMatchingKey || failure instanceof errors.JWKSMultipleMatchingKeys) {
    return refused('invalid_token', 'no single key of the key set matches the token', failure);
  }
  if (failure instanceof errors.JWKSTimeout) {
    return refused('jwks_unavailable', 'the key set did not arrive in time', failure);
  }
  if (failure instanceof errors.JWKSInvalid)
    return refused('jwks_unavailable', 'the key set is malformed', failure);
  if (
    failure instanceof errors.JWSInvalid ||
    failure instanceof errors.JWTInvalid ||
    failure instanceof errors.JOSENotSupported ||
    failure instanceof errors.JWKInvalid
  ) {
    return refused('invalid_token', 'the token is malformed', failure);
  }
  // What is left is the key-set fetch: a non-200 answer, a body that is not JSON, or no connection.
  return refused('jwks_unavailable', 'the key set could not be fetched', failure);
}

/**
 * Creates a verifier of Tessera access tokens: at most 8192 characters; header `typ` `at+jwt` and a
 * `kid`; RS256 signature with the key from `jwksUri` chosen by that `kid`; `iss` equal to `issuer`; `aud`
 * including `clientId`; and `exp` a finite number in the future. It resolves to the payload and rejects
 * with an {@link SdkError} (status 0; code `invalid_token`, `token_expired` or `jwks_unavailable`) on
 * any failure. It does not check the `typ` claim (`user`, `client`, `console`). Keys are cached and
 * refetched once, with a cooldown, when a token names an unknown `kid` (key rotation).
 *
 * @example
 * ```ts
 * import { makeVerifier } from '@tessera/sdk';
 *
 * const verify = makeVerifier({
 *   issuer: 'https://acme.auth.example.com/',
 *   clientId: 'cli_web',
 *   jwksUri: 'https://acme.auth.example.com/.well-known/jwks.json',
 * });
 * const claims = await verify(accessToken);
 * console.log(claims.sub, claims.tnt);
 * ```
 */
export function makeVerifier(options: VerifierOptions): Verify {
  const input = record('makeVerifier', 'options', options);
  const issuer = checkIssuer('makeVerifier', input.issuer);
  const audience = text('makeVerifier', 'clientId', input.clientId);
  const keySet = createRemoteJWKSet(checkJwksUri('makeVerifier', input.jwksUri));
  // jose's key set falls back to its only matching key when the header names none; Tessera names one.
  const keyFor: JWTVerifyGetKey = (header, token) => {
    if (typeof header.kid !== 'string' || header.kid === '') {
      throw refused('invalid_token', 'the header has no "kid"');
    }
    return keySet(header, token);
  };
  return async (token) => {
    if (typeof token !== 'string' || token === '') {
      throw refused('invalid_token', 'the token is not a non-empty string');
    }
    if (token.length > MAX_TOKEN_LENGTH) {
      throw refused('invalid_token', `the token is longer than ${MAX_TOKEN_LENGTH} characters`);
    }
    let payload: AccessTokenClaims;
    try {
      ({ payload } = await jwtVerify<AccessTokenClaims>(token, keyFor, {
        algorithms: ALGORITHMS,
        typ: ACCESS_TOKEN_TYP,
        issuer,
        audience,
        // jose checks `exp` only when present; the spec requires it.
        requiredClaims: ['exp'],
      }));
    } catch (failure) {
      throw refusal(failure);
    }
    // jose takes any number, and `"exp":1e400` parses to Infinity: a token that would never expire.
    if (!Number.isFinite(payload.exp)) throw refused('invalid_token', '"exp" is not a finite number');
    return payload;
  };
}
