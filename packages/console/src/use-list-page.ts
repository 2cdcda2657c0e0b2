import { listPage, type PageQuery, type Sent } from './api/lists.js';
import { orgHref } from './router.js';
import { useLoad } from './use-load.js';
import { useAddressPage } from './use-page.js';

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

/**
 * The same, with the page kept in the address of the org's `section` list (useAddressPage, so Back
 * returns to it): the page loaded, and where the pager goes.
 */
export function useAddressListPage<T>(
  org: string,
  section: string,
  fetchPage: (org: string, query: PageQuery) => Sent<T>,
) {
  const { page, go } = useAddressPage(orgHref(org, section));
  return { loaded: useListPage(org, page, fetchPage), go };
}
