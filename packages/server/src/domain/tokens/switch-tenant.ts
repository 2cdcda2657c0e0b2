import { supersedeRefreshTokens } from '../../storage/repos/refresh-tokens.js';
import { findUserTenant } from '../../storage/repos/tenant-members.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { liveSession, moveSession } from '../sessions/sessions.js';
import type { Client, Org } from '../types.js';
import { verifyAccessToken } from './access-tokens.js';
import { requireGrant } from './client-grants.js';
import type { TokensDeps } from './deps.js';
import { boundKeyOf } from './dpop.js';
import { addRefreshToken, type TokenSet, tokenSet } from './user-tokens.js';

/** The grant type URN of the tenant switch (spec "Other endpoints"; configurable in the SDK only). */
export const SWITCH_TENANT_GRANT = 'urn:service:params:oauth:grant-type:switch-tenant';

/**
 * Moves the session of a live user token to another tenant of the same user and answers a new
 * TokenSet for it. The session keeps one live refresh token: the ones issued before are retired,
 * so presenting one of them later counts as reuse.
 */
export async function switchTenant(
  deps: TokensDeps,
  org: Org,
  client: Client,
  accessToken: string,
  tenantId: string,
  dpopJkt: string | null = null,
): Promise<TokenSet> {
  requireGrant(client, 'switch_tenant');
  const verified = await verifyAccessToken(deps, org, accessToken, ['user']);
  if (!verified || verified.clientId !== client.id || verified.authorizedParty !== null) {
    return fail('token.switch_tenant.token_invalid', 'access_token is not a live user token of this client');
  }
  // A DPoP-bound token (RFC 9449) moves only with a proof of its key; the new tokens are bound to it.
  const bound = boundKeyOf(accessToken);
  if (bound !== null && bound !== dpopJkt)
    fail(
      'token.switch_tenant.dpop_key',
      'access_token is bound to a DPoP key: send a DPoP proof signed with that key',
    );
  const membership = await findUserTenant(deps.store, verified.userId, tenantId);
  if (!membership || membership.tenant.orgId !== org.id) {
    return fail('token.switch_tenant.not_member', 'the user is not a member of this tenant');
  }
  const now = clock.now();
  const signer = await deps.keyRing.signer(org);
  const outcome = await deps.unitOfWork.run(async (tx) => {
    const live = await liveSession(tx, verified.sessionId, now);
    if (!live) return null;
    const session = await moveSession(tx, live, tenantId, { kind: 'user', id: verified.userId }, now);
    await supersedeRefreshTokens(tx, session.id, now);
    return { session, refreshToken: await addRefreshToken(tx, client, session, now, undefined, dpopJkt) };
  });
  if (!outcome) return fail('token.switch_tenant.session_ended', 'the session has ended');
  return tokenSet(deps, signer, org, outcome.session, outcome.refreshToken, now, null, dpopJkt);
}
