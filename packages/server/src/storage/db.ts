import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  /**
   * SQLite only: a number that changes whenever any connection (this process's or another's, such
   * as the CLI) commits to the file. Read on a connection of its own, so this process's own writes
   * count too (`PRAGMA data_version` ignores the connection's own commits).
   */
  readonly commitVersion?: () => number;
  close(): Promise<void>;
}

// int8 (epoch milliseconds, counts) arrive as strings by default; every such value here fits a double.
pg.types.setTypeParser(20, (v) => Number(v));

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = new BetterSqlite3(join(options.dataDir, 'tessera.db'));
  // WAL lets the CLI and a running server share the file; busy_timeout makes writers wait, not fail.
  file.pragma('journal_mode = WAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  file.pragma('synchronous = NORMAL');
  const watch = new BetterSqlite3(join(options.dataDir, 'tessera.db'), { readonly: true });
  const dataVersion = watch.prepare('pragma data_version').pluck();
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  return {
    db,
    dialect: 'sqlite',
    commitVersion: () => dataVersion.get() as number,
    close: async () => {
      await db.destroy();
      watch.close();
    },
  };
}

/**
 * The database as Kysely's SqliteDialect sees it, with a bounded LRU cache of prepared statements.
 * The dialect calls `prepare(sql)` for every query, and SQLite compiling the same text again cost
 * more than running the lookups of a token request. The SQL text (values are bound, never inlined)
 * is the key, so the set of distinct statements is small; past `size` the least recently used is
 * dropped. A statement still being iterated (a streamed query) is not handed out a second time.
 * SQLite re-prepares a cached statement by itself after a schema change (a migration).
 */
export function withStatementCache(file: BetterSqlite3.Database, size = 256): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = file.prepare(sql);
      if (!cached) {
        statements.set(sql, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value as string);
      }
      return statement;
    },
    close() {
      statements.clear();
      file.close();
    },
  };
}
