import { deleteBrowserSession } from '../../storage/repos/browser-sessions.js';
import { liveSessionIds } from '../../storage/repos/oauth-sessions.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { type FrontChannelFrame, propagateLogout } from '../sessions/logout-propagation.js';

export type { FrontChannelFrame };

import { revokeSessions } from '../sessions/sessions.js';
import type { Actor, Client, Org } from '../types.js';
import { findSignInClient } from './authorize/client.js';
import type { SignInDeps } from './deps.js';
import { readIdTokenHint } from './id-token-hints.js';

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
  /** A registered post-logout redirect URI of `client` (exact match), or null. */
  postLogoutRedirectUri: string | null;
  /**
   * Whether the browser may be sent to `postLogoutRedirectUri`: the request carries a valid
   * `id_token_hint` of that client, or the client is the org's own (first party). A URI anyone
   * registered (RFC 7591, a metadata document) is otherwise never redirected to.
   */
  redirectAllowed: boolean;
  state: string | null;
  /** From a valid `id_token_hint`: the person it was issued to. */
  hint: { userId: string } | null;
}

/**
 * Checks a logout request (§2, §3): the hint must be an ID token of this issuer; `client_id`, when
 * given with it, must be its audience; `post_logout_redirect_uri` must be one the client
 * registered, exactly. Refusals are `invalid_request`, shown as a page (never a redirect). A
 * registered URI is used only with a hint of that client or for a first-party client
 * (`redirectAllowed`): anyone may register a client, so its URI alone proves nothing.
 */
export async function checkLogoutRequest(
  deps: SignInDeps,
  org: Org,
  p: LogoutParameters,
): Promise<LogoutRequest> {
  const hinted = p.idTokenHint ? await readIdTokenHint(deps, org, p.idTokenHint) : null;
  if (p.idTokenHint && !hinted)
    fail('logout.id_token_hint.foreign', 'id_token_hint is not an ID token of this issuer');
  if (hinted && p.clientId && p.clientId !== hinted.clientId) {
    fail('logout.client_id.not_audience', 'client_id is not the audience of id_token_hint');
  }
  const clientId = p.clientId ?? hinted?.clientId;
  const client = clientId ? await findSignInClient(deps, org, clientId) : null;
  if (clientId && !client) fail('logout.client.unknown', 'no such client');
  let postLogoutRedirectUri: string | null = null;
  if (p.postLogoutRedirectUri) {
    if (!client)
      fail('logout.redirect.no_client', 'post_logout_redirect_uri needs client_id or id_token_hint');
    if (!client?.postLogoutRedirectUris.includes(p.postLogoutRedirectUri)) {
      fail('logout.redirect.unregistered', 'post_logout_redirect_uri is not registered for this client');
    }
    postLogoutRedirectUri = p.postLogoutRedirectUri;
  }
  // The hint's audience is the client whenever both are present (checked above).
  const vouched = client !== null && (client.firstParty || hinted?.clientId === client.id);
  return {
    client,
    postLogoutRedirectUri,
    redirectAllowed: postLogoutRedirectUri !== null && vouched,
    state: p.state ?? null,
    hint: hinted ? { userId: hinted.userId } : null,
  };
}

/** Where the browser goes after signing out: the registered URI with `state` when allowed, or null. */
export function postLogoutRedirect(request: LogoutRequest): string | null {
  if (request.postLogoutRedirectUri === null || !request.redirectAllowed) return null;
  const url = new URL(request.postLogoutRedirectUri);
  if (request.state !== null) url.searchParams.set('state', request.state);
  return url.href;
}

/**
 * Signs a browser out of `org`: the browser sign-in (`browserSession`, the login cookie's hash)
 * ends, with every OAuth session opened from it; nothing else, whatever a hint names, so only the
 * browser holding the cookie can end its sessions. Each OAuth session ending is audited as
 * `session.deleted`; every client the sign-in signed into that registered a back-channel logout URI
 * is sent a logout token. Returns how many OAuth sessions ended, and the front-channel logout
 * frames the page shows.
 */
export async function signOut(
  deps: SignInDeps,
  browserSession: string,
  actor: Actor,
): Promise<{ ended: number; frames: FrontChannelFrame[] }> {
  return deps.unitOfWork.run(async (tx) => {
    const now = clock.now();
    const ids = await liveSessionIds(tx, { browserSession }, now);
    const ended = await revokeSessions(tx, ids, actor, now);
    const frames = await propagateLogout(tx, { browserSession }, now, ended);
    await deleteBrowserSession(tx, browserSession);
    return { ended: ids.length, frames };
  });
}

/**
 * The URL the signed-out page frames for a client (OIDC Front-Channel Logout 1.0 §2): its
 * registered URI, with `iss` (this org's issuer) and `sid` (the one its ID tokens carried) added to
 * its query when it asked for them, and nothing else: no client learns another's sid.
 */
export function frontChannelLogoutUrl(issuer: string, frame: FrontChannelFrame): string {
  const url = new URL(frame.endpoint.uri);
  if (frame.endpoint.sessionRequired) {
    url.searchParams.set('iss', issuer);
    url.searchParams.set('sid', frame.sid);
  }
  return url.href;
}
