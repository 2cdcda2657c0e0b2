import { signLogoutToken } from '../../crypto/id-token.js';
import { newId } from '../../crypto/random.js';
import { findOrgById } from '../../storage/repos/orgs.js';
import { issuerOf } from '../issuers.js';
import type { LogoutDelivery } from '../types.js';
import type { TokensDeps } from './deps.js';

/** The event a logout token carries (OIDC Back-Channel Logout 1.0 §2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** How long a logout token is good for: long enough for one delivery attempt, never a stored credential. */
export const LOGOUT_TOKEN_TTL_S = 120;

/**
 * The logout token of one delivery (OIDC Back-Channel Logout 1.0 §2.4), signed with the org's
 * active key (RS256) when it is sent, so a retry hours later still carries a token within its two
 * minutes: `typ` `logout+jwt`; `iss` the org's issuer; `aud` the one client it is for; `iat`, `exp`;
 * a fresh `jti` each attempt; `events` with the back-channel logout event; `sub` the person and
 * `sid` the sid that client's ID tokens carried; never `nonce` (§2.4). Null when the org is gone.
 */
export async function logoutTokenFor(
  deps: TokensDeps,
  delivery: Pick<LogoutDelivery, 'orgId' | 'clientId' | 'sub' | 'sid'>,
  now: number,
): Promise<string | null> {
  const org = await findOrgById(deps.store, delivery.orgId);
  if (!org) return null;
  const signer = await deps.keyRing.signer(org);
  const iat = Math.floor(now / 1000);
  return signLogoutToken(signer, {
    iss: issuerOf(deps.config, org),
    sub: delivery.sub,
    aud: delivery.clientId,
    iat,
    exp: iat + LOGOUT_TOKEN_TTL_S,
    jti: newId('lgt'),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    ...(delivery.sid === null ? {} : { sid: delivery.sid }),
  });
}
