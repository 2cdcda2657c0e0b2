import type { FastifyInstance } from 'fastify';
import type { Verb } from '../../domain/audit/audit.js';
import { listEvents } from '../../domain/audit/events.js';
import type { Deps } from '../../domain/context.js';
import { EventsQuery } from './api-schemas.js';
import { ownerCaller } from './owner-caller.js';
import { pagedQuery, sendPage } from './paged-list.js';

/** The filters in the order the Link URLs carry them. */
const FILTERS = ['entity', 'verb', 'actor_id', 'key_prefix', 'from', 'to'] as const;

/**
 * GET /organizations/{org}/events: the org's audit log, newest first, for owners (anyone else,
 * members included, gets 404). Paging in the `Link` header (http/link-header.ts).
 */
export function eventRoutes(app: FastifyInstance, deps: Deps) {
  app.get<{ Params: { org: string } }>('/organizations/:org/events', async (request, reply) => {
    const { org } = await ownerCaller(deps, request, 'not_found', 'events:read');
    const list = pagedQuery(deps, EventsQuery, request);
    const { query } = list;
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
    return sendPage(deps, request, reply, { ...list, entries: page.entries, total: page.total }, FILTERS);
  });
}
