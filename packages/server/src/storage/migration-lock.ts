import { type Kysely, PostgresAdapter, sql } from 'kysely';

/** The key Kysely's own PostgreSQL adapter locks: a migrator of an older build and this one exclude each other. */
const MIGRATION_LOCK_KEY = 3853314791062309107n;
/** How long a migrator waits for another one to finish (Kysely's own limit). */
const MIGRATION_LOCK_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * PostgreSQL's migration lock, held by the migration's own transaction.
 *
 * Kysely's adapter takes a session-level advisory lock on the migrator's connection before its
 * transaction and releases it after. Behind PgBouncer in transaction mode each of those statements may
 * run on another server connection: the release can miss, the lock stays with a pooled connection, and
 * the next migrator (a second node starting) waits an hour. Here acquiring opens the transaction and
 * takes `pg_advisory_xact_lock` inside it. The migrator's own BEGIN joins it (PostgreSQL warns and goes
 * on), and its COMMIT or ROLLBACK ends it, releasing the lock on whichever server connection the pooler
 * gave the transaction.
 */
export class TransactionLockedPostgresAdapter extends PostgresAdapter {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's adapter signature (the migrator's own tables)
  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`begin`.execute(db);
    try {
      await sql`with wait as (select set_config('lock_timeout', ${String(MIGRATION_LOCK_TIMEOUT_MS)}, true))
        select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)}) from wait`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db).catch(() => {});
      throw error;
    }
  }

  override async releaseMigrationLock(): Promise<void> {
    // Released with the migration's transaction (above).
  }
}
