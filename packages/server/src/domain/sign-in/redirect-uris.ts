import type { Client } from '../types.js';

/** Longest redirect URI a client may register, and most a registration may list. */
export const MAX_REDIRECT_URI_LENGTH = 2000;
export const MAX_REDIRECT_URIS = 20;

/**
 * What every registered redirect URI must be, whoever registers it: at most 2,000 characters,
 * and without a fragment (RFC 6749 §3.1.2), the empty one (a bare `#`) included. Null when it is
 * fine; else the rule, worded to follow the URI's name.
 */
export function redirectUriShapeProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  if (uri.includes('#')) return 'must not have a fragment';
  return null;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a redirect URI's host (URL.hostname, so IPv6 in brackets) is loopback: the hosts the
 * spec lets plain http use, and on which a registered URI matches any port.
 */
export const isLoopbackRedirectHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname);

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
