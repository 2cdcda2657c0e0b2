import { sha256 } from '../../crypto/random.js';
import { findClient } from '../../storage/repos/clients.js';
import { findRefreshToken } from '../../storage/repos/refresh-tokens.js';
import { clock } from '../clock.js';
import { issuerOf } from '../issuers.js';
import { liveSession } from '../sessions/sessions.js';
import type { Client, Org } from '../types.js';
import { acceptedAccess } from './access-tokens.js';
import type { TokensDeps } from './deps.js';
import { signedAccessToken } from './signed-access-token.js';

/** RFC 7662 §2.2: what introspection answers; `active: false` and nothing else for a dead token. */
export type Introspection = { active: false } | ({ active: true } & Record<string, unknown>);

const INACTIVE: Introspection = { active: false };

/**
 * An access token: a machine token is active while its client exists; a person's token while its
 * session lives (the same checks this org's own APIs make). Its claims are the answer.
 */
async function introspectAccessToken(deps: TokensDeps, org: Org, token: string): Promise<Introspection> {
  // A signed access token of this org, of any `typ`.
  const payload = await signedAccessToken(deps, org, token, ['exp', 'sub', 'aud', 'jti']);
  if (!payload) return INACTIVE;
  if (payload.typ === 'client') {
    if (typeof payload.sub !== 'string' || !(await findClient(deps.store, org.id, payload.sub)))
      return INACTIVE;
  } else if (!(await acceptedAccess(deps, org, payload, ['user', 'console'], 'accept'))) {
    return INACTIVE;
  }
  // RFC 9449 §6.2: a token bound to a DPoP key is a DPoP token; its `cnf` is among its claims.
  return { active: true, ...payload, token_type: payload.cnf === undefined ? 'Bearer' : 'DPoP' };
}

/**
 * A refresh token: active while it is the current one of a live session of this org, and only to
 * the client it was issued to (a refresh token is that client's credential, nobody else's business).
 */
async function introspectRefreshToken(
  deps: TokensDeps,
  org: Org,
  client: Client,
  token: string,
): Promise<Introspection | null> {
  const stored = await findRefreshToken(deps.store, sha256(token));
  if (!stored) return null;
  const now = clock.now();
  if (stored.clientId !== client.id || stored.usedAt !== null || stored.expiresAt <= now) return INACTIVE;
  const session = await liveSession(deps.store, stored.sessionId, now);
  if (!session || session.orgId !== org.id) return INACTIVE;
  return {
    active: true,
    token_type: 'refresh_token',
    client_id: stored.clientId,
    scope: session.scope,
    sub: session.userId,
    iss: issuerOf(deps.config, org),
    sid: session.id,
    ...(session.tenantId === null ? {} : { tnt: session.tenantId }),
    iat: Math.floor(stored.createdAt / 1000),
    exp: Math.floor(stored.expiresAt / 1000),
    ...(stored.dpopJkt === null ? {} : { cnf: { jkt: stored.dpopJkt } }),
  };
}

/**
 * RFC 7662 introspection for an authenticated confidential client of `org`. Any access token of
 * the org, or a refresh token the client holds; everything else (expired, revoked, an ended
 * session, another org's, garbage) is `{"active": false}`.
 */
export async function introspectToken(
  deps: TokensDeps,
  org: Org,
  client: Client,
  token: string,
): Promise<Introspection> {
  if (token.split('.').length === 3) return introspectAccessToken(deps, org, token);
  return (await introspectRefreshToken(deps, org, client, token)) ?? INACTIVE;
}
