export type { Dialect } from './db.js';

declare const storage: unique symbol;

/**
 * The database, or one transaction on it, as the domain holds it: a token to hand to the
 * repositories (storage/repos), which alone open it (storage/opened.ts, which the lint keeps from
 * the domain). It has no methods, so the domain can neither query through it nor open a transaction
 * on it, and it cannot make one (the brand's symbol is not exported). The domain is given two:
 * `deps.store`, on which each repository call runs on its own (reads, single statements), and the
 * `tx` of `deps.unitOfWork.run(async (tx) => …)`, one transaction.
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
 * when `work` resolves and rolls back when it throws (what `work` threw is rethrown). `work` hands
 * `tx` to repositories and never calls `run` again: that would be a second transaction, waiting on
 * SQLite's one connection for the first.
 */
export interface UnitOfWork {
  run<T>(work: (tx: Handle) => Promise<T>): Promise<T>;
}
