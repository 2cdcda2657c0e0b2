import { PostgresAdapter, sql } from 'kysely';
import type { Handle } from './handle.js';
import { opened } from './opened.js';

/**
 * On PostgreSQL, a NOTIFY on `channel` that `db`'s transaction sends when it commits (at once
 * outside one), heard by every node LISTENing there. On SQLite, nothing: its writers share one
 * file and one process, and learn of changes in-process or by polling.
 */
export async function notifyOnCommit(store: Handle, channel: string): Promise<void> {
  const db = opened(store);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_notify(${channel}, '')`.execute(db);
  }
}
