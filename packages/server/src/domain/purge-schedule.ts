import type { Handle } from '../storage/handle.js';

/** How often a process deletes the expired rows of one table, at most. */
export const PURGE_INTERVAL_MS = 60_000;

const lastPurge = new WeakMap<Handle, Map<string, number>>();

/**
 * Runs `purge` (a delete of `table`'s expired rows) unless this process ran it for the same database
 * less than a minute ago. The request paths that create short-lived rows (authorization requests,
 * codes, browser sessions, refresh tokens) used to delete the expired ones every time: a write
 * statement of its own on each sign-in step, which on SQLite takes the one connection and the file's
 * write lock, and on PostgreSQL is a round trip (issue #32). Every read of these tables checks
 * `expires_at`, so a row past it that is still stored is refused all the same.
 */
export async function purgeAtMostEveryMinute(
  db: Handle,
  table: string,
  now: number,
  purge: () => Promise<void>,
): Promise<void> {
  let tables = lastPurge.get(db);
  if (!tables) {
    tables = new Map();
    lastPurge.set(db, tables);
  }
  const last = tables.get(table);
  if (last !== undefined && now >= last && now - last < PURGE_INTERVAL_MS) return;
  tables.set(table, now);
  await purge();
}
