import { type Kysely, SqliteAdapter, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

const CHANGES = ['insert', 'update', 'delete'] as const;

/**
 * A service account's binding (its org, its scopes) is kept in memory by the management API's token
 * check like the clients and keys the token endpoint keeps (domain/credential-cache.ts), so a change
 * to `service_accounts` is announced the same way: on PostgreSQL on the credentials channel of
 * migration 008 at commit, on SQLite by raising migration 030's counter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`
      create trigger service_accounts_credentials_changed
      after insert or update or delete or truncate on service_accounts
      for each statement execute function tessera_credentials_changed()`.execute(db);
    return;
  }
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const change of CHANGES) {
    await sql`
      create trigger ${sql.raw(`service_accounts_${change}_credential_version`)}
      after ${sql.raw(change)} on service_accounts
      begin
        update credential_version set version = version + 1 where id = 1;
      end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger service_accounts_credentials_changed on service_accounts`.execute(db);
    return;
  }
  for (const change of CHANGES) {
    await sql`drop trigger ${sql.raw(`service_accounts_${change}_credential_version`)}`.execute(db);
  }
}
