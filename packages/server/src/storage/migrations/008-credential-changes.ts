import { type Kysely, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

/** The channel every change to clients or signing keys is announced on (PostgreSQL only). */
export const CREDENTIALS_CHANNEL = 'tessera_credentials';

/**
 * On PostgreSQL, any statement that changes `clients` or `signing_keys` (from any process: a
 * server node, the CLI, plain SQL) sends a NOTIFY at commit, so every node can drop what it
 * cached of them (see docs/token-endpoint.md). SQLite has no such cache and needs nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function tessera_credentials_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(CREDENTIALS_CHANNEL)}, '');
      return null;
    end $$`.execute(db);
  for (const table of ['clients', 'signing_keys']) {
    await sql`
      create trigger ${sql.raw(`${table}_credentials_changed`)}
      after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function tessera_credentials_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of ['clients', 'signing_keys']) {
    await sql`drop trigger ${sql.raw(`${table}_credentials_changed`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function tessera_credentials_changed()`.execute(db);
}
