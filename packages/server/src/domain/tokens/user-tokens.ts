import { signAccessToken } from '../../crypto/jwt.js';
import { newId, newSecret, sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { insertRefreshToken } from '../../storage/repos/refresh-tokens.js';
import { scopeList } from '../directory/console-scopes.js';
import { IDENTITY_SCOPES } from '../directory/scopes.js';
import { issuerOf } from '../issuers.js';
import type { Signer } from '../keys/keys.js';
import type { TokenAudience } from '../resources/resource-tokens.js';
import type { OAuthSession } from '../sessions/sessions.js';
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_MS } from '../tokens-policy.js';
import type { Client, Org } from '../types.js';
import { mayUseGrant } from './client-grants.js';
import type { TokensDeps } from './deps.js';

/** What a grant hands back; the HTTP layer spells it as RFC 6749 §5.1 wants. */
export interface TokenSet {
  accessToken: string;
  expiresIn: number;
  refreshToken?: string;
  /** OpenID Connect sessions only (see id-tokens.ts). */
  idToken?: string;
  /** Console sessions: the scope granted (RFC 6749 §5.1), which may be less than was asked. */
  scope?: string;
  /** The thumbprint of the DPoP key the access token is bound to (`cnf.jkt`, RFC 9449 §6): `token_type` DPoP. */
  boundTo?: string;
}

/** A refresh token's value: opaque, 256-bit. Stored only as its SHA-256 (addRefreshToken). */
export const newRefreshToken = (): string => newSecret('trt_');

/**
 * A new refresh token for the session, written in `tx` (the transaction that retired the
 * previous one); `token` when the caller drew it already (a rotation names it as the successor).
 * Stored only as its SHA-256; never outlives the session. Clients without the refresh_token grant
 * get none.
 */
export async function addRefreshToken(
  tx: Handle,
  client: Client,
  session: OAuthSession,
  now: number,
  token: string = newRefreshToken(),
  dpopJkt: string | null = null,
): Promise<string | undefined> {
  if (!mayUseGrant(client, 'refresh_token')) return undefined;
  // RFC 9449 §5: a public client's refresh token is bound to the key of the request's proof; a
  // confidential client's is bound to its credentials already, and may be refreshed with any key.
  await insertRefreshToken(tx, {
    tokenHash: sha256(token),
    sessionId: session.id,
    clientId: client.id,
    createdAt: now,
    expiresAt: Math.min(now + REFRESH_TOKEN_TTL_MS, session.expiresAt),
    usedAt: null,
    rotatedTo: null,
    dpopJkt: client.kind === 'public' ? dpopJkt : null,
  });
  return token;
}

/** A promoted token (RFC 8693): `aud` the exchanging client, `azp` the public client it came from. */
export interface Promotion {
  audience: string;
  authorizedParty: string;
  /** The subject token's `tnt` and `exp` (seconds): the promoted token keeps one and never outlives the other. */
  tenantId: string | null;
  notAfterS: number;
}

/**
 * The access token of a session. Org sign-ins give `typ user` with `tnt`; console sign-ins give
 * `typ console` without it (DESIGN §5). Exactly these claims: verifiers and the SDK rely on them —
 * plus `act` on an impersonated session and `azp` on a promoted token (spec "Access token
 * claims"), and RFC 9068's `client_id` (the client the token was issued to, as `aud`) and `scope`
 * (DESIGN §14), and `cnf` when bound to a DPoP key. A token never outlives its session (an impersonated one ends within the hour).
 */
export async function signSessionToken(
  deps: TokensDeps,
  signer: Signer,
  org: Org,
  session: OAuthSession,
  now: number,
  promotion?: Promotion,
  audience: TokenAudience | null = null,
  boundTo: string | null = null,
): Promise<{ accessToken: string; expiresIn: number }> {
  const iat = Math.floor(now / 1000);
  const exp = Math.min(
    iat + (audience ? audience.resource.accessTokenTtl : ACCESS_TOKEN_TTL_S),
    Math.floor(session.expiresAt / 1000),
    promotion?.notAfterS ?? Number.POSITIVE_INFINITY,
  );
  const tenantId = promotion ? promotion.tenantId : session.tenantId;
  const clientId = promotion ? promotion.audience : session.clientId;
  const scope = audience ? resourceScope(audience) : accessTokenScope(session.scope);
  const claims: Record<string, unknown> = {
    typ: org.isConsole ? 'console' : 'user',
    iss: issuerOf(deps.config, org),
    // DESIGN §15: a token for a resource names it beside the client, so no other API accepts it.
    aud: audience ? [clientId, audience.resource.identifier] : clientId,
    client_id: clientId,
    ...(scope === undefined ? {} : { scope }),
    ...(promotion ? { azp: promotion.authorizedParty } : {}),
    sub: session.userId,
    ...(org.isConsole ? {} : { tnt: tenantId }),
    sid: session.id,
    jti: newId('jti'),
    amr: session.amr,
    acr: session.acr,
    ...(session.actorId === null ? {} : { act: { sub: session.actorId } }),
    // RFC 9449 §6.1: bound to the key of the token request's DPoP proof.
    ...(boundTo === null ? {} : { cnf: { jkt: boundTo } }),
    iat,
    exp,
  };
  return { accessToken: await signAccessToken(signer, claims), expiresIn: exp - iat };
}

/**
 * RFC 9068 §2.2.3 `scope`, carried only when the session was granted a scope beyond the identity
 * scopes (a console scope, say): the whole granted scope then, as the token response names it.
 */
function accessTokenScope(granted: string): string | undefined {
  const scopes = scopeList(granted);
  return scopes.some((s) => !Object.hasOwn(IDENTITY_SCOPES, s)) ? scopes.join(' ') : undefined;
}

/** A resource token's `scope`: the resource's scopes granted, none when there are none. */
function resourceScope(audience: TokenAudience): string | undefined {
  return audience.scopes.length > 0 ? audience.scopes.join(' ') : undefined;
}

/**
 * Signs the access token for a session whose refresh token (if any) was already stored; for
 * `audience`, the resource the consented authorization granted (DESIGN §15), whose scopes the
 * token response names.
 */
export async function tokenSet(
  deps: TokensDeps,
  signer: Signer,
  org: Org,
  session: OAuthSession,
  refreshToken: string | undefined,
  now: number,
  audience: TokenAudience | null = null,
  boundTo: string | null = null,
): Promise<TokenSet> {
  const access = await signSessionToken(deps, signer, org, session, now, undefined, audience, boundTo);
  const scope = audience ? resourceScope(audience) : undefined;
  const granted = org.isConsole
    ? { ...access, scope: session.scope }
    : scope === undefined
      ? access
      : { ...access, scope };
  const bound = boundTo === null ? granted : { ...granted, boundTo };
  return refreshToken === undefined ? bound : { ...bound, refreshToken };
}
