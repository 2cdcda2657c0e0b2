import { sha256 } from '../../crypto/random.js';
import { findRefreshToken } from '../../storage/repos/refresh-tokens.js';
import { clock } from '../clock.js';
import { revokeSession } from '../sessions/sessions.js';
import type { Client, Org } from '../types.js';
import { verifyAccessToken } from './access-tokens.js';
import type { TokensDeps } from './deps.js';

/** The session a token belongs to, if the token was issued to this client. */
async function sessionOfToken(
  deps: TokensDeps,
  org: Org,
  client: Client,
  token: string,
): Promise<string | null> {
  const refresh = await findRefreshToken(deps.store, sha256(token));
  if (refresh) return refresh.clientId === client.id ? refresh.sessionId : null;
  const access = await verifyAccessToken(deps, org, token, ['user', 'console']);
  // A promoted token does not end the session of the public client it came from.
  return access && access.clientId === client.id && access.authorizedParty === null ? access.sessionId : null;
}

/**
 * RFC 7009: revoking a refresh token (current or already rotated) or an access token ends its
 * whole session. Unknown tokens, and tokens of another client, change nothing and are not
 * reported: the caller learns nothing about tokens it does not hold.
 */
export async function revokeToken(deps: TokensDeps, org: Org, client: Client, token: string): Promise<void> {
  const sessionId = await sessionOfToken(deps, org, client, token);
  if (sessionId === null) return;
  await deps.unitOfWork.run((tx) =>
    revokeSession(tx, sessionId, { kind: 'client', id: client.id }, clock.now()),
  );
}
