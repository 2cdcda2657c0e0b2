import { type DatabaseIntrospector, type Kysely, sql, type TableMetadata } from 'kysely';

/**
 * `db` as the migrator sees it, with an introspector that reads only `schema`'s tables.
 *
 * Kysely's own PostgreSQL introspector lists the tables of every schema of the database and calls
 * `has_schema_privilege` and `pg_get_serial_sequence` on each, so a schema another process drops
 * at that moment fails the migration ("schema … does not exist"), as does a column dropped there.
 * The migrator only asks whether its two tables exist in its own schema; this answers just that.
 */
export function scopedToSchema<DB>(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => [{ name: schema }],
    getTables: async () => tablesOf(db, schema),
    getMetadata: async () => ({ tables: await tablesOf(db, schema) }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function tablesOf<DB>(db: Kysely<DB>, schema: string): Promise<TableMetadata[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
  return rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
}
