import { type Kysely, sql } from 'kysely';
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
  const schema = await trigramSchema(db);
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

/**
 * The schema pg_trgm is installed in, installing it into `public` when this role may (a superuser,
 * or CREATE on the database and on `public`: the extension is trusted from PostgreSQL 13); null
 * when it cannot be. Servers migrating their own schemas of one database at once take turns here:
 * `create extension if not exists` is not safe against a concurrent one.
 */
export async function trigramSchema(db: Kysely<unknown>): Promise<string | null> {
  await sql`select pg_advisory_xact_lock(hashtext('tessera pg_trgm'))`.execute(db);
  const installed = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  if (installed.rows[0]) return installed.rows[0].schema;
  const { rows } = await sql<{ allowed: boolean }>`
    select case
      when not exists (select 1 from pg_namespace where nspname = 'public') then false
      when (select rolsuper from pg_roles where rolname = current_user) then true
      else coalesce((select trusted from pg_available_extension_versions v join pg_available_extensions a
                       on a.name = v.name and a.default_version = v.version where v.name = 'pg_trgm'), false)
        and has_database_privilege(current_database(), 'CREATE')
        and has_schema_privilege('public', 'CREATE')
    end as allowed`.execute(db);
  if (!rows[0]?.allowed) return null;
  await sql`create extension if not exists pg_trgm with schema public`.execute(db);
  return 'public';
}
