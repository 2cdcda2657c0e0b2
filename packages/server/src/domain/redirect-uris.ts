import type { Client } from './types.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function loopbackWithoutPort(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password || url.hash) return null;
  url.port = '';
  return url.href;
}

/**
 * Exact string comparison (RFC 9700 §4.1.3), with the one exception of RFC 8252 §7.3: a native
 * app's loopback redirect URI matches on any port, because the app picks a free port at run time.
 */
export function redirectUriMatches(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  const a = loopbackWithoutPort(registered);
  return a !== null && a === loopbackWithoutPort(requested);
}

export function findRedirectUri(client: Client, requested: string): string | null {
  return client.redirectUris.some((r) => redirectUriMatches(r, requested)) ? requested : null;
}
