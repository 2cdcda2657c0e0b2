import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Deps } from '../../domain/context.js';
import { transportParameters } from '../host-override.js';
import { pageLinks } from '../link-header.js';
import { strictQuery } from './api-input.js';

/** What a paged list query carries: the page and its size, as the events list reads them. */
export interface PageQuery {
  page: number;
  per_page: number;
}

/**
 * The query of a paged list (`page`, `per_page` ∈ {1, 50, 100}, and the list's own filters),
 * validated strictly, with the parameters as the caller wrote them (for the Link URLs).
 */
export function pagedQuery<S extends z.ZodType<PageQuery, unknown>>(
  deps: Deps,
  schema: S,
  request: FastifyRequest,
) {
  // The loopback `host` override rides along in every Link URL instead of being a filter.
  const transport = transportParameters(deps.config);
  const { query, given } = strictQuery(schema, request, transport);
  return { query: query as z.output<S>, given, transport };
}

/**
 * Sends one page of a list: the entries as the body, `Cache-Control: no-store`, and the RFC 8288
 * `Link` header (first/prev/next/last) keeping `filters` (in that order) when there is more than
 * one page. The URLs are on the console's public address, with the caller's `{org}` as written.
 */
export function sendPage<T>(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  list: {
    entries: T[];
    total: number;
    query: PageQuery;
    given: Map<string, string>;
    transport: readonly string[];
  },
  filters: readonly string[] = [],
): T[] {
  const asGiven = (names: readonly string[]) =>
    names.flatMap((name) => {
      const value = list.given.get(name);
      return value === undefined ? [] : [[name, value] as const];
    });
  const path = (request.raw.url ?? '').split('?')[0] as string;
  const link = pageLinks({
    base: `${deps.config.baseUrl}${path}`,
    filters: asGiven(filters),
    trailing: asGiven(list.transport),
    page: list.query.page,
    perPage: list.query.per_page,
    total: list.total,
  });
  reply.header('cache-control', 'no-store');
  if (link !== null) reply.header('link', link);
  return list.entries;
}
