import { accessTokenHash, signIdToken } from '../../crypto/id-token.js';
import { findUserById } from '../../storage/repos/users.js';
import { fail } from '../errors.js';
import { issuerOf } from '../issuers.js';
import type { Signer } from '../keys/keys.js';
import type { TokenAudience } from '../resources/resource-tokens.js';
import type { OAuthSession } from '../sessions/sessions.js';
import { ID_TOKEN_TTL_S } from '../tokens-policy.js';
import type { Org, User } from '../types.js';
import type { TokensDeps } from './deps.js';
import { OPENID_SCOPE, releasedClaims, scopesOf } from './openid-claims.js';
import { type TokenSet, tokenSet } from './user-tokens.js';

/**
 * Adds the ID token (OIDC Core §3.1.3.3) to the token set of a session granted `openid`; other
 * sets are returned as they are. Signed like the access token beside it (the org's active key),
 * it states who signed in (`sub`), to which client (`aud`), when (`auth_time`) and how (`amr`,
 * `acr`, the access token's values), binds that access token (`at_hash`), and carries what the
 * granted scopes release and what the `claims` parameter asked of the ID token (§5.5), on a
 * refresh too (the session keeps it). `nonce` is the authorization request's; a refresh passes none
 * (§12.2), while `iss`, `sub`, `aud` and `auth_time` stay those of the original sign-in.
 * `known`: the session's user when the caller read it already (null: deleted); else it is looked up.
 *
 * @example
 *   const set = await tokenSet(deps, signer, org, session, refreshToken, now);
 *   return withIdToken(deps, signer, org, session, set, now, code.nonce);
 */
async function withIdToken(
  deps: TokensDeps,
  signer: Signer,
  org: Org,
  session: OAuthSession,
  set: TokenSet,
  now: number,
  nonce: string | null,
  known?: User | null,
): Promise<TokenSet> {
  const scopes = scopesOf(session.scope);
  if (!scopes.includes(OPENID_SCOPE)) return set;
  const user = known === undefined ? await findUserById(deps.store, session.userId) : known;
  if (!user) return fail('token.user.gone', 'the user of this session no longer exists');
  const iat = Math.floor(now / 1000);
  const claims: Record<string, unknown> = {
    iss: issuerOf(deps.config, org),
    sub: session.userId,
    aud: session.clientId,
    exp: iat + ID_TOKEN_TTL_S,
    iat,
    auth_time: Math.floor(session.authTime / 1000),
    ...(nonce === null ? {} : { nonce }),
    sid: session.sid ?? session.id,
    amr: session.amr,
    acr: session.acr,
    at_hash: accessTokenHash(set.accessToken),
    ...releasedClaims(user, scopes, session.claims?.id_token),
  };
  return { ...set, idToken: await signIdToken(signer, claims) };
}

/** What a grant's transaction hands over to sign: the session, its new refresh token, the resource, the user when read. */
export interface GrantedSession {
  session: OAuthSession;
  refreshToken: string | undefined;
  audience: TokenAudience | null;
  user?: User | null | undefined;
}

/**
 * The token response of a grant that signs a user in or renews a sign-in (an authorization code, a
 * refresh token, a device code): the session's token set (tokenSet), bound to `dpopJkt` when
 * given, with its ID token when `openid` was granted (withIdToken, with the request's `nonce`).
 */
export async function grantedTokens(
  deps: TokensDeps,
  signer: Signer,
  org: Org,
  granted: GrantedSession,
  now: number,
  dpopJkt: string | null,
  nonce: string | null,
): Promise<TokenSet> {
  const { session, refreshToken, audience, user } = granted;
  const set = await tokenSet(deps, signer, org, session, refreshToken, now, audience, dpopJkt);
  return withIdToken(deps, signer, org, session, set, now, nonce, user);
}
