import { useState } from 'preact/hooks';
import { pageIn } from './api/client.js';
import { navigate, useLocation } from './router.js';

/**
 * The page of a list kept in the address (`?page=`), so Back returns to it: the page number, and where
 * the pager goes with a `Link` relation's path.
 */
export function useAddressPage(listHref: string): { page: number; go: (path: string) => void } {
  const { query } = useLocation();
  const page = Number(query.get('page') ?? '0') || 0;
  const go = (path: string) => {
    const to = pageIn(path);
    navigate(to === 0 ? listHref : `${listHref}?page=${to}`);
  };
  return { page, go };
}

/** The page of a list kept on the screen only: the page number, where the pager goes, and back to the first. */
export function usePage(): { page: number; go: (path: string) => void; first: () => void } {
  const [page, setPage] = useState(0);
  return { page, go: (path) => setPage(pageIn(path)), first: () => setPage(0) };
}
