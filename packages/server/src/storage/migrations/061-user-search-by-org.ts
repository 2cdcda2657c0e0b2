import { type Kysely, sql } from 'kysely';
import { extensionSchema } from './extensions.js';
import { isPostgres } from './is-postgres.js';

const COLUMNS = ['email', 'first_name', 'last_name'] as const;

/**
 * On PostgreSQL, the trigram indexes of `user_search_rows` (migration 058) hold each text's org
 * beside its trigrams (`btree_gin`): a search is always of one org, and an index of the texts alone
 * handed every org's candidates to the heap, to be read and thrown away. At a million users in one
 * org and a million in twenty others, a search for `.005` (1% of the org) read 35,259 candidates on
 * 16,081 heap pages to keep 10,000; by org, 11,279 on 5,006 (docs/decisions.md). The query does not
 * change: the planner picks these where it picked the others.
 *
 * Where `pg_trgm` is missing there were no trigram indexes and there are none now; where `btree_gin`
 * cannot be installed (not available, or not allowed), migration 058's indexes stay as they are.
 * Building them holds writes to the users' searched texts (their triggers write these rows) for as
 * long as it takes: about 16 s at two million users on a 2-core machine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  const trigrams = await extensionSchema(db, 'pg_trgm');
  if (trigrams === null) return;
  const btree = await extensionSchema(db, 'btree_gin');
  if (btree === null) return;
  for (const column of COLUMNS) {
    await sql`create index ${sql.id(`user_search_rows_org_${column}`)} on user_search_rows
      using gin (org_id ${sql.id(btree)}.text_ops, ${sql.ref(column)} ${sql.id(trigrams)}.gin_trgm_ops)`.execute(
      db,
    );
    await sql`drop index if exists ${sql.id(`user_search_rows_${column}`)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  // Without the indexes by org (no btree_gin, or no pg_trgm) there is nothing to move back.
  const made = await sql<{ found: boolean }>`
    select to_regclass('user_search_rows_org_email') is not null as found`.execute(db);
  if (!made.rows[0]?.found) return;
  const trigrams = (await extensionSchema(db, 'pg_trgm')) ?? 'public';
  for (const column of COLUMNS) {
    await sql`create index ${sql.id(`user_search_rows_${column}`)} on user_search_rows
      using gin (${sql.ref(column)} ${sql.id(trigrams)}.gin_trgm_ops)`.execute(db);
    await sql`drop index ${sql.id(`user_search_rows_org_${column}`)}`.execute(db);
  }
}
