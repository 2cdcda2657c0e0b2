import { PostgresAdapter } from 'kysely';
import type { Db, Dialect } from './db.js';
import type { Handle, UnitOfWork } from './handle.js';

/** The unit of work on `db`: one Kysely transaction per run. */
export function unitOfWorkOn(db: Db): UnitOfWork {
  return { run: (work) => db.transaction().execute(work) };
}

/**
 * The Kysely behind a handle, for a repository. Storage only: the lint refuses this file in the domain
 * (domain-holds-no-database), which hands handles on and never opens one.
 */
export function opened(handle: Handle): Db {
  return handle as Db;
}

/** Which database a handle is on, for the statements written per dialect. */
export function dialectOf(handle: Handle): Dialect {
  return opened(handle).getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
