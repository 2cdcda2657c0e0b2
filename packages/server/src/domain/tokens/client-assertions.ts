import { sha256 } from '../../crypto/random.js';
import { checkJwt, type JwtOutcome, unverifiedClaims } from '../../crypto/verify-jwt.js';
import { recordAssertionJti } from '../../storage/repos/client-assertion-jtis.js';
import { CLIENT_JWS_ALGORITHMS } from '../client-jws-algorithms.js';
import { clock } from '../clock.js';
import { issuerOf, originOf } from '../issuers.js';
import type { Client, Org } from '../types.js';
import { clientKeys } from './client-keys.js';
import type { TokensDeps } from './deps.js';

/** RFC 7523 §2.2: the only `client_assertion_type` this service understands. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The signature algorithms a client assertion may use (discovery lists them). */
export const ASSERTION_ALGORITHMS = [...CLIENT_JWS_ALGORITHMS];

/** An assertion may expire at most this far ahead: it is a one-shot credential, not a token. */
export const ASSERTION_MAX_LIFETIME_S = 300;

/** Clock skew allowed between the client and this service, on `exp`, `nbf` and `iat`. */
const CLOCK_SKEW_S = 5;

/** The client an assertion names (`sub`, else `iss`), read before anything is verified; undefined if none. */
export function assertionClientId(assertion: string): string | undefined {
  const claims = unverifiedClaims(assertion);
  return claims?.sub ?? claims?.iss;
}

/**
 * Verifies a `private_key_jwt` assertion (RFC 7523 §3) against the client's registered keys:
 * `iss` = `sub` = the client id, `aud` the issuer or the URL of the token endpoint or of the
 * endpoint called (`endpointPath`), `exp` in the future and at most 5 minutes ahead, and a `jti`
 * not used before by this client — recorded here until the assertion expires. False on any failure.
 */
export async function verifyClientAssertion(
  deps: Pick<TokensDeps, 'db' | 'config' | 'clientKeySets'>,
  org: Org,
  client: Client,
  assertion: string,
  endpointPath: string,
): Promise<boolean> {
  if (client.kind !== 'confidential') return false;
  const keys = await clientKeys(deps, client, assertion);
  if (keys === null) return false;
  const origin = originOf(deps.config, org);
  const now = clock.now();
  const outcome: JwtOutcome = await checkJwt(assertion, keys, {
    algorithms: ASSERTION_ALGORITHMS,
    issuer: client.id,
    subject: client.id,
    audience: [issuerOf(deps.config, org), `${origin}/oauth/token`, `${origin}${endpointPath}`],
    requiredClaims: ['exp', 'jti'],
    toleranceSeconds: CLOCK_SKEW_S,
    now,
  });
  if (!outcome.ok) return false;
  const payload = outcome.payload;
  const exp = payload.exp as number;
  if (exp > Math.floor(now / 1000) + ASSERTION_MAX_LIFETIME_S + CLOCK_SKEW_S) return false;
  if (typeof payload.jti !== 'string' || payload.jti === '') return false;
  return recordAssertionJti(
    deps.db,
    {
      orgId: org.id,
      clientId: client.id,
      jtiHash: sha256(payload.jti),
      expiresAt: (exp + CLOCK_SKEW_S) * 1000,
    },
    now,
  );
}
