import { type SelectQueryBuilder, type Simplify, sql } from 'kysely';
import { inListOrder, type ListWindow, nearerEnd, readDirection } from './list-window.js';

/** How a list is ordered: by `by`, then by `unique` (so the order is total), in `own` direction. */
export interface ListOrder {
  by: string;
  unique: string;
  own?: 'asc' | 'desc';
}

/** The order most lists have: by creation, oldest first, then by id. */
export const OLDEST_FIRST: ListOrder = { by: 'created_at', unique: 'id' };

/** By creation, newest first, then by id. */
export const NEWEST_FIRST: ListOrder = { by: 'created_at', unique: 'id', own: 'desc' };

/** How many rows `rows` (a query of a list's rows, whatever it selects) has. */
export async function countRows<DB, TB extends keyof DB, O>(
  rows: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const { n } = await rows
    .clearSelect()
    .select(sql<number | string>`count(*)`.as('n'))
    .$castTo<{ n: number | string }>()
    .executeTakeFirstOrThrow();
  return Number(n);
}

/**
 * One window of a list and how many rows it has: `rows` (the list's rows, filtered, with what to
 * select) counted, then the window read from the end nearer to it (list-window.ts) in `order`,
 * returned in the list's own order. Empty past the end.
 */
export async function pageRows<DB, TB extends keyof DB, O>(
  rows: SelectQueryBuilder<DB, TB, O>,
  window: ListWindow,
  order: ListOrder,
): Promise<{ rows: Simplify<O>[]; total: number }> {
  const total = await countRows(rows);
  const read = nearerEnd(total, window);
  if (read === null) return { rows: [], total };
  const direction = readDirection(read, order.own);
  const page = await rows
    .orderBy(sql.ref(order.by), direction)
    .orderBy(sql.ref(order.unique), direction)
    .limit(read.limit)
    .offset(read.offset)
    .execute();
  return { rows: inListOrder(read, page), total };
}
