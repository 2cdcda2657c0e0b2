import { type Kysely, SqliteAdapter, sql } from 'kysely';

/**
 * Client ID Metadata Documents (DESIGN §13): a client whose `client_id` is the https URL of its
 * metadata document has no row in `clients`, yet its authorization requests, codes, OAuth sessions
 * and consents name it. So `client_id` of those four tables no longer references `clients`; deleting
 * a registered client deletes their rows itself (storage/repos/clients.ts deleteClientRow).
 *
 * PostgreSQL drops the constraints. SQLite cannot drop a constraint, so each table is rebuilt
 * from its own definition minus the reference (the documented rebuild: foreign keys off, new
 * table, copy, drop, rename, indexes back, foreign_key_check), in one transaction.
 */
const TABLES = ['authorization_requests', 'oauth_sessions', 'authorization_codes', 'consents'] as const;

const REFERENCE = ' references "clients" ("id") on delete cascade';
const COLUMN = '"client_id" text not null';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (await isSqlite(db))
    return rebuildSqlite(db, (definition) => definition.replace(COLUMN + REFERENCE, COLUMN));
  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.ref(`${table}_client_id_fkey`)}`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Rows of metadata-document clients have nothing to reference: they go first.
  for (const table of TABLES) {
    await sql`delete from ${sql.table(table)} where client_id not in (select id from clients)`.execute(db);
  }
  if (await isSqlite(db))
    return rebuildSqlite(db, (definition) => definition.replace(COLUMN, COLUMN + REFERENCE));
  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} add constraint ${sql.ref(`${table}_client_id_fkey`)}
      foreign key (client_id) references clients (id) on delete cascade`.execute(db);
  }
}

async function isSqlite(db: Kysely<unknown>): Promise<boolean> {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** SQLite migrations run on the migrator's single connection, outside a transaction (Kysely). */
async function rebuildSqlite(db: Kysely<unknown>, change: (definition: string) => string): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      for (const table of TABLES) await rebuildTable(db, table, change);
      const { rows } = await sql`pragma foreign_key_check`.execute(db);
      if (rows.length > 0)
        throw new Error(`foreign key check failed after the rebuild: ${JSON.stringify(rows[0])}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function rebuildTable(db: Kysely<unknown>, table: string, change: (definition: string) => string) {
  const { rows } = await sql<{ type: string; sql: string | null }>`
    select type, sql from sqlite_master where tbl_name = ${table} and type in ('table', 'index')`.execute(db);
  const definition = rows.find((r) => r.type === 'table')?.sql;
  if (!definition) throw new Error(`${table} is missing`);
  const changed = change(definition);
  if (changed === definition) throw new Error(`${table}: its client_id column is not as expected`);
  const scratch = `${table}_017`;
  const prefix = `CREATE TABLE "${table}"`;
  if (!changed.startsWith(prefix)) throw new Error(`${table}: unexpected definition`);
  await sql.raw(`CREATE TABLE "${scratch}"${changed.slice(prefix.length)}`).execute(db);
  await sql.raw(`insert into "${scratch}" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${scratch}" rename to "${table}"`).execute(db);
  for (const index of rows) if (index.type === 'index' && index.sql) await sql.raw(index.sql).execute(db);
}
