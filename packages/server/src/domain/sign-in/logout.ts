import { createLocalJWKSet, jwtVerify } from 'jose';
import { deleteBrowserSession } from '../../storage/repos/browser-sessions.js';
import { liveSessionIds } from '../../storage/repos/oauth-sessions.js';
import { clock } from '../clock.js';
import type { Deps } from '../context.js';
import { issuerOf } from '../directory/issuers.js';
import { fail } from '../errors.js';
import { publicJwks } from '../keys/keys.js';
import { liveSession, revokeSession } from '../tokens/sessions.js';
import { OAUTH_SESSION_TTL_MS } from '../tokens/tokens-policy.js';
import type { Actor, Client, Org } from '../types.js';
import { findSignInClient } from './authorization-requests.js';

/** The parameters of an RP-Initiated Logout request (OIDC RP-Initiated Logout 1.0 §2), as sent. */
export interface LogoutParameters {
  idTokenHint?: string | undefined;
  clientId?: string | undefined;
  postLogoutRedirectUri?: string | undefined;
  state?: string | undefined;
}

/** A checked logout request: who asks (the client), where to go after, and whom the hint names. */
export interface LogoutRequest {
  client: Client | null;
  /** A registered post-logout redirect URI of `client`, or null for Tessera's own "signed out" page. */
  postLogoutRedirectUri: string | null;
  state: string | null;
  /** From a valid `id_token_hint`: the person it was issued to, and the session (`sid`) it belongs to. */
  hint: { userId: string; sessionId: string | null } | null;
}

/**
 * The `id_token_hint`'s claims when it is an ID token this org issued (signature, issuer, `typ
 * JWT`). An expired one is still a hint (§2: the RP may have kept it past `exp`), within the
 * longest a session lives.
 */
async function hintOf(deps: Deps, org: Org, idToken: string) {
  try {
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(await publicJwks(deps.db, org.id)), {
      algorithms: ['RS256'],
      issuer: issuerOf(deps.config, org),
      typ: 'JWT',
      requiredClaims: ['sub', 'aud'],
      currentDate: new Date(clock.now()),
      clockTolerance: Math.floor(OAUTH_SESSION_TTL_MS / 1000),
    });
    const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
    if (typeof payload.sub !== 'string' || typeof aud !== 'string') return null;
    return {
      userId: payload.sub,
      clientId: aud,
      sessionId: typeof payload.sid === 'string' ? payload.sid : null,
    };
  } catch {
    return null;
  }
}

/**
 * Checks a logout request (§2, §3): the hint must be an ID token of this issuer; `client_id`, when
 * given with it, must be its audience; `post_logout_redirect_uri` must be one the client
 * registered, exactly, so nobody can use sign-out to send a browser elsewhere. Refusals are
 * `invalid_request`, shown as a page (never a redirect).
 */
export async function checkLogoutRequest(deps: Deps, org: Org, p: LogoutParameters): Promise<LogoutRequest> {
  const hinted = p.idTokenHint ? await hintOf(deps, org, p.idTokenHint) : null;
  if (p.idTokenHint && !hinted) fail('invalid_request', 'id_token_hint is not an ID token of this issuer');
  if (hinted && p.clientId && p.clientId !== hinted.clientId) {
    fail('invalid_request', 'client_id is not the audience of id_token_hint');
  }
  const clientId = p.clientId ?? hinted?.clientId;
  const client = clientId ? await findSignInClient(deps, org, clientId) : null;
  if (clientId && !client) fail('invalid_request', 'no such client');
  let postLogoutRedirectUri: string | null = null;
  if (p.postLogoutRedirectUri) {
    if (!client) fail('invalid_request', 'post_logout_redirect_uri needs client_id or id_token_hint');
    if (!client?.postLogoutRedirectUris.includes(p.postLogoutRedirectUri)) {
      fail('invalid_request', 'post_logout_redirect_uri is not registered for this client');
    }
    postLogoutRedirectUri = p.postLogoutRedirectUri;
  }
  return {
    client,
    postLogoutRedirectUri,
    state: p.state ?? null,
    hint: hinted ? { userId: hinted.userId, sessionId: hinted.sessionId } : null,
  };
}

/** Where the browser goes after signing out: the registered URI with `state`, or null. */
export function postLogoutRedirect(request: LogoutRequest): string | null {
  if (request.postLogoutRedirectUri === null) return null;
  const url = new URL(request.postLogoutRedirectUri);
  if (request.state !== null) url.searchParams.set('state', request.state);
  return url.href;
}

/**
 * Signs a browser out of `org`: the browser sign-in (`browserSession`, the login cookie's hash)
 * ends, with every OAuth session opened from it, and the session the hint names when it is the
 * hinted person's. Each OAuth session ending is audited as `session.deleted`. Returns how many ended.
 */
export async function signOut(
  deps: Deps,
  org: Org,
  browserSession: string | null,
  hint: LogoutRequest['hint'],
  actor: Actor,
): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const now = clock.now();
    const ids = new Set(browserSession === null ? [] : await liveSessionIds(trx, { browserSession }, now));
    if (hint?.sessionId) {
      const named = await liveSession(trx, hint.sessionId, now);
      if (named && named.orgId === org.id && named.userId === hint.userId) ids.add(named.id);
    }
    for (const id of ids) await revokeSession(trx, id, actor, now);
    if (browserSession !== null) await deleteBrowserSession(trx, browserSession);
    return ids.size;
  });
}
