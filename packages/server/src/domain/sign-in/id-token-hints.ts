import { checkJwt } from '../../crypto/verify-jwt.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { issuerOf } from '../issuers.js';
import { publicJwks } from '../keys/keys.js';
import { BROWSER_SESSION_TTL_MS } from '../tokens-policy.js';
import { type Org, SIGNING_ALGORITHMS } from '../types.js';
import type { SignInDeps } from './deps.js';

/**
 * How long past its `exp` an ID token is still taken as `id_token_hint` (OIDC Core §3.1.2.1,
 * RP-Initiated Logout §2 let the client keep it past `exp`): the longest a browser sign-in lives. A
 * hint only says which client asks and for whom; it never ends a session by itself.
 */
export const EXPIRED_HINT_WINDOW_MS = BROWSER_SESSION_TTL_MS;

/** Whom an `id_token_hint` names: the person, the client it was issued to, and its session (`sid`). */
export interface IdTokenHint {
  userId: string;
  clientId: string;
  sessionId: string | null;
}

/**
 * The `id_token_hint`'s claims when it is an ID token this org issued (signature, issuer, `typ
 * JWT`), expired at most EXPIRED_HINT_WINDOW_MS ago; null when it is not one. One expired longer
 * ago is `invalid_request`, saying so.
 */
export async function readIdTokenHint(
  deps: SignInDeps,
  org: Org,
  idToken: string,
): Promise<IdTokenHint | null> {
  const outcome = await checkJwt(idToken, await publicJwks(deps.store, org.id), {
    issuer: issuerOf(deps.config, org),
    typ: 'JWT',
    // Signed with the org's ID-token algorithm of the time (DESIGN §20), each key naming its own.
    algorithms: [...SIGNING_ALGORITHMS],
    // Every ID token has `exp`; a signed userinfo answer (typ JWT too, same key) has none and is no hint.
    requiredClaims: ['sub', 'aud', 'exp'],
    now: clock.now(),
    toleranceSeconds: Math.floor(EXPIRED_HINT_WINDOW_MS / 1000),
  });
  if (!outcome.ok) {
    if (outcome.expired) {
      fail(
        'id_token_hint.expired_long_ago',
        `id_token_hint expired more than ${EXPIRED_HINT_WINDOW_MS / 3_600_000} hours ago`,
      );
    }
    return null;
  }
  const payload = outcome.payload;
  const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
  if (typeof payload.sub !== 'string' || typeof aud !== 'string') return null;
  return {
    userId: payload.sub,
    clientId: aud,
    sessionId: typeof payload.sid === 'string' ? payload.sid : null,
  };
}
