import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf } from '../opened.js';
import type { Database } from '../schema.js';
import { type ListWindow, readDirection, type WindowRead } from './list-window.js';

/**
 * A search's matches are counted up to this many (1% of a million users). A search finding more has
 * no exact total: its pages are read in the list's order from the start, and its total is a lower
 * bound (the list's `Link` then has no `last`; docs/decisions.md).
 */
export const COUNTED_MATCHES = 10_000;

/** `q` as a LIKE pattern matching it anywhere, lower-case, with `%`, `_` and `\` taken literally. */
export const containing = (q: string): string => `%${q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** The searched texts of `user_search_rows`: the email's key, first and last name, lower-cased. */
const SEARCHED = ['email', 'first_name', 'last_name'] as const;

/** A query of an org's matching users, selecting each one's `id` and `created_at`, and how to order it. */
interface Matches {
  // biome-ignore lint/suspicious/noExplicitAny: the tables differ by access path; only these two are selected
  ids: SelectQueryBuilder<Database, any, { id: string; created_at: number }>;
  /** The columns of the list's order: `created_at`, then the user's id. */
  order: readonly [string, string];
}

const ORDER = ['user_search_rows.created_at', 'user_search_rows.user_id'] as const;

/**
 * The org's users whose email, first or last name contains `q`, in the case rule of the database's
 * `lower()` and `like` (users.ts), read from `user_search_rows` (migrations 057 and 058): each user's
 * texts as `lower()` makes them, so `like` on them is the users' `lower(…) like`. `through` says how:
 * - `index`: through the trigram index (SQLite: the FTS5 table, where a phrase of `q`'s trigrams in a
 *   text is that text containing `q`, for a `q` of three or more characters; PostgreSQL: the planner
 *   picks the `pg_trgm` indexes where they help);
 * - `order`: in the list's order, where a broad search finds a page soon (PostgreSQL tests with
 *   `strpos`, the same as `like '%q%'`, which the trigram indexes cannot answer, so the planner never
 *   reads every match through them to sort them).
 */
function matches(db: Db, orgId: string, q: string, through: 'index' | 'order'): Matches {
  const lower = q.toLowerCase();
  const postgres = dialectOf(db) === 'postgres';
  if (!postgres && through === 'index' && [...lower].length >= 3) {
    const phrase = `"${lower.replaceAll('"', '""')}"`;
    // CROSS JOIN keeps SQLite's join order: the index first, then each match's row.
    const ids = db
      .selectFrom('user_search')
      .crossJoin('user_search_rows')
      .select(['user_search_rows.user_id as id', 'user_search_rows.created_at as created_at'])
      .where(sql<boolean>`user_search match ${phrase}`)
      .whereRef('user_search_rows.row', '=', 'user_search.rowid')
      .where('user_search_rows.org_id', '=', orgId);
    return { ids, order: ORDER };
  }
  const pattern = containing(q);
  const test = (column: (typeof SEARCHED)[number]) => {
    const text = sql.ref(`user_search_rows.${column}`);
    return postgres && through === 'order'
      ? sql<boolean>`strpos(${text}, ${lower}) > 0`
      : sql<boolean>`${text} like ${pattern} escape '\\'`;
  };
  const ids = db
    .selectFrom('user_search_rows')
    .select(['user_search_rows.user_id as id', 'user_search_rows.created_at as created_at'])
    .where('user_search_rows.org_id', '=', orgId)
    .where((eb) => eb.or(SEARCHED.map(test)));
  return { ids, order: ORDER };
}

/** The ids of `read` of `found`, in the read's direction of the list's order. */
function windowOf(found: Matches, read: WindowRead) {
  const direction = readDirection(read);
  const [createdAt, id] = found.order;
  return found.ids
    .clearSelect()
    .select(sql.ref<string>(id).as('id'))
    .orderBy(sql.ref(createdAt), direction)
    .orderBy(sql.ref(id), direction)
    .limit(read.limit)
    .offset(read.offset);
}

/**
 * The ids of `window` of an org's users matching `q` (the ids, a query of them, or null when there
 * are none), oldest first, and how many match. One statement reads up to COUNTED_MATCHES + 1 matches
 * through the trigram index, counts them and, when they are all (at most COUNTED_MATCHES), sorts them
 * and gives the window: the total is exact. Past COUNTED_MATCHES the search matches a large share of
 * the org: the page is read in the list's order from the start (at least one match in every hundred
 * rows read), one row longer than the window to tell whether another page follows, and `total` is a
 * lower bound (`exact` false).
 */
export async function searchPage(db: Db, orgId: string, q: string, window: ListWindow) {
  const first = matches(db, orgId, q, 'index').ids.limit(COUNTED_MATCHES + 1);
  const { rows } = await sql<{ n: number | string; id: string | null }>`
    with m as materialized ${first}
    select c.n, p.id from (select count(*) as n from m) c
    left join (select id, created_at from m order by created_at, id limit ${window.limit} offset ${window.offset}) p
      on true
    order by p.created_at, p.id`.execute(db);
  const counted = Number(rows[0]?.n ?? 0);
  if (counted <= COUNTED_MATCHES) {
    const ids = rows.flatMap((r) => (r.id === null ? [] : [r.id]));
    return { ids: ids.length === 0 ? null : ids, total: counted, exact: true };
  }
  const read: WindowRead = { reversed: false, offset: window.offset, limit: window.limit + 1 };
  return { ids: windowOf(matches(db, orgId, q, 'order'), read), total: counted, exact: false };
}
