import { type Kysely, PostgresAdapter } from 'kysely';

/** Whether a migration runs on PostgreSQL (triggers and functions differ from SQLite's). */
export const isPostgres = (db: Kysely<unknown>): boolean =>
  db.getExecutor().adapter instanceof PostgresAdapter;
