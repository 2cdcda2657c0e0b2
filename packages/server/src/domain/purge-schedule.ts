import type { Handle } from '../storage/handle.js';

/** How often a process deletes the expired rows of one table, at most. */
export const PURGE_INTERVAL_MS = 60_000;

const lastPurge = new WeakMap<Handle, Map<string, number>>();

/** Transactions that steps written for the store run inside (joinedTransaction), to their store. */
const storeOfTransaction = new WeakMap<Handle, Handle>();

/**
 * Tells the schedule that `tx` is a transaction on `store` which steps that purge run inside (the
 * sign-in's, complete-authentication.ts): their purges inside it count as the store's, once a
 * minute, not once per transaction.
 */
export function purgesInside(tx: Handle, store: Handle): void {
  storeOfTransaction.set(tx, storeOfTransaction.get(store) ?? store);
}

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
  const store = storeOfTransaction.get(db) ?? db;
  let tables = lastPurge.get(store);
  if (!tables) {
    tables = new Map();
    lastPurge.set(store, tables);
  }
  const last = tables.get(table);
  if (last !== undefined && now >= last && now - last < PURGE_INTERVAL_MS) return;
  tables.set(table, now);
  await purge();
}
