import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Verb } from '../../domain/audit/audit.js';
import type { Deps } from '../../domain/context.js';
import { listEvents } from '../../domain/audit/events.js';
import { strictQuery } from './api-input.js';
import { EventsQuery } from './api-schemas.js';
import { pageLinks } from '../link-header.js';
import { ownerCaller } from './owner-caller.js';

/** The filters in the order the Link URLs carry them. */
const FILTERS = ['entity', 'verb', 'actor_id', 'key_prefix', 'from', 'to'] as const;

/**
 * Where this list lives: the console's public address (TESSERA_URL; the management API is served
 * there only, and a `Host` header behind a proxy or beside the loopback `host` override may name
 * something else), then the path as the caller wrote it, with their `{org}` (id or slug).
 */
function listUrl(deps: Deps, request: FastifyRequest): string {
  const path = (request.raw.url ?? '').split('?')[0] as string;
  return `${deps.config.baseUrl}${path}`;
}

/**
 * GET /organizations/{org}/events: the org's audit log, newest first, for owners (anyone else,
 * members included, gets 404). Paging in the `Link` header (http/link-header.ts).
 */
export function eventRoutes(app: FastifyInstance, deps: Deps) {
  app.get<{ Params: { org: string } }>('/organizations/:org/events', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'not_found');
    const transport = deps.config.loopback ? ['host'] : [];
    const { query, given } = strictQuery(EventsQuery, request, transport);
    const page = await listEvents(deps, org, {
      perPage: query.per_page,
      page: query.page,
      entity: query.entity ?? null,
      verb: (query.verb as Verb | undefined) ?? null,
      actorId: query.actor_id ?? null,
      keyPrefix: query.key_prefix ?? null,
      from: query.from ?? null,
      to: query.to ?? null,
    });
    const asGiven = (names: readonly string[]) =>
      names.flatMap((name) => {
        const value = given.get(name);
        return value === undefined ? [] : [[name, value] as const];
      });
    const link = pageLinks({
      base: listUrl(deps, request),
      filters: asGiven(FILTERS),
      trailing: asGiven(transport),
      page: query.page,
      perPage: query.per_page,
      total: page.total,
    });
    reply.header('cache-control', 'no-store');
    if (link !== null) reply.header('link', link);
    return page.entries;
  });
}
