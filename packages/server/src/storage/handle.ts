import { PostgresAdapter } from 'kysely';
import type { Db, Dialect } from './db.js';

declare const storage: unique symbol;

/**
 * The database, or one transaction on it, as the domain holds it: a token to hand to the
 * repositories (storage/repos), which alone open it. It has no methods, so the domain can neither
 * query through it nor open a transaction on it; and the domain cannot make one (the brand's symbol
 * is not exported). The domain is given two: `deps.store`, on which each repository call runs on
 * its own (reads, and single statements), and the `tx` of `deps.unitOfWork.run(async (tx) => …)`,
 * one transaction.
 */
export interface Handle {
  readonly [storage]: 'a storage handle';
}

// A Kysely (the database, a transaction) is a Handle: the runtime and the repositories pass theirs
// on as one without a cast. The brand is a type only; no code reads it.
declare module 'kysely' {
  interface Kysely<DB> {
    readonly [storage]: 'a storage handle';
  }
}

/**
 * The domain's one way to group writes: `run` opens a transaction, hands `work` its handle, commits
 * when `work` resolves and rolls back when it throws (what `work` threw is rethrown).
 */
export interface UnitOfWork {
  run<T>(work: (tx: Handle) => Promise<T>): Promise<T>;
}

/** The unit of work on `db`: one Kysely transaction per run. */
export function unitOfWorkOn(db: Db): UnitOfWork {
  return { run: (work) => db.transaction().execute(work) };
}

/** The Kysely behind a handle, for a repository (storage only: the domain never opens one). */
export function opened(handle: Handle): Db {
  return handle as Db;
}

/** Which database a handle is on, for the statements written per dialect. */
export function dialectOf(handle: Handle): Dialect {
  return opened(handle).getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
