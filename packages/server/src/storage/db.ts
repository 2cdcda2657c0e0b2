import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
