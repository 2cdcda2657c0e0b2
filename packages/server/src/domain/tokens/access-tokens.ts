import type { JWTPayload } from '../../crypto/verify-jwt.js';
import { clock } from '../clock.js';
import { isIdOf } from '../identifiers.js';
import { liveSession, type OAuthSession } from '../sessions/sessions.js';
import type { Org } from '../types.js';
import type { TokensDeps } from './deps.js';
import { signedAccessToken } from './signed-access-token.js';

/** The token types a person's session produces (DESIGN §5); machine tokens never reach these APIs. */
export type SessionTokenType = 'user' | 'console';

export interface VerifiedAccess {
  typ: SessionTokenType;
  userId: string;
  /** `tnt` of a user token; null for console tokens. */
  tenantId: string | null;
  sessionId: string;
  /** `aud`: the client the token was issued to (for a promoted token, the exchanging client). */
  clientId: string;
  /** `azp` of a promoted token: the public client whose session it belongs to; else null. */
  authorizedParty: string | null;
  /** The API resource a token is for (`aud` = [client id, resource], DESIGN §15); else null. */
  resource: string | null;
  claims: JWTPayload;
  /** The live session the verifier read: its scope, tenant and lifetime, without reading it again. */
  session: OAuthSession;
}

/** `aud` as the client id and, for a resource token, the resource; null when it is neither shape. */
function audienceOf(aud: unknown): { clientId: string; resource: string | null } | null {
  if (typeof aud === 'string') return { clientId: aud, resource: null };
  if (!Array.isArray(aud) || aud.length !== 2) return null;
  const [clientId, resource] = aud as unknown[];
  if (typeof clientId !== 'string' || typeof resource !== 'string') return null;
  return { clientId, resource };
}

function shapeOf(
  payload: JWTPayload,
  accept: readonly SessionTokenType[],
): Omit<VerifiedAccess, 'claims' | 'session'> | null {
  const { typ, sub, sid, tnt, azp } = payload as Record<string, unknown>;
  if (!accept.includes(typ as SessionTokenType)) return null;
  if (typeof sub !== 'string' || !isIdOf('user', sub)) return null;
  const audience = audienceOf(payload.aud);
  if (audience === null || typeof sid !== 'string') return null;
  if (typ === 'user' && (typeof tnt !== 'string' || !isIdOf('tenant', tnt))) return null;
  if (azp !== undefined && typeof azp !== 'string') return null;
  return {
    typ: typ as SessionTokenType,
    userId: sub,
    tenantId: typ === 'user' ? (tnt as string) : null,
    sessionId: sid,
    clientId: audience.clientId,
    authorizedParty: typeof azp === 'string' ? azp : null,
    resource: audience.resource,
  };
}

/**
 * Verifies an access token presented to this org's own APIs with the spec's rules: keys of the
 * org's published set (read from the database, never from the token), RS256 only, `iss` exact,
 * `exp` in the future, an accepted `typ` — and, beyond what a stateless verifier can know, a
 * session that has not been revoked. A token for an API resource is refused unless
 * `resourceTokens` is `accept`. Every failure is null: callers answer one generic 401.
 *
 * @example
 *   const verified = await verifyAccessToken(deps, org, token, ['console']);
 *   if (!verified) fail('unauthorized', "we don't know who you are");
 */
export async function verifyAccessToken(
  deps: TokensDeps,
  org: Org,
  token: string,
  accept: readonly SessionTokenType[],
  resourceTokens: 'refuse' | 'accept' = 'refuse',
): Promise<VerifiedAccess | null> {
  const payload = await signedAccessToken(deps, org, token, ['exp', 'sub', 'aud', 'sid', 'jti']);
  return payload ? acceptedAccess(deps, org, payload, accept, resourceTokens) : null;
}

/**
 * What verifyAccessToken checks once the signature is: the claims of a person's token of an
 * accepted `typ` (`sid` among them), and a live session of this org and user behind it. For a
 * caller that verified the signature already (introspection), so the key set is not read twice.
 */
export async function acceptedAccess(
  deps: TokensDeps,
  org: Org,
  payload: JWTPayload,
  accept: readonly SessionTokenType[],
  resourceTokens: 'refuse' | 'accept' = 'refuse',
): Promise<VerifiedAccess | null> {
  const shape = shapeOf(payload, accept);
  if (!shape) return null;
  // A token for an API resource is that API's (DESIGN §15): this org's own APIs never take it, so
  // a resource server cannot act as the person here; introspection reads it.
  if (shape.resource !== null && resourceTokens === 'refuse') return null;
  const session = await liveSession(deps.store, shape.sessionId, clock.now());
  if (!session || session.orgId !== org.id || session.userId !== shape.userId) return null;
  // A promoted token belongs to the session of the public client it came from (`azp`).
  if (session.clientId !== (shape.authorizedParty ?? shape.clientId)) return null;
  return { ...shape, claims: payload, session };
}
