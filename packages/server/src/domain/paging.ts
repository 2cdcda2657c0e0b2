/** A page a list is asked for: its number, from 0, and how many entries a page holds. */
export interface PageAsked {
  readonly page: number;
  readonly perPage: number;
}

/** The rows a page covers, as storage reads them: `limit` rows after the first `offset`. */
export interface RowWindow {
  offset: number;
  limit: number;
}

export const windowOf = (q: PageAsked): RowWindow => ({ offset: q.page * q.perPage, limit: q.perPage });

/** One page of a short list read whole (an org has few of these), and how long the list is. */
export function pageOfAll<T>(all: readonly T[], q: PageAsked): { entries: T[]; total: number } {
  const { offset, limit } = windowOf(q);
  return { entries: all.slice(offset, offset + limit), total: all.length };
}
