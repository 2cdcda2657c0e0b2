import { findRedirectUri } from '../../directory/redirect-uris.js';
import { fail } from '../../errors.js';
import type { Client, Org } from '../../types.js';
import type { SignInDeps } from '../deps.js';
import { signInClient } from './client.js';

/** Where errors may be sent: known only once the client and its redirect URI check out. */
export interface RedirectTarget {
  client: Client;
  redirectUri: string;
  /** Whether the client sent redirect_uri, or it was its single registered one. */
  given: boolean;
}

/**
 * Step one of /oauth/authorize: the client and its redirect URI. A failure here must never redirect
 * (RFC 6749 §4.1.2.1): the page shows it instead.
 */
export async function resolveRedirectTarget(
  deps: SignInDeps,
  org: Org,
  params: { client_id?: string | undefined; redirect_uri?: string | undefined },
): Promise<RedirectTarget> {
  const clientId = params.client_id ?? fail('invalid_request', 'client_id is missing');
  const client = await signInClient(deps, org, clientId);
  if (params.redirect_uri === undefined) {
    // RFC 6749 §3.1.2.3: may be omitted when exactly one is registered.
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    if (only === undefined) return fail('invalid_request', 'redirect_uri is missing');
    return { client, redirectUri: only, given: false };
  }
  const redirectUri = findRedirectUri(client, params.redirect_uri);
  if (redirectUri === null)
    return fail('invalid_request', 'redirect_uri is not registered for this application');
  return { client, redirectUri, given: true };
}
