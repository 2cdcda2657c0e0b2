import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { countChanges, uncountChanges } from './credential-announcements.js';

const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

/** The tables whose rows the token endpoint keeps in memory (what migrations 008 and 013 announce on PostgreSQL). */
const CACHED = ['clients', 'signing_keys', 'organizations'] as const;

/**
 * On SQLite, a counter every change to clients, signing keys or organizations raises, by any
 * connection (this server, the CLI, a second process, plain SQL): the credential and org caches are
 * kept while it is unchanged (storage/db.ts `credentialVersion`). Before, they were emptied by every
 * commit to the file, so each refresh, sign-in or audit entry made the next machine token read its
 * client and org again. The counter row is written only inside transactions that change those
 * tables, which SQLite runs one at a time anyway. PostgreSQL announces the same changes by NOTIFY
 * and needs nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create table credential_version (
    id integer primary key check (id = 1),
    version integer not null
  )`.execute(db);
  await sql`insert into credential_version (id, version) values (1, 0)`.execute(db);
  await countChanges(db, CACHED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await uncountChanges(db, CACHED);
  await sql`drop table credential_version`.execute(db);
}
