import { sha256 } from '../../crypto/random.js';
import { checkJwt, type JwtOutcome, unverifiedClaims, unverifiedHeader } from '../../crypto/verify-jwt.js';
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

/**
 * An assertion may expire at most this far ahead. It is a one-shot credential (its `jti` is kept
 * until it expires), but common libraries sign it for an hour by default (Authlib's
 * `private_key_jwt`, `exp` = now + 3600), and refusing those made them fail with their defaults.
 */
export const ASSERTION_MAX_LIFETIME_S = 3600;

/** Clock skew allowed on that bound: a client whose clock runs a little ahead still gets its hour. */
const MAX_LIFETIME_SKEW_S = 60;

/** Clock skew allowed between the client and this service, on `exp` (passed), `nbf` and `iat`. */
const CLOCK_SKEW_S = 5;

/** What a verification found: accepted, or refused with why (null: the one generic answer). */
export type AssertionOutcome = { ok: true } | { ok: false; why: string | null };

const refused = (why: string | null): AssertionOutcome => ({ ok: false, why });

/**
 * Why the signed assertion was refused, in the words `error_description` carries (RFC 6749 §5.2:
 * printable ASCII without `"` or `\`). Only for an assertion whose signature held: its sender holds
 * the client's key, so is the client, and learns what to fix; anyone else gets the generic answer.
 */
function whyRefused(outcome: Extract<JwtOutcome, { ok: false }>): string | null {
  if (outcome.expired) return 'the client assertion has expired';
  if (outcome.claim === undefined) return null;
  if (outcome.missing) return `the client assertion has no ${outcome.claim} claim`;
  if (outcome.claim === 'aud') {
    return "the client assertion's aud is neither the issuer nor the URL of the token endpoint or of the endpoint called";
  }
  return `the client assertion's ${outcome.claim} claim is not valid`;
}

/**
 * A request object (RFC 9101) is signed with the same client keys and names the issuer as its
 * audience, and it travels through the browser: one that also carried `sub` and `jti` would pass
 * as a client assertion for as long as it lives (cross-JWT confusion, RFC 8725 §2.8). An assertion
 * typed as a request object, or carrying the authorization request's `response_type`, is refused.
 */
function isRequestObject(assertion: string): boolean {
  const typ = unverifiedHeader(assertion)?.typ;
  if (typeof typ === 'string' && typ.toLowerCase().replace(/^application\//, '') === 'oauth-authz-req+jwt')
    return true;
  return unverifiedClaims(assertion)?.response_type !== undefined;
}

/** The client an assertion names (`sub`, else `iss`), read before anything is verified; undefined if none. */
export function assertionClientId(assertion: string): string | undefined {
  const claims = unverifiedClaims(assertion);
  return claims?.sub ?? claims?.iss;
}

/**
 * Verifies a `private_key_jwt` assertion (RFC 7523 §3) against the client's registered keys:
 * `iss` = `sub` = the client id, `aud` the issuer or the URL of the token endpoint or of the
 * endpoint called (`endpointPath`), `exp` in the future and at most 60 minutes ahead (60 s of
 * skew), and a `jti` not used before by this client — recorded here until the assertion expires,
 * so it is refused again for as long as the assertion itself would be accepted. A refusal says why
 * once the signature held (whyRefused); before that (no keys, a key it does not name, a bad
 * signature, another client's) it is the generic answer.
 */
export async function verifyClientAssertion(
  deps: Pick<TokensDeps, 'store' | 'config' | 'clientKeySets'>,
  org: Org,
  client: Client,
  assertion: string,
  endpointPath: string,
): Promise<AssertionOutcome> {
  if (client.kind !== 'confidential') return refused(null);
  if (isRequestObject(assertion)) return refused(null);
  const keys = await clientKeys(deps, client, assertion);
  if (keys === null) return refused(null);
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
  if (!outcome.ok) return refused(whyRefused(outcome));
  const payload = outcome.payload;
  const exp = payload.exp as number;
  if (exp > Math.floor(now / 1000) + ASSERTION_MAX_LIFETIME_S + MAX_LIFETIME_SKEW_S) {
    return refused(
      `the client assertion's exp is more than ${ASSERTION_MAX_LIFETIME_S / 60} minutes ahead; sign it for at most ${ASSERTION_MAX_LIFETIME_S / 60} minutes`,
    );
  }
  if (typeof payload.jti !== 'string' || payload.jti === '')
    return refused('the client assertion has no jti claim');
  const fresh = await recordAssertionJti(
    deps.store,
    {
      orgId: org.id,
      clientId: client.id,
      jtiHash: sha256(payload.jti),
      // Accepted until exp + the skew (checkJwt's tolerance): kept until then, not a second less.
      expiresAt: (exp + CLOCK_SKEW_S) * 1000,
    },
    now,
  );
  return fresh ? { ok: true } : refused('the client assertion was already used (its jti is single use)');
}
