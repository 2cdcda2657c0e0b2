import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import type { Deps } from '../domain/context.js';
import { CREDENTIALS_MAX_AGE_MS } from '../domain/credential-cache.js';
import { orgOfCustomDomain } from '../domain/custom-domains/index.js';
import { CONSOLE_SLUG, orgOfSlug } from '../domain/directory/index.js';
import { fail } from '../domain/errors.js';
import { isLoopbackHost } from '../domain/loopback.js';
import type { Org } from '../domain/types.js';
import { hostOverride } from './host-override.js';
import { pathSlugOf } from './org-path.js';

declare module 'fastify' {
  interface FastifyRequest {
    tesseraOrg?: Org;
  }
}

/** The host a request addresses: `Host`, or while TESSERA_URL is loopback, a `host` query override. */
export function requestHost(config: Config, request: FastifyRequest): string {
  const override = hostOverride(config, request);
  if (override !== null) return override.toLowerCase();
  return (request.headers.host ?? '').toLowerCase();
}

function portOf(host: string): string {
  const match = /:(\d+)$/.exec(host);
  return match?.[1] ?? '';
}

/**
 * Which org a host names: the base host is the console; `${slug}.${issuerDomain}` is that org
 * (with host issuers only: with path issuers no host but the base one is an org's).
 * In loopback development any loopback name on the base port also reaches the console.
 */
export function slugOfHost(config: Config, host: string): string | null {
  if (host === config.baseHost) return CONSOLE_SLUG;
  const suffix = `.${config.issuerDomain}`;
  if (config.issuerStyle === 'host' && host.endsWith(suffix)) {
    const slug = host.slice(0, -suffix.length);
    return /^[a-z0-9-]+$/.test(slug) ? slug : null;
  }
  if (config.loopback) {
    const name = host.replace(/:\d+$/, '');
    if (isLoopbackHost(name) && !name.includes('.localhost') && portOf(host) === portOf(config.baseHost)) {
      return CONSOLE_SLUG;
    }
  }
  return null;
}

/**
 * Which org a request is for. With host issuers, its host's; with path issuers, the slug of its
 * `/o/<slug>/` prefix (org-path.ts) on the base host, or the console on the base host without one.
 * The console is never reached under a prefix: `/o/console/` is no org's.
 */
export function slugOfRequest(config: Config, request: FastifyRequest): string | null {
  const host = slugOfHost(config, requestHost(config, request));
  if (config.issuerStyle === 'host') return host;
  const slug = pathSlugOf(request);
  if (host !== CONSOLE_SLUG) return null;
  return slug === null ? CONSOLE_SLUG : slug === CONSOLE_SLUG ? null : slug;
}

/**
 * The custom domain a request addresses (DESIGN §21), or null: its host is Tessera's own (the base
 * host, an org host), carries another port than org hosts are served on, is no host name, or the
 * request named a path issuer's prefix (a custom domain's issuer has none). Whether the name
 * reaches an org is the domain's to say (custom-domains/issuer-hosts.ts): only a verified domain
 * an issuer lives on, or left a moment ago, does.
 */
export function customDomainOfRequest(config: Config, request: FastifyRequest): string | null {
  const host = requestHost(config, request);
  if (host === config.baseHost || pathSlugOf(request) !== null) return null;
  const port = /:\d+$/.exec(config.issuerDomain)?.[0] ?? '';
  const hostPort = /:\d+$/.exec(host)?.[0] ?? '';
  if (hostPort !== port) return null;
  const name = host.slice(0, host.length - port.length);
  if (!/^[a-z0-9][a-z0-9.-]{0,252}$/.test(name) || name.endsWith('.localhost') || name === 'localhost')
    return null;
  const suffix = `.${config.issuerDomain.slice(0, config.issuerDomain.length - port.length)}`;
  return name.endsWith(suffix) ? null : name;
}

/**
 * What the token endpoint, the hot path, passes to orgOf: its org may come from the domain's org
 * cache (domain/directory/org-cache.ts), which drops an org when a change is committed, and after
 * this long at most when no change notification reaches it. Only what a token needs from the org
 * (its id, slug and whether it is the console: the issuer) is used there, and the client and the
 * signing key are still checked on every request.
 */
export const ORG_CACHE_TTL_MS = CREDENTIALS_MAX_AGE_MS;

/**
 * The org of this request, looked up once per request: by its host's slug, its path issuer's
 * prefix, or its custom domain (a request to a moved issuer's host is answered by
 * issuer-moves.ts before it gets here). Unknown hosts are 404. By default the
 * database is read; the token endpoint and the hosted pages pass ORG_CACHE_TTL_MS to take the org
 * from the domain's org cache when the runtime keeps one (Deps.orgs).
 */
export async function orgOf(
  deps: Deps,
  request: FastifyRequest,
  reuse: 0 | typeof ORG_CACHE_TTL_MS = 0,
): Promise<Org> {
  if (request.tesseraOrg) return request.tesseraOrg;
  const slug = slugOfRequest(deps.config, request);
  const cache = reuse > 0 ? deps.orgs : undefined;
  const domain = slug === null ? customDomainOfRequest(deps.config, request) : null;
  const org =
    slug !== null
      ? await orgOfSlug(deps.store, slug, cache)
      : domain !== null
        ? await orgOfCustomDomain(deps, domain)
        : null;
  if (!org) {
    return fail(
      'org.host.unknown',
      deps.config.issuerStyle === 'path' ? 'no organization at this address' : 'no organization at this host',
    );
  }
  request.tesseraOrg = org;
  return org;
}
