import { isLoopbackHost } from '../loopback.js';

/**
 * Where an OIDC provider's discovery document may send this service (DESIGN §17): every endpoint it
 * names that Tessera calls or sends people to must be on the issuer's own origin, or on a host the
 * connection lists in `allowedEndpointHosts` (Google's token endpoint is on oauth2.googleapis.com,
 * Entra's userinfo on graph.microsoft.com). The document is fetched, not trusted: without this rule
 * whoever answers for the issuer's discovery URL decides where the client secret (token endpoint) and
 * the people (authorization endpoint) go. A document breaking it is refused as a whole.
 */

/** The endpoints Tessera uses: checked, and the only URLs of the document it keeps. */
export const USED_ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'jwks_uri',
  'end_session_endpoint',
] as const;

/** Those a sign-in cannot do without. */
const REQUIRED_ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;

/** How many hosts a connection may list. */
export const MAX_ALLOWED_ENDPOINT_HOSTS = 20;

/**
 * Whether `url` is on the issuer's origin, or https (http on loopback, like the issuer) on a listed
 * host (`host` or `host:port`, as URL.host writes it). Credentials in the URL never pass.
 */
export function isAllowedEndpoint(issuer: string, allowedHosts: readonly string[], url: string): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.username !== '' || target.password !== '') return false;
  if (target.origin === new URL(issuer).origin) return true;
  const secure =
    target.protocol === 'https:' || (target.protocol === 'http:' && isLoopbackHost(target.hostname));
  return secure && allowedHosts.includes(target.host.toLowerCase());
}

/**
 * What is wrong with the endpoints of a discovery document, for the log (never shown to the person
 * signing in); null when they may be used.
 */
export function discoveredEndpointsProblem(
  issuer: string,
  allowedHosts: readonly string[],
  doc: Record<string, unknown>,
): string | null {
  for (const field of REQUIRED_ENDPOINTS)
    if (doc[field] === undefined) return `the discovery document names no ${field}`;
  for (const field of USED_ENDPOINTS) {
    const value = doc[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') return `${field} is not a URL`;
    if (!isAllowedEndpoint(issuer, allowedHosts, value))
      return `${field} ${value} is neither on the issuer's origin (${new URL(issuer).origin}) nor on a host of allowed_endpoint_hosts`;
  }
  return null;
}

/**
 * The document as openid-client gets it: the endpoints above (checked) and every field that is not
 * a URL of another endpoint (algorithms, methods, flags). Endpoints Tessera does not use (PAR,
 * revocation, introspection, registration, mTLS aliases…) are dropped, so nothing unchecked is ever
 * called.
 */
export function keptDiscovery(doc: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  const used = new Set<string>(USED_ENDPOINTS);
  for (const [key, value] of Object.entries(doc)) {
    const isEndpoint = key.endsWith('_endpoint') || key.endsWith('_uri') || key === 'mtls_endpoint_aliases';
    if (!isEndpoint || used.has(key)) kept[key] = value;
  }
  return kept;
}
