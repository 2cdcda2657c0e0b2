/** A window of a list: `limit` rows after skipping `offset`. */
export interface ListWindow {
  offset: number;
  limit: number;
}

/** How to read a window: in the list's own order, or `reversed` (skipping `offset` from its far end). */
export interface WindowRead {
  reversed: boolean;
  offset: number;
  limit: number;
}

/**
 * The same rows as `window` of a list of `total` rows, read from the end nearer to them: the last
 * page of a million rows then skips none instead of a million. Null when the window is past the end.
 * Exact when the list's order is total (every list orders by a unique id last).
 */
export function nearerEnd(total: number, window: ListWindow): WindowRead | null {
  if (window.offset >= total || window.limit <= 0) return null;
  const limit = Math.min(window.limit, total - window.offset);
  const fromEnd = total - window.offset - limit;
  return fromEnd < window.offset
    ? { reversed: true, offset: fromEnd, limit }
    : { reversed: false, offset: window.offset, limit };
}

/** The direction to sort by for `read`, given the list's own direction. */
export const readDirection = (read: WindowRead, own: 'asc' | 'desc' = 'asc'): 'asc' | 'desc' =>
  read.reversed === (own === 'asc') ? 'desc' : 'asc';

/** Rows read by `read`, in the list's own order. */
export const inListOrder = <T>(read: WindowRead, rows: T[]): T[] => (read.reversed ? rows.reverse() : rows);
