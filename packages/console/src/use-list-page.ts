import { listPage, type PageQuery, type Sent } from './api/lists.js';
import { useLoad } from './use-load.js';

/**
 * One page of one of the org's lists (`fetchPage`: its call, from api/lists), read again when the org or
 * the page changes.
 */
export function useListPage<T>(
  org: string,
  page: number,
  fetchPage: (org: string, query: PageQuery) => Sent<T>,
) {
  return useLoad(() => listPage(fetchPage(org, { page })), [org, page]);
}
