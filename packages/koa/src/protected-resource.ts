import type { Middleware } from 'koa';

/**
 * Options of {@link protectedResource}: the members of this API's RFC 9728 metadata.
 *
 * @example
 * ```ts
 * const options: ProtectedResourceOptions = {
 *   resource: 'https://files.example.com/mcp',
 *   authorizationServers: ['https://acme.example.com/'],
 *   scopesSupported: ['files:read', 'files:write'],
 *   resourceName: 'Files',
 * };
 * ```
 */
export interface ProtectedResourceOptions {
  /** This API's resource indicator: an absolute http(s) URL without query or fragment. */
  readonly resource: string;
  /** The issuers whose tokens the API accepts (a Tessera org issuer, ending in `/`); at least one. */
  readonly authorizationServers: readonly string[];
  /** The scopes the API understands, as registered with its resource in Tessera. */
  readonly scopesSupported: readonly string[];
  /** A name for people (`resource_name`). */
  readonly resourceName?: string;
}

/** The middleware, with the address it serves the metadata at (for `authenticate`'s `resourceMetadata`). */
export type ProtectedResourceMiddleware = Middleware & { readonly metadataUrl: string };

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const OPTION_NAMES = new Set(['resource', 'authorizationServers', 'scopesSupported', 'resourceName']);
// RFC 6749 §3.3 scope-token.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Koa middleware serving this API's OAuth 2.0 Protected Resource Metadata (RFC 9728) at
 * `/.well-known/oauth-protected-resource` followed by the path of `resource` (RFC 9728 §3.1: for
 * `https://files.example.com/mcp`, `/.well-known/oauth-protected-resource/mcp`). `GET` and `HEAD` get
 * the document, readable from any origin (it is public and MCP clients may run in a browser); `OPTIONS`
 * gets a preflight answer; other methods `405`. Every other path goes on to the next middleware.
 *
 * Mount it before `authenticate`: the document is what a client without a token reads to find the
 * authorization server. Options are checked here (`TypeError` naming the option).
 *
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { authenticate, createVerifier, protectedResource, requireScopes } from '@tessera/koa';
 *
 * const resource = 'https://files.example.com/mcp';
 * const issuer = 'https://acme.example.com/';
 * const metadata = protectedResource({ resource, authorizationServers: [issuer], scopesSupported: ['files:read'] });
 * const app = new Koa();
 * app.use(metadata);
 * app.use(authenticate({ verify: createVerifier({ issuer, resource }), realm: 'files', resourceMetadata: metadata.metadataUrl }));
 * app.use(requireScopes('files:read'));
 * ```
 */
export function protectedResource(options: ProtectedResourceOptions): ProtectedResourceMiddleware {
  const { url, document } = checkOptions(options);
  const path = url.pathname === '/' ? WELL_KNOWN : `${WELL_KNOWN}${url.pathname}`;
  const body = JSON.stringify(document);

  const middleware: Middleware = async function tesseraProtectedResource(ctx, next) {
    if (ctx.path !== path) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, HEAD');
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD, OPTIONS');
      ctx.status = 405;
      return;
    }
    ctx.set('Content-Type', 'application/json');
    ctx.body = body;
  };
  return Object.assign(middleware, { metadataUrl: `${url.origin}${path}` });
}

function checkOptions(options: ProtectedResourceOptions): { url: URL; document: Record<string, unknown> } {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('protectedResource: options must be an object');
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) throw new TypeError(`protectedResource: unknown option "${name}"`);
  }
  const { resource, authorizationServers, scopesSupported, resourceName } = options;
  const url = typeof resource === 'string' ? parseHttpUrl(resource) : null;
  if (url === null || url.search !== '' || resource.includes('#') || resource.includes('?')) {
    throw new TypeError(
      'protectedResource: "resource" must be an absolute http(s) URL without query or fragment',
    );
  }
  if (
    !Array.isArray(authorizationServers) ||
    authorizationServers.length === 0 ||
    !authorizationServers.every(
      (issuer: unknown) => typeof issuer === 'string' && parseHttpUrl(issuer) !== null,
    )
  ) {
    throw new TypeError('protectedResource: "authorizationServers" must be a non-empty array of issuer URLs');
  }
  if (
    !Array.isArray(scopesSupported) ||
    !scopesSupported.every((scope: unknown) => typeof scope === 'string' && SCOPE_TOKEN.test(scope))
  ) {
    throw new TypeError('protectedResource: "scopesSupported" must be an array of scope names');
  }
  if (resourceName !== undefined && (typeof resourceName !== 'string' || resourceName.trim() === '')) {
    throw new TypeError('protectedResource: "resourceName" must be a non-empty string');
  }
  return {
    url,
    document: {
      resource,
      authorization_servers: [...authorizationServers],
      scopes_supported: [...scopesSupported],
      // Tokens are read from the Authorization header only (RFC 6750 §2.1).
      bearer_methods_supported: ['header'],
      ...(resourceName === undefined ? {} : { resource_name: resourceName }),
    },
  };
}

function parseHttpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    const plain = url.username === '' && url.password === '' && url.hash === '';
    return (url.protocol === 'https:' || url.protocol === 'http:') && plain ? url : null;
  } catch {
    return null;
  }
}
