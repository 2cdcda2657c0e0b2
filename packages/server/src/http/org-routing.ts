import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { isLoopbackHost } from '../config/config.js';
import type { Deps } from '../domain/context.js';
import { fail } from '../domain/errors.js';
import { CONSOLE_SLUG } from '../domain/orgs.js';
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

/** The org of this request, looked up once per request. Unknown hosts are 404. */
export async function orgOf(deps: Deps, request: FastifyRequest): Promise<Org> {
  if (request.tesseraOrg) return request.tesseraOrg;
  const slug = slugOfHost(deps.config, requestHost(deps.config, request));
  const org =
    slug === null
      ? null
      : slug === CONSOLE_SLUG
        ? await findConsoleOrg(deps.db)
        : await findOrgBySlug(deps.db, slug);
  if (!org) return fail('not_found', 'no organization at this host');
  request.tesseraOrg = org;
  return org;
}
