import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

/**
 * What every hosted page of a sign-in reads per org — its texts overrides, its brands, its
 * connections, whether it requires a second factor — is kept in memory like the clients, keys, orgs
 * and service accounts the token endpoint keeps (domain/credential-cache.ts), so a change to these
 * tables is announced the same way: on PostgreSQL on the credentials channel of migration 008 at
 * commit, on SQLite by raising migration 030's counter.
 */
const TABLES = ['org_texts', 'brandings', 'connections', 'org_sign_in_policies'] as const;
const CHANGES = ['insert', 'update', 'delete'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of TABLES) {
      await sql`
        create trigger ${sql.raw(`${table}_credentials_changed`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function tessera_credentials_changed()`.execute(db);
    }
    return;
  }
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const table of TABLES) {
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

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    if (isPostgres(db)) {
      await sql`drop trigger ${sql.raw(`${table}_credentials_changed`)} on ${sql.table(table)}`.execute(db);
      continue;
    }
    for (const change of CHANGES) {
      await sql`drop trigger ${sql.raw(`${table}_${change}_credential_version`)}`.execute(db);
    }
  }
}
