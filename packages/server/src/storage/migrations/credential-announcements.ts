import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

const CHANGES = ['insert', 'update', 'delete'] as const;

/**
 * Announces every change to `tables` as the credentials the token endpoint keeps in memory are
 * announced (domain/credential-cache.ts): on PostgreSQL on the credentials channel of migration 008
 * at commit (`<table>_credentials_changed`), on SQLite by raising migration 030's counter
 * (`<table>_<change>_credential_version`). Migrations 056 and 060 add tables to it.
 */
export async function announceChanges(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    for (const table of tables) {
      await sql`
        create trigger ${sql.raw(`${table}_credentials_changed`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function tessera_credentials_changed()`.execute(db);
    }
    return;
  }
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await countChanges(db, tables);
}

/** SQLite: every insert, update and delete on `tables` raises migration 030's counter. */
export async function countChanges(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    for (const change of CHANGES) {
      await sql`
        create trigger ${sql.raw(`${table}_${change}_credential_version`)}
        after ${sql.raw(change)} on ${sql.table(table)}
        begin
          update credential_version set version = version + 1 where id = 1;
        end`.execute(db);
    }
  }
}

/** SQLite: undoes countChanges for `tables`. */
export async function uncountChanges(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    for (const change of CHANGES) {
      await sql`drop trigger ${sql.raw(`${table}_${change}_credential_version`)}`.execute(db);
    }
  }
}

/** Undoes announceChanges for `tables`. */
export async function unannounceChanges(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  if (isPostgres(db)) {
    for (const table of tables) {
      await sql`drop trigger ${sql.raw(`${table}_credentials_changed`)} on ${sql.table(table)}`.execute(db);
    }
    return;
  }
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  await uncountChanges(db, tables);
}
