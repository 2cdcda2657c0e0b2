import { fail } from '../errors.js';
import type { Client } from '../types.js';
import { isHttpsOrLoopbackHttp } from './redirect-uris.js';

/** Most origins one client may list (as many as redirect URIs). */
export const MAX_ALLOWED_ORIGINS = 20;

/** `scheme://host[:port]` and nothing after it: no path, not even `/`, no query, no fragment. */
const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]+$/i;

export const ORIGIN_RULE =
  'must be an origin, scheme://host[:port] with nothing after it: https, or http on localhost, 127.0.0.1 or [::1]';

/**
 * The one rule for an allowed origin, whoever sets it (the management API, the console, the CLI):
 * `scheme://host[:port]` only, https or http on a loopback host (the redirect URIs' rule). Returns
 * the origin as browsers send it in `Origin` (lowercase host, no default port), or null when refused.
 */
export function canonicalOrigin(origin: string): string | null {
  if (!ORIGIN_SHAPE.test(origin)) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  return isHttpsOrLoopbackHttp(url) ? url.origin : null;
}

/** Checked and deduplicated allowed origins; a refused one is `invalid_body` naming it. */
export function checkAllowedOrigins(origins: readonly string[]): string[] {
  if (origins.length > MAX_ALLOWED_ORIGINS) {
    fail('client.allowed_origins.too_many', `a client has at most ${MAX_ALLOWED_ORIGINS} allowed origins`);
  }
  const checked = origins.map(
    (o) =>
      canonicalOrigin(o) ?? fail('client.allowed_origin.invalid', `allowed origin "${o}" ${ORIGIN_RULE}`),
  );
  return [...new Set(checked)];
}

/** The origins of redirect URIs, once each, in order: a client's default allowed origins. */
export function originsOfUris(uris: readonly string[]): string[] {
  const origins: string[] = [];
  for (const uri of uris) {
    try {
      const { origin } = new URL(uri);
      if (origin !== 'null' && !origins.includes(origin)) origins.push(origin);
    } catch {
      // A stored redirect URI always parses; a metadata document's that does not names no origin.
    }
  }
  return origins;
}

/** The origins CORS answers for a client: its explicit list, else its redirect URIs' origins. */
export const allowedOriginsOf = (client: Pick<Client, 'redirectUris' | 'allowedOrigins'>): string[] =>
  client.allowedOrigins ?? originsOfUris(client.redirectUris);
