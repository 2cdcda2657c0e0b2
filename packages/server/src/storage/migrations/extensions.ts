import { type Kysely, sql } from 'kysely';

/**
 * The schema a contrib extension (`pg_trgm`, `btree_gin`) is installed in, installing it into
 * `public` when it is available and this role may (a superuser, or CREATE on the database and on
 * `public`: both are trusted from PostgreSQL 13); null when it cannot be, and the migration asking
 * then leaves out what needs it. Servers migrating their own schemas of one database at once take
 * turns here: `create extension if not exists` is not safe against a concurrent one.
 */
export async function extensionSchema(
  db: Kysely<unknown>,
  name: 'pg_trgm' | 'btree_gin',
): Promise<string | null> {
  await sql`select pg_advisory_xact_lock(hashtext(${sql.lit(`tessera ${name}`)}))`.execute(db);
  const installed = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = ${name}`.execute(db);
  if (installed.rows[0]) return installed.rows[0].schema;
  const { rows } = await sql<{ allowed: boolean }>`
    select case
      when not exists (select 1 from pg_namespace where nspname = 'public') then false
      when not exists (select 1 from pg_available_extensions where name = ${name}) then false
      when (select rolsuper from pg_roles where rolname = current_user) then true
      else coalesce((select trusted from pg_available_extension_versions v join pg_available_extensions a
                       on a.name = v.name and a.default_version = v.version where v.name = ${name}), false)
        and has_database_privilege(current_database(), 'CREATE')
        and has_schema_privilege('public', 'CREATE')
    end as allowed`.execute(db);
  if (!rows[0]?.allowed) return null;
  await sql`create extension if not exists ${sql.id(name)} with schema public`.execute(db);
  return 'public';
}
