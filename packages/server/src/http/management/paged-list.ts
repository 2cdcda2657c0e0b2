import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { type ListTotal, pageLinks } from '../link-header.js';

/** What a paged list query carries: the page and its size, as the events list reads them. */
export interface PageQuery {
  page: number;
  per_page: number;
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
    total: ListTotal;
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
