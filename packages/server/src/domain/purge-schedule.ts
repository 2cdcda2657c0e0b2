import type { Handle } from '../storage/handle.js';

/** How often a process deletes the expired rows of one table, at most. */
export const PURGE_INTERVAL_MS = 60_000;

const lastPurge = new WeakMap<Handle, Map<string, number>>();

/** Purges asked for inside a transaction (see purgesAfterCommit), by table, with the time each was asked at. */
type Deferred = Map<string, { now: number; purge: (db: Handle) => Promise<void> }>;

/** Transactions that steps written for the store run inside (joined ones): the purges they asked for. */
const deferredIn = new WeakMap<Handle, Deferred>();

/**
 * Tells the schedule that `tx` is a transaction on `store` which steps that purge run inside (the
 * sign-in's, complete-authentication.ts). A purge asked for inside it is not run there: a DELETE would
 * hold its locks until the sign-in commits, and a failed one would roll the sign-in back. It is kept,
 * and the returned function runs it on `store` once the transaction has committed (once a minute per
 * table, as any other purge; nothing is run, or counted as run, for a transaction that rolled back).
 */
export function purgesAfterCommit(tx: Handle, store: Handle): () => Promise<void> {
  const purges: Deferred = new Map();
  deferredIn.set(tx, purges);
  // On `store`: kept for its own commit in turn, were it a transaction given here too.
  return async () => {
    for (const [table, { now, purge }] of purges)
      await afterCommit(purgeAtMostEveryMinute(store, table, now, purge));
  };
}

/**
 * A purge run after the work that asked for it has committed: its failure (the database gone a moment
 * later, say) is not that work's, which is stored and is answered as such. The rows stay until the
 * next purge of the table; every read checks their expiry meanwhile.
 */
export function afterCommit(purge: Promise<void>): Promise<void> {
  return purge.catch(() => {});
}

/**
 * Runs `purge` (a delete of `table`'s expired rows, on the handle it is given) unless this process ran
 * it for the same database less than a minute ago. The request paths that create short-lived rows
 * (authorization requests, codes, browser sessions, refresh tokens) used to delete the expired ones
 * every time: a write statement of its own on each sign-in step, which on SQLite takes the one
 * connection and the file's write lock, and on PostgreSQL is a round trip (issue #32). Every read of
 * these tables checks `expires_at`, so a row past it that is still stored is refused all the same.
 * Inside a transaction given to purgesAfterCommit it is kept for after the commit.
 */
export async function purgeAtMostEveryMinute(
  db: Handle,
  table: string,
  now: number,
  purge: (db: Handle) => Promise<void>,
): Promise<void> {
  const deferred = deferredIn.get(db);
  if (deferred) {
    if (!deferred.has(table)) deferred.set(table, { now, purge });
    return;
  }
  let tables = lastPurge.get(db);
  if (!tables) {
    tables = new Map();
    lastPurge.set(db, tables);
  }
  const last = tables.get(table);
  if (last !== undefined && now >= last && now - last < PURGE_INTERVAL_MS) return;
  tables.set(table, now);
  await purge(db);
}
