import { isLoopbackHost } from '../loopback.js';
import type { Client } from '../types.js';

/** Longest redirect URI a client may register, and most a registration may list. */
export const MAX_REDIRECT_URI_LENGTH = 2000;
export const MAX_REDIRECT_URIS = 20;

/**
 * The hosts a redirect URI (or a logo) may use with plain http, as URL.hostname spells them: the
 * contract's own list (Registered client, `redirect_uris`), three of the names loopback.ts counts as
 * loopback, not all of them.
 */
const LOOPBACK_REDIRECT_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a redirect URI's host (URL.hostname, so IPv6 in brackets) is loopback: the hosts on
 * which plain http is allowed, and on which a registered URI matches any port (RFC 8252 §7.3).
 */
export const isLoopbackRedirectHost = (hostname: string): boolean =>
  LOOPBACK_REDIRECT_HOSTS.has(hostname) && isLoopbackHost(hostname);

/** https, or http on a loopback redirect host: the URLs a browser is sent to or loads from. */
export const isHttpsOrLoopbackHttp = (url: URL): boolean =>
  url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackRedirectHost(url.hostname));

/** What is wrong with a redirect URI, by kind, and the rule it breaks worded to follow the URI's name. */
export interface RedirectUriProblem {
  kind: 'too_long' | 'fragment' | 'not_absolute' | 'scheme' | 'http_not_loopback' | 'credentials';
  rule: string;
}

const HTTPS_OR_LOOPBACK = 'must be https, or http on localhost, 127.0.0.1 or [::1]';

/**
 * The one rule for a redirect URI a client registers, whoever registers it (POST /oauth/register,
 * `tessera client create`): at most 2,000 characters; no fragment (RFC 6749 §3.1.2), the empty
 * one (a bare `#`) included; absolute; https, or http on localhost, 127.0.0.1 or [::1] (RFC 8252
 * §7.3), so no private-use scheme; no user name or password. Null when `uri` keeps it.
 */
export function redirectUriProblem(uri: string): RedirectUriProblem | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) {
    return { kind: 'too_long', rule: `must be at most ${MAX_REDIRECT_URI_LENGTH} characters` };
  }
  if (uri.includes('#')) return { kind: 'fragment', rule: 'must not have a fragment' };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { kind: 'not_absolute', rule: 'is not an absolute URL' };
  }
  if (!isHttpsOrLoopbackHttp(url)) {
    return { kind: url.protocol === 'http:' ? 'http_not_loopback' : 'scheme', rule: HTTPS_OR_LOOPBACK };
  }
  if (url.username || url.password) return { kind: 'credentials', rule: 'must not carry credentials' };
  return null;
}

function loopbackWithoutPort(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!isLoopbackRedirectHost(url.hostname) || url.username || url.password || url.hash) return null;
  url.port = '';
  return url.href;
}

/**
 * Exact string comparison (RFC 9700 §4.1.3), with the one exception of RFC 8252 §7.3: a native
 * app's loopback redirect URI matches on any port, because the app picks a free port at run time.
 */
function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = loopbackWithoutPort(registered);
  return a !== null && a === loopbackWithoutPort(requested);
}

export function findRedirectUri(client: Client, requested: string): string | null {
  return client.redirectUris.some((r) => redirectUriMatches(r, requested)) ? requested : null;
}
