import type { Filter } from 'scim2-parse-filter';
import type { RowWindow } from '../paging.js';
import { matches, parseFilter } from './filter.js';

/** Most resources in one list answer (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 200;
/** Most resources a filter no index serves is evaluated over (beyond: 400 `tooMany`, RFC 7644 §3.12). */
export const MAX_SCAN = 20_000;
/** Rows read per batch while a filter no index serves is evaluated. */
export const SCAN_BATCH = 500;

/** What a list asks for (RFC 7644 §3.4.2): a filter, the 1-based index of its first resource, how many. */
export interface ListQuery {
  filter: string | undefined;
  startIndex: number;
  count: number;
}

/** One page of a list: how many resources match in all, and the page's, as answered. */
export interface ListPage {
  total: number;
  resources: Record<string, unknown>[];
}

/** Where a resource type's list is read from. */
export interface ListSource {
  /** How many resources the directory holds of the type. */
  count(): Promise<number>;
  /** The resources of a window of them all, in creation order, as answered. */
  window(window: RowWindow): Promise<Record<string, unknown>[]>;
  /**
   * The resources that may match `filter`, in creation order and in batches (narrowed by an
   * index where the filter allows; refused when it must read too many).
   */
  scan(filter: Filter): AsyncIterable<Record<string, unknown>[]>;
}

/**
 * A page of the directory's resources of a type (RFC 7644 §3.4.2): without a filter, a window of
 * them all; with one, every resource the source scans is held to it and the page taken from the
 * matches, counted in full.
 */
export async function listPage(query: ListQuery, source: ListSource): Promise<ListPage> {
  const window = { offset: query.startIndex - 1, limit: Math.min(query.count, MAX_RESULTS) };
  if (query.filter === undefined || query.filter.trim() === '') {
    const total = await source.count();
    return { total, resources: window.limit === 0 ? [] : await source.window(window) };
  }
  const filter = parseFilter(query.filter);
  let total = 0;
  const resources: Record<string, unknown>[] = [];
  for await (const batch of source.scan(filter)) {
    for (const resource of batch) {
      if (!matches(resource, filter)) continue;
      if (total >= window.offset && resources.length < window.limit) resources.push(resource);
      total += 1;
    }
  }
  return { total, resources };
}
