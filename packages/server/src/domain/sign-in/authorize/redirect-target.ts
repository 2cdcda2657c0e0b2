import { findRedirectUri } from '../../directory/redirect-uris.js';
import { fail } from '../../errors.js';
import type { Client } from '../../types.js';

/** Where errors may be sent: known only once the client and its redirect URI check out. */
export interface RedirectTarget {
  client: Client;
  redirectUri: string;
  /** Whether the client sent redirect_uri, or it was its single registered one. */
  given: boolean;
}

/**
 * Step one of /oauth/authorize, with the client (client.ts): its redirect URI, the one `given`
 * matched against its registration. A failure here must never redirect (RFC 6749 §4.1.2.1): the
 * page shows it instead.
 */
export function redirectTargetOf(client: Client, given: string | undefined): RedirectTarget {
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
