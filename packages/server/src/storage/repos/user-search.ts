import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db.js';
import { dialectOf } from '../opened.js';
import type { Database } from '../schema.js';
import { pageIds } from './list-counts.js';
import { type ListWindow, nearerEnd, type WindowRead } from './list-window.js';
import { countRows } from './paged-rows.js';

/**
 * A search's matches are counted up to this many (1% of a million users). A search finding more has
 * no exact total: its pages are read in the list's order from the start, and its total is a lower
 * bound (the list's `Link` then has no `last`; docs/decisions.md).
 */
export const COUNTED_MATCHES = 10_000;

/** `q` as a LIKE pattern matching it anywhere, lower-case, with `%`, `_` and `\` taken literally. */
export const containing = (q: string): string => `%${q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** The searched texts: the email's lower-case key, first and last name. */
type Searched = 'email_key' | 'first_name' | 'last_name';

/** Whether a user row (of `users`) has `q` in its email, first or last name, in any case. */
function contains(q: string) {
  const pattern = containing(q);
  const like = (column: Searched) =>
    sql<boolean>`lower(coalesce(${sql.ref(`users.${column}`)}, '')) like ${pattern} escape '\\'`;
  return (eb: ExpressionBuilder<Database, 'users'>) =>
    eb.or([like('email_key'), like('first_name'), like('last_name')]);
}

/** An org's users whose email, first or last name contains `q` (any case), as the planner reads them. */
const matching = (db: Db, orgId: string, q: string) =>
  db.selectFrom('users').where('users.org_id', '=', orgId).where(contains(q));

/**
 * On SQLite, the same users found through migration 057's trigram index: the rows whose texts hold
 * `q`'s trigrams in a row (a phrase of them), each checked with the same `like` as `matching`, so
 * the index only narrows the rows read. The trigram tokenizer needs three characters; null for a
 * shorter `q` (those are read as `matching` reads them).
 */
function indexed(db: Db, orgId: string, q: string) {
  const lower = q.toLowerCase();
  if (dialectOf(db) !== 'sqlite' || [...lower].length < 3) return null;
  const phrase = `"${lower.replaceAll('"', '""')}"`;
  // CROSS JOIN keeps SQLite's join order: the index first, then each row's key, then the user.
  return db
    .selectFrom('user_search')
    .crossJoin('user_search_rows')
    .crossJoin('users')
    .where(sql<boolean>`user_search match ${phrase}`)
    .whereRef('user_search_rows.row', '=', 'user_search.rowid')
    .where('user_search_rows.org_id', '=', orgId)
    .whereRef('users.id', '=', 'user_search_rows.user_id')
    .where(contains(q));
}

/**
 * The ids of `window` of an org's users matching `q` (a query, null past the end), oldest first, and
 * how many match. The matches are counted up to COUNTED_MATCHES + 1 (through the trigram index where
 * there is one). Up to COUNTED_MATCHES the count is exact and the page is read from its nearer end
 * among the matches. Past it the search matches a large share of the org: the page is read in the
 * list's order from the start (at least one match in every hundred rows read), one row longer than
 * the window to tell whether another page follows, and `total` is a lower bound (`exact` false).
 */
export async function searchPage(db: Db, orgId: string, q: string, window: ListWindow) {
  const found = indexed(db, orgId, q) ?? matching(db, orgId, q);
  const counted = await countRows(
    db.selectFrom(
      found
        .select(sql.lit(1).as('one'))
        .limit(COUNTED_MATCHES + 1)
        .as('m'),
    ),
  );
  if (counted <= COUNTED_MATCHES) {
    const read = nearerEnd(counted, window);
    const ids = read === null ? null : pageIds(found.select('users.id'), read, null);
    return { ids, total: counted, exact: true };
  }
  const read: WindowRead = { reversed: false, offset: window.offset, limit: window.limit + 1 };
  return {
    ids: pageIds(inListOrder(db, orgId, q).select('users.id'), read, null),
    total: counted,
    exact: false,
  };
}

/**
 * The org's users matching `q`, to be read in the list's order (the `(org_id, created_at, id)` index of
 * migration 029), stopping at the page. On PostgreSQL the test is written as `strpos` (for a pattern
 * `%q%` the same as `like`), which the trigram indexes cannot answer: the planner then never reads
 * every match of a broad search through them to sort them.
 */
function inListOrder(db: Db, orgId: string, q: string) {
  if (dialectOf(db) !== 'postgres') return matching(db, orgId, q);
  const needle = q.toLowerCase();
  const has = (column: Searched) =>
    sql<boolean>`strpos(lower(coalesce(${sql.ref(`users.${column}`)}, '')), ${needle}) > 0`;
  return db
    .selectFrom('users')
    .where('users.org_id', '=', orgId)
    .where((eb) => eb.or([has('email_key'), has('first_name'), has('last_name')]));
}
