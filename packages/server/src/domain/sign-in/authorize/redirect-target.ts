import { findRedirectUri } from '../../directory/redirect-uris.js';
import { fail } from '../../errors.js';
import type { Client } from '../../types.js';
import { type AnswerTarget, errorResponseMode } from './response-mode.js';

/** Where errors may be sent: known only once the client and its redirect URI check out. */
export interface RedirectTarget {
  client: Client;
  redirectUri: string;
  /** Whether the client sent redirect_uri, or it was its single registered one. */
  given: boolean;
}

/**
 * Step one of /oauth/authorize, with the client (client.ts): its redirect URI, the one the
 * request's `redirect_uri` names matched against its registration. A failure here must never
 * redirect (RFC 6749 §4.1.2.1): the page shows it instead.
 */
export function redirectTargetOf(
  client: Client,
  params: { redirect_uri?: string | undefined },
): RedirectTarget {
  const given = params.redirect_uri;
  if (given === undefined) {
    // RFC 6749 §3.1.2.3: may be omitted when exactly one is registered.
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    if (only === undefined) return fail('authorize.redirect_uri.missing', 'redirect_uri is missing');
    return { client, redirectUri: only, given: false };
  }
  const redirectUri = findRedirectUri(client, given);
  if (redirectUri === null)
    return fail('authorize.redirect_uri.unregistered', 'redirect_uri is not registered for this application');
  return { client, redirectUri, given: true };
}

/**
 * Where an error of a request with this target goes: its redirect URI, the `state` given echoed,
 * in the response mode asked for when it is a valid one (else `query`).
 */
export const errorTargetOf = (
  target: RedirectTarget,
  state: string | undefined,
  responseMode: string | undefined,
): AnswerTarget => ({
  redirectUri: target.redirectUri,
  state: state ?? null,
  responseMode: errorResponseMode(responseMode),
});

/** What an authorization request keeps of its target: the client, the redirect URI and whether it was given. */
export const keptTarget = (target: RedirectTarget) => ({
  clientId: target.client.id,
  redirectUri: target.redirectUri,
  redirectUriGiven: target.given,
});
