import { listEvents as list, type Verb } from '../../domain/audit/index.js';
import { AuditEntryList, EventsQuery } from './api-schemas.js';
import { endpoint } from './endpoint.js';
import { apiError, badQuery, MANAGEMENT, ORG, unauthorized } from './responses.js';

/** The filters in the order the Link URLs carry them. */
const FILTERS = ['entity', 'verb', 'actor_id', 'key_prefix', 'from', 'to'] as const;

/**
 * GET /organizations/{org}/events: the org's audit log, newest first, for owners (anyone else,
 * members included, gets 404). Paging in the `Link` header (http/link-header.ts).
 */
export const listEvents = endpoint(
  {
    ...MANAGEMENT,
    scope: 'events:read',
    who: 'owners, members 404',
    method: 'get',
    path: '/organizations/:org/events',
    operationId: 'listEvents',
    summary: 'The org’s audit log, newest first, filtered and paged',
    description:
      'Any parameter not listed, or given twice, is `invalid_query`. Paging is in the `Link` header ' +
      '(`first`, `prev`, `next`, `last`; absent when every entry fits on one page).',
    params: ORG,
    query: EventsQuery,
    responses: {
      200: {
        description: 'one page of entries',
        schema: AuditEntryList,
        headers: { link: 'RFC 8288 relations first, prev, next, last, each keeping the filters' },
      },
      400: badQuery,
      401: unauthorized,
      404: apiError('`not_found`: not an owner (members too), or no such org'),
    },
  },
  async ({ deps, caller, query, page }) => {
    const found = await list(deps, caller.org, {
      perPage: query.per_page,
      page: query.page,
      entity: query.entity ?? null,
      verb: (query.verb as Verb | undefined) ?? null,
      actorId: query.actor_id ?? null,
      keyPrefix: query.key_prefix ?? null,
      from: query.from ?? null,
      to: query.to ?? null,
    });
    return page(found.entries, found.total, FILTERS);
  },
);
