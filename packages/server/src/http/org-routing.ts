import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { isLoopbackHost } from '../config/config.js';
import type { Deps } from '../domain/context.js';
import { fail } from '../domain/errors.js';
import { CONSOLE_SLUG } from '../domain/directory/orgs.js';
import type { Org } from '../domain/types.js';
import { findConsoleOrg, findOrgBySlug } from '../storage/repos/orgs.js';

declare module 'fastify' {
  interface FastifyRequest {
    tesseraOrg?: Org;
  }
}

/** The host a request addresses: `Host`, or while TESSERA_URL is loopback, a `host` query override. */
export function requestHost(config: Config, request: FastifyRequest): string {
  if (config.loopback) {
    const override = (request.query as Record<string, unknown> | undefined)?.host;
    if (typeof override === 'string' && override !== '') return override.toLowerCase();
  }
  return (request.headers.host ?? '').toLowerCase();
}

function portOf(host: string): string {
  const match = /:(\d+)$/.exec(host);
  return match?.[1] ?? '';
}

/**
 * Which org a host names: the base host is the console; `${slug}.${issuerDomain}` is that org.
 * In loopback development any loopback name on the base port also reaches the console.
 */
export function slugOfHost(config: Config, host: string): string | null {
  if (host === config.baseHost) return CONSOLE_SLUG;
  const suffix = `.${config.issuerDomain}`;
  if (host.endsWith(suffix)) {
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
 * How long the token endpoint may reuse an org it looked up by slug. Orgs are never renamed,
 * re-slugged or deleted today; within this window another process's change to an org's other
 * fields (name, allowSignup) is not seen by token requests. Only what a token needs from the org
 * (its id, slug and whether it is the console: the issuer) is used there, and the client and the
 * signing key are still read on every request, so a deleted org's clients stop at once anyway.
 * Unknown hosts are never cached: an org created a moment ago is found at once.
 */
export const ORG_CACHE_TTL_MS = 5000;
const ORG_CACHE_MAX = 1000;

/** Per database (tests run several runtimes in one process): slug → org and when it was read. */
const orgCaches = new WeakMap<object, Map<string, { org: Org; at: number }>>();

async function findOrgOfSlug(deps: Deps, slug: string, maxAgeMs: number): Promise<Org | null> {
  const read = () => (slug === CONSOLE_SLUG ? findConsoleOrg(deps.db) : findOrgBySlug(deps.db, slug));
  if (maxAgeMs <= 0) return read();
  let cache = orgCaches.get(deps.db);
  if (!cache) {
    cache = new Map();
    orgCaches.set(deps.db, cache);
  }
  const now = Date.now();
  const hit = cache.get(slug);
  if (hit && now - hit.at < maxAgeMs) return hit.org;
  const org = await read();
  if (org) {
    if (cache.size >= ORG_CACHE_MAX) cache.clear();
    cache.set(slug, { org, at: now });
  }
  return org;
}

/**
 * The org of this request, looked up once per request. Unknown hosts are 404. `maxAgeMs` lets a
 * hot path (the token endpoint) reuse a lookup that recent, see ORG_CACHE_TTL_MS; by default
 * the database is read.
 */
export async function orgOf(deps: Deps, request: FastifyRequest, maxAgeMs = 0): Promise<Org> {
  if (request.tesseraOrg) return request.tesseraOrg;
  const slug = slugOfHost(deps.config, requestHost(deps.config, request));
  const org = slug === null ? null : await findOrgOfSlug(deps, slug, maxAgeMs);
  if (!org) return fail('not_found', 'no organization at this host');
  request.tesseraOrg = org;
  return org;
}
