import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db.js';
import type { Handle } from '../handle.js';
import { type CountedList, SPANS, type Span } from '../migrations/031-list-counts.js';
import { opened } from '../opened.js';
import { type ListWindow, nearerEnd, readDirection, type WindowRead } from './list-window.js';

/** Rows of a list created in one span (`bucket` = `created_at` ÷ the span's length). */
export interface SpanCount {
  bucket: number;
  n: number;
}

/** Where a page of a list ordered by `created_at` (then a unique id) starts: the bound on `created_at` and the offset past it. */
export interface Seek {
  op: '<' | '>=';
  at: number;
  offset: number;
}

/**
 * The org's rows of `list` per `span` (migration 031's triggers keep them), oldest first, within
 * `[from, to)` of buckets when given; spans left empty are dropped.
 */
async function spans(
  db: Db,
  list: CountedList,
  orgId: string,
  span: Span,
  range?: { from: number; to: number },
): Promise<SpanCount[]> {
  let query = db
    .selectFrom('list_counts')
    .select(['bucket', 'n'])
    .where('list', '=', list)
    .where('org_id', '=', orgId)
    .where('span', '=', span)
    .where('n', '>', 0);
  if (range) query = query.where('bucket', '>=', range.from).where('bucket', '<', range.to);
  const rows = await query.orderBy('bucket').execute();
  return rows.map((r) => ({ bucket: Number(r.bucket), n: Number(r.n) }));
}

/** The org's rows of `list` per UTC day, oldest day first: what the list's total and seek read. */
const listDays = (db: Db, list: CountedList, orgId: string) => spans(db, list, orgId, 'day');

const totalOf = (counts: readonly SpanCount[]): number => counts.reduce((sum, d) => sum + d.n, 0);

/**
 * The span of `counts` holding the row `offset` rows from the end `read` starts at, and the offset
 * left inside it; null when the counts hold fewer rows.
 */
function within(counts: readonly SpanCount[], read: WindowRead, offset: number) {
  let skip = offset;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[read.reversed ? counts.length - 1 - i : i] as SpanCount;
    if (skip < c.n) return { bucket: c.bucket, offset: skip };
    skip -= c.n;
  }
  return null;
}

const bound = (span: Span, bucket: number, read: WindowRead, offset: number): Seek =>
  read.reversed
    ? { op: '<', at: (bucket + 1) * SPANS[span], offset }
    : { op: '>=', at: bucket * SPANS[span], offset };

/**
 * Where `read` of the org's `list` starts: whole days before it (from the end the read starts at)
 * are skipped by their counts, then whole hours of its day, so the index walk starts at the page's
 * hour and skips only rows of that hour. Reading from the bound, in the read's direction, with the
 * offset gives the same rows as the plain offset from the list's end. `days` is listDays' answer.
 * Null when the counts hold fewer rows than the offset (then the plain offset is read).
 */
async function seekPage(
  db: Db,
  list: CountedList,
  orgId: string,
  days: readonly SpanCount[],
  read: WindowRead,
): Promise<Seek | null> {
  const day = within(days, read, read.offset);
  if (day === null) return null;
  if (day.offset === 0) return bound('day', day.bucket, read, 0);
  const perDay = SPANS.day / SPANS.hour;
  const hours = await spans(db, list, orgId, 'hour', {
    from: day.bucket * perDay,
    to: (day.bucket + 1) * perDay,
  });
  const hour = within(hours, read, day.offset);
  return hour === null
    ? bound('day', day.bucket, read, day.offset)
    : bound('hour', hour.bucket, read, hour.offset);
}

/**
 * How to read `window` of the org's `list` (ordered by `created_at`, then a unique id) from its
 * counts: the total, the read from the nearer end (null past the end, list-window.ts), and where
 * that read starts (null: at the plain offset). What the users and clients lists both do.
 */
export async function countedWindow(
  store: Handle,
  list: CountedList,
  orgId: string,
  window: ListWindow,
): Promise<{ total: number; read: WindowRead | null; seek: Seek | null }> {
  const db = opened(store);
  const days = await listDays(db, list, orgId);
  const total = totalOf(days);
  const read = nearerEnd(total, window);
  return { total, read, seek: read === null ? null : await seekPage(db, list, orgId, days, read) };
}

/**
 * The page of `read` from `ids` (a counted list's rows of one org, selecting `id`), in the read's
 * direction of `created_at`, then `id`: from `seek` when countedWindow gave one, else at the plain
 * offset. The users and clients lists read their rows by these ids.
 */
export function pageIds<DB, TB extends keyof DB, O>(
  ids: SelectQueryBuilder<DB, TB, O>,
  read: WindowRead,
  seek: Seek | null,
): SelectQueryBuilder<DB, TB, O> {
  const direction = readDirection(read);
  const createdAt = sql.ref<number>('created_at');
  const from = seek === null ? ids : ids.where(createdAt, seek.op, seek.at);
  return from
    .orderBy(createdAt, direction)
    .orderBy(sql.ref('id'), direction)
    .limit(read.limit)
    .offset(seek?.offset ?? read.offset);
}
