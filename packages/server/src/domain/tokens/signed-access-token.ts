import { type JWTPayload, verifyJwt } from '../../crypto/verify-jwt.js';
import { clock } from '../clock.js';
import { issuerOf } from '../issuers.js';
import { publicJwks } from '../keys/keys.js';
import type { Org } from '../types.js';
import type { TokensDeps } from './deps.js';

/**
 * The claims of an access token (`typ` at+jwt) this org signed, or null: a key of its published set
 * (read from the database, never from the token), RS256, `iss` exact, `exp` in the future, and
 * every claim of `requiredClaims` present. What the token is for is the caller's to check.
 */
export async function signedAccessToken(
  deps: TokensDeps,
  org: Org,
  token: string,
  requiredClaims: string[],
): Promise<JWTPayload | null> {
  // Reading the keys is not the token's fault: a database outage must answer 503, not 401.
  const keys = await publicJwks(deps.store, org.id, deps.keySets);
  return verifyJwt(token, keys, {
    issuer: issuerOf(deps.config, org),
    typ: 'at+jwt',
    requiredClaims,
    now: clock.now(),
  });
}
