import { idTokenSigner, signJwt } from '../../crypto/jwt.js';
import { requireUser } from '../directory/profile.js';
import { issuerOf } from '../issuers.js';
import type { Org } from '../types.js';
import type { VerifiedAccess } from './access-tokens.js';
import { clientNamed } from './client-named.js';
import type { TokensDeps } from './deps.js';
import { OPENID_SCOPE, releasedClaims, scopesOf } from './openid-claims.js';

/**
 * The userinfo response (OIDC Core §5.3.2) for a verified access token: `sub` plus what the
 * scopes granted to its session release and what its authorization request's `claims` parameter
 * asked of userinfo (§5.5). Null when the session was not granted `openid`: the token did not
 * come from an OpenID Connect request.
 *
 * @example
 *   const { access } = await authenticateBearer(deps, request, ['user', 'console']);
 *   const claims = await userInfo(deps, access); // { sub: 'usr_…', email: …, … } or null
 */
export async function userInfo(
  deps: TokensDeps,
  access: VerifiedAccess,
): Promise<Record<string, unknown> | null> {
  // The scopes and the claims request live with the session (a token does not carry them).
  const scopes = scopesOf(access.session.scope);
  if (!scopes.includes(OPENID_SCOPE)) return null;
  const user = await requireUser(deps, access.userId);
  return { sub: user.id, ...releasedClaims(user, scopes, access.session.claims?.userinfo) };
}

/**
 * The userinfo claims as a JWT (§5.3.2) when the session's client registered
 * `userinfo_signed_response_alg` (signed with the org's ID-token algorithm and key, like its ID tokens), with `iss` and
 * `aud` (that client) added; null when it did not, and the claims go as JSON. It has no `exp`:
 * every ID token verifier requires one, so it cannot pass for an ID token.
 */
export async function signedUserInfo(
  deps: TokensDeps,
  org: Org,
  access: VerifiedAccess,
  claims: Record<string, unknown>,
): Promise<string | null> {
  const client = await clientNamed(deps, org, access.session.clientId);
  if (client?.userinfoSignedResponseAlg !== 'RS256') return null;
  // Signed as the org's ID tokens are (DESIGN §20).
  const signer = await idTokenSigner(await deps.keyRing.signer(org));
  return signJwt(signer, 'JWT', { ...claims, iss: issuerOf(deps.config, org), aud: client.id });
}
