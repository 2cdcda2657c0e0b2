import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors,
  type JWK,
  type JWTClaimVerificationOptions,
  type JWTPayload,
  jwtVerify,
  UnsecuredJWT,
} from 'jose';

/** The JOSE shapes the domain names (key sets, claims, keys), so it never imports jose itself. */
export type { CryptoKey, JWK, JWTPayload } from 'jose';

export interface JwtExpectations {
  issuer: string;
  /** The header's `typ`, exactly (`at+jwt`, `JWT`); absent: any. */
  typ?: string;
  /** `sub`, exactly; absent: any. */
  subject?: string;
  /** One of these must be in `aud`; absent: any. */
  audience?: string[];
  /** The signature algorithms taken; default RS256 only. */
  algorithms?: string[];
  requiredClaims: string[];
  /** The time `exp`, `nbf` and `iat` are judged at, in ms since the epoch (the caller's clock). */
  now: number;
  /** Leeway on those times, in seconds. */
  toleranceSeconds?: number;
}

/**
 * What a verification found: the claims, or why there are none. `expired`: all but the time held.
 * `claim`: the signature held and this claim (a name from the expectations, never the token's
 * text) did not — `missing` when absent — so only the key's holder ever learns it.
 */
export type JwtOutcome =
  | { ok: true; payload: JWTPayload }
  | { ok: false; expired: boolean; claim?: string; missing?: boolean };

/**
 * The claims of `token` when it is an RS256 JWT signed by a key of `jwks` (its own keys are never
 * trusted) and meets `expected`; null when any check fails, whatever the reason. A `jwks` that is
 * not a key set is the caller's fault and throws.
 */
export async function verifyJwt(
  token: string,
  jwks: { keys: JWK[] },
  expected: JwtExpectations,
): Promise<JWTPayload | null> {
  const outcome = await checkJwt(token, jwks, expected);
  return outcome.ok ? outcome.payload : null;
}

const KEY_SETS = 256;
const keySets = new Map<string, ReturnType<typeof createLocalJWKSet>>();

/**
 * The key set as jose selects from it, kept by its content (the 256 most recently used): jose
 * imports each JWK on first use and keeps the imported key with the set, so a set seen again
 * (an org's published keys, read on every management request) is not parsed and imported again.
 */
function keySet(jwks: { keys: JWK[] }): ReturnType<typeof createLocalJWKSet> {
  const id = JSON.stringify(jwks.keys);
  let set = keySets.get(id);
  if (set) keySets.delete(id);
  else {
    set = createLocalJWKSet(jwks);
    if (keySets.size >= KEY_SETS) keySets.delete(keySets.keys().next().value as string);
  }
  keySets.set(id, set);
  return set;
}

/**
 * Imports the RS256 keys of `jwks` into the kept key set now, so the first token verified against
 * them does not pay for it (nor for loading Node's WebCrypto, on a process's first import). Only
 * a head start: a key jose would not take is left for the verification to refuse.
 */
export async function preloadKeys(jwks: { keys: JWK[] }): Promise<void> {
  const set = keySet(jwks);
  for (const { kid } of jwks.keys) {
    const header = { alg: 'RS256', ...(kid === undefined ? {} : { kid }) };
    await set(header, { payload: '', signature: '' }).catch(() => undefined);
  }
}

/** What jose checks of the claims, signed or not: issuer, subject, audience, the required ones and the time. */
const claimChecks = (expected: JwtExpectations): JWTClaimVerificationOptions => ({
  issuer: expected.issuer,
  ...(expected.subject === undefined ? {} : { subject: expected.subject }),
  ...(expected.audience === undefined ? {} : { audience: expected.audience }),
  requiredClaims: expected.requiredClaims,
  currentDate: new Date(expected.now),
  ...(expected.toleranceSeconds === undefined ? {} : { clockTolerance: expected.toleranceSeconds }),
});

/** verifyJwt, telling an expired token (signature and claims good, `exp` past the leeway) apart. */
export async function checkJwt(
  token: string,
  jwks: { keys: JWK[] },
  expected: JwtExpectations,
): Promise<JwtOutcome> {
  const keys = keySet(jwks);
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: expected.algorithms ?? ['RS256'],
      ...(expected.typ === undefined ? {} : { typ: expected.typ }),
      ...claimChecks(expected),
    });
    return { ok: true, payload };
  } catch (error) {
    if (error instanceof errors.JWTClaimValidationFailed) {
      return { ok: false, expired: false, claim: error.claim, missing: error.reason === 'missing' };
    }
    return { ok: false, expired: error instanceof errors.JWTExpired };
  }
}

/**
 * The claims of a compact JWT read WITHOUT verifying anything, or null when it is not one: only to
 * pick which client or key a token names before the real check.
 */
export function unverifiedClaims(token: string): JWTPayload | null {
  // Not three parts: jose would throw, and an error's stack costs more than the rest of the look (every
  // opaque bearer token — a SCIM directory's on each of its requests — is asked whether it is bound).
  if (!isCompactJwt(token)) return null;
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

/** Whether `token` has the three dot-separated parts of a compact JWS (checked no further). */
function isCompactJwt(token: string): boolean {
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  return second > 0 && token.indexOf('.', second + 1) < 0;
}

/** The header of a compact JWS read WITHOUT verifying anything, or null when it has none. */
export function unverifiedHeader(token: string): Record<string, unknown> | null {
  try {
    return decodeProtectedHeader(token) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * The claims of an unsecured JWT (`alg none`, RFC 7519 §6) that meets `expected` (issuer, audience,
 * times; `algorithms` and `typ` do not apply): for what a party may send unsigned by its own
 * registration, and nothing else. Its signature part must be empty.
 */
export function checkUnsecuredJwt(token: string, expected: JwtExpectations): JwtOutcome {
  try {
    const { payload } = UnsecuredJWT.decode(token, claimChecks(expected));
    return { ok: true, payload };
  } catch (error) {
    return { ok: false, expired: error instanceof errors.JWTExpired };
  }
}
