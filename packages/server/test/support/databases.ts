import { after, test } from 'node:test';
import { postgresSkip } from './environment.js';
import type { Database } from './runtime.js';

/**
 * Which databases a suite runs on (issue #26). A suite that tests storage behaviour runs on SQLite
 * and on PostgreSQL, and says which behaviour and why: SQL written per dialect or relying on a
 * dialect's semantics, locking and concurrency, migrations, what an existing database holds. HTTP
 * and browser suites run on SQLite, the embedded default: what they check (status, body, headers,
 * pages, validation, scopes) is decided before storage and is the same on both, and the storage
 * suites check what is not. A storage suite whose other tests check HTTP only runs those on SQLite
 * (storageTestsOn).
 *
 * On PostgreSQL a suite still asks postgresSkip(): CI requires PostgreSQL and fails on its SKIPPED
 * line; elsewhere the PostgreSQL runs are skipped when no server answers.
 */

/** SQLite and PostgreSQL, for a suite that tests storage behaviour; `why` names that behaviour. */
export function storageSuite(why: string): readonly Database[] {
  if (why.trim().length < 10)
    throw new Error('a suite run on both databases says which storage behaviour it tests');
  return ['sqlite', 'postgres'];
}

/** SQLite only, the embedded default, for an HTTP or browser suite. */
export function httpSuite(): readonly Database[] {
  return ['sqlite'];
}

/** `false` = run; a string = why not (PostgreSQL unreachable and not required, see postgresSkip). */
export async function databaseSkip(database: Database): Promise<false | string> {
  return database === 'postgres' ? postgresSkip() : false;
}

/**
 * `test` for a storage suite whose other tests check HTTP only: the tests named in `storageTests`
 * are defined on both databases, the others on SQLite only (left out on PostgreSQL, not skipped: CI
 * fails on a skipped test); those named in `postgresOnly` (what SQLite has no counterpart of, such as
 * NOTIFY) only on PostgreSQL. A name that no test of the suite has fails the suite.
 */
export function storageTestsOn(
  database: Database,
  storageTests: readonly string[],
  postgresOnly: readonly string[] = [],
): typeof test {
  const unseen = new Set([...storageTests, ...postgresOnly]);
  after(() => {
    if (unseen.size > 0) throw new Error(`storageTestsOn: no test named ${[...unseen].join('; ')}`);
  });
  const define = test as (name: string, ...rest: unknown[]) => unknown;
  return ((name: string, ...rest: unknown[]) => {
    unseen.delete(name);
    if (postgresOnly.includes(name)) return database === 'postgres' ? define(name, ...rest) : undefined;
    if (database === 'sqlite' || storageTests.includes(name)) return define(name, ...rest);
  }) as typeof test;
}
