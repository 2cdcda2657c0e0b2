import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';
import { ORG_PATH_SEGMENT, orgPathOf, SLUG_IN_ADDRESS } from '../domain/issuers.js';

/**
 * Path issuers (TESSERA_ISSUER_STYLE=path): every org endpoint lives under `/o/<slug>/` on the base
 * host. Before routing, the prefix is taken off the URL and the slug kept beside the request, so the
 * routes are the same ones host issuers serve, and org-routing.ts reads the org from here instead
 * of from `Host`. Discovery is also answered where RFC 8414 §3.1 puts it for an issuer with a path,
 * the well-known name inserted before the path (`/.well-known/oauth-authorization-server/o/<slug>`,
 * the same for `openid-configuration`); OIDC Discovery's appended form
 * (`/o/<slug>/.well-known/openid-configuration`) is an ordinary path under the prefix.
 */
const slugs = new WeakMap<IncomingMessage, string>();

const WELL_KNOWN_INSERTED = new RegExp(
  `^/\\.well-known/(oauth-authorization-server|openid-configuration)/${ORG_PATH_SEGMENT}/([^/?]+)/?(\\?.*)?$`,
);
const UNDER_PREFIX = new RegExp(`^/${ORG_PATH_SEGMENT}/([^/?]+)(/[^?]*)?(\\?.*)?$`);

/** The URL routing sees for a raw request: the org's prefix taken off, or the URL as it came. */
export function stripOrgPath(config: Config, raw: IncomingMessage): string {
  const url = raw.url ?? '/';
  if (config.issuerStyle !== 'path') return url;
  const inserted = WELL_KNOWN_INSERTED.exec(url);
  if (inserted !== null && SLUG_IN_ADDRESS.test(inserted[2] ?? '')) {
    slugs.set(raw, inserted[2] ?? '');
    return `/.well-known/${inserted[1]}${inserted[3] ?? ''}`;
  }
  const under = UNDER_PREFIX.exec(url);
  if (under !== null && SLUG_IN_ADDRESS.test(under[1] ?? '')) {
    slugs.set(raw, under[1] ?? '');
    return `${under[2] || '/'}${under[3] ?? ''}`;
  }
  return url;
}

/** The slug this request named in its path (`/o/<slug>/…`), or null: it addressed the base host's own routes. */
export const pathSlugOf = (request: FastifyRequest): string | null => slugs.get(request.raw) ?? null;

/** What a link to another page of this request's org starts with: `/o/<slug>` under path issuers, else ''. */
export function orgPathPrefix(request: FastifyRequest): string {
  const slug = pathSlugOf(request);
  return slug === null ? '' : orgPathOf(slug);
}
