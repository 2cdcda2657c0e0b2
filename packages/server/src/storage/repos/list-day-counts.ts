import type { Db } from '../db.js';
import { type CountedList, LIST_DAY_MS } from '../migrations/031-list-day-counts.js';
import type { WindowRead } from './list-window.js';

/** Rows of a list created on one UTC day (`created_at` ÷ LIST_DAY_MS). */
export interface DayCount {
  day: number;
  n: number;
}

/** The org's rows of `list` per day (migration 031's triggers keep them), oldest day first; empty days dropped. */
export async function listDays(db: Db, list: CountedList, orgId: string): Promise<DayCount[]> {
  const rows = await db
    .selectFrom('list_day_counts')
    .select(['day', 'n'])
    .where('list', '=', list)
    .where('org_id', '=', orgId)
    .where('n', '>', 0)
    .orderBy('day')
    .execute();
  return rows.map((r) => ({ day: Number(r.day), n: Number(r.n) }));
}

export const totalOf = (days: readonly DayCount[]): number => days.reduce((sum, d) => sum + d.n, 0);

/**
 * Where `read` starts, for a list ordered by `created_at` (then a unique id): whole days before it,
 * from the end the read starts at, are skipped by their counts. Returns the bound on `created_at`
 * (`op`, `at`) that starts at the page's day and the offset left inside it: reading from that bound, in the
 * read's direction, with this offset gives the same rows as the plain offset from the list's end.
 * Null when the counts hold fewer rows than the offset (then the plain offset is read).
 */
export function seekDay(
  days: readonly DayCount[],
  read: WindowRead,
): { op: '<' | '>='; at: number; offset: number } | null {
  let skip = read.offset;
  const count = days.length;
  for (let i = 0; i < count; i++) {
    const d = days[read.reversed ? count - 1 - i : i] as DayCount;
    if (skip < d.n) {
      return read.reversed
        ? { op: '<', at: (d.day + 1) * LIST_DAY_MS, offset: skip }
        : { op: '>=', at: d.day * LIST_DAY_MS, offset: skip };
    }
    skip -= d.n;
  }
  return null;
}
