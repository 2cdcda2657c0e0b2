import { type Kysely, sql } from 'kysely';
import { extensionSchema } from './extensions.js';
import { isPostgres } from './is-postgres.js';

/** The three expressions `q` on the users list compares (storage/repos/users.ts `matching`). */
const SEARCHED = [
  ['users_search_email', 'email_key'],
  ['users_search_first_name', 'first_name'],
  ['users_search_last_name', 'last_name'],
] as const;

/**
 * Trigram indexes for `q` on the users list, on PostgreSQL: a substring search of three or more
 * characters is answered from them (a bitmap of the matching rows) instead of reading every user of
 * the org. What a search finds does not change: the query is the same `lower(…) like '%q%'`, and the
 * planner picks the index where it helps. A `q` of one or two characters, and one that matches most
 * users, is still a scan.
 *
 * The indexes need the `pg_trgm` extension (part of PostgreSQL's contrib, trusted: a role that may
 * create in the database installs it). It is installed into `public`, or used wherever it already
 * is; where it is not available or not allowed, this migration creates nothing and searches scan as
 * before (docs/deploying.md). SQLite keeps the scan: its full-text trigram index keys rows by an
 * implicit rowid that VACUUM may renumber.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const schema = await extensionSchema(db, 'pg_trgm');
  if (schema === null) return;
  for (const [name, column] of SEARCHED) {
    await sql`create index ${sql.id(name)} on users using gin
      (lower(coalesce(${sql.ref(column)}, '')) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const [name] of SEARCHED) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}
