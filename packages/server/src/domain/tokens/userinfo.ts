import { requireUser } from '../directory/profile.js';
import type { VerifiedAccess } from './access-tokens.js';
import type { TokensDeps } from './deps.js';
import { OPENID_SCOPE, scopedClaims, scopesOf } from './openid-claims.js';

/**
 * The userinfo response (OIDC Core §5.3.2) for a verified access token: `sub` plus what the
 * scopes granted to its session release — the same claims its ID token carries. Null when the
 * session was not granted `openid`: the token did not come from an OpenID Connect request.
 *
 * @example
 *   const { access } = await authenticateBearer(deps, request, ['user', 'console']);
 *   const claims = await userInfo(deps, access); // { sub: 'usr_…', email: …, … } or null
 */
export async function userInfo(
  deps: TokensDeps,
  access: VerifiedAccess,
): Promise<Record<string, unknown> | null> {
  // The scopes live with the session (a token does not carry them).
  const scopes = scopesOf(access.session.scope);
  if (!scopes.includes(OPENID_SCOPE)) return null;
  const user = await requireUser(deps, access.userId);
  return { sub: user.id, ...scopedClaims(user, scopes) };
}
