import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import pg from 'pg';
import { markStatements, ROWS_AS_ARRAYS } from './marked-statements.js';
import { TransactionLockedPostgresAdapter } from './migration-lock.js';
import { announcingOwnWrites } from './own-writes.js';
import { type ReadRouter, RoutingDriver } from './read-routing.js';
import type { Database } from './schema.js';
import { WARM_CONNECTIONS, warmPool } from './warm-pool.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  readonly db: Db;
  readonly dialect: Dialect;
  /**
   * SQLite only: a number that changes whenever any connection (this process's or another's, such
   * as the CLI) commits a change to clients, signing keys or organizations (migration 030), what
   * the token endpoint's caches hold. Read on a connection of its own, so this process's own
   * writes count too.
   */
  readonly credentialVersion?: () => number;
  /**
   * PostgreSQL only: opens the connections the pool keeps (WARM_CONNECTIONS) and reads the schema's
   * catalog on each, so a serving process's first requests neither connect nor read it.
   */
  readonly warm?: () => Promise<void>;
  /**
   * PostgreSQL only: `listener` is called synchronously when this process commits a change to a
   * table a cache keeps (storage/own-writes.ts), before the writer is handed its result. Other
   * processes' changes arrive by NOTIFY (runtime.ts); SQLite's counter counts both.
   */
  readonly onOwnCachedWrite?: (listener: () => void) => void;
  /** PostgreSQL only: the pool's connections now (for /metrics). */
  readonly poolStats?: () => { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

// int8 (epoch milliseconds, counts) arrive as strings by default; every such value here fits a double.
pg.types.setTypeParser(20, (v) => Number(v));

export interface StoreOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Pool size for PostgreSQL (TESSERA_DB_POOL); SQLite has one connection. */
  poolSize?: number;
  /**
   * Told how long each query or transaction waited for its connection, in seconds: for a
   * PostgreSQL pool connection, or for SQLite's one connection while a transaction holds it.
   */
  onConnectionWait?: (seconds: number) => void;
  /** Where a lost PostgreSQL connection is reported (it never ends the process). */
  warn?: (line: string) => void;
  /**
   * PostgreSQL only: a read replica (TESSERA_DB_READ_URL) and the router that decides which reads
   * go there (storage/read-routing.ts). Its pool is as large as the primary's.
   */
  replica?: { url: string; router: ReadRouter };
  /**
   * PostgreSQL only: the statements marked PREPARED (marked-statements.ts) are named prepared
   * statements on the primary's connections (TESSERA_DB_PREPARED_STATEMENTS). Default false.
   */
  prepared?: boolean;
}

/** How long a request waits for a PostgreSQL connection before it is answered 503. */
export const CONNECT_TIMEOUT_MS = 5_000;

/** `driver`, telling `observe` how long each acquireConnection waited (a pool slot, SQLite's mutex). */
function timed(driver: Driver, observe: ((seconds: number) => void) | undefined): Driver {
  if (!observe) return driver;
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = async () => {
    const start = performance.now();
    const connection = await acquire();
    observe((performance.now() - start) / 1000);
    return connection;
  };
  return driver;
}

class TimedPostgresDialect extends PostgresDialect {
  readonly #observe: ((seconds: number) => void) | undefined;
  readonly #replica: { pool: pg.Pool; router: ReadRouter } | undefined;
  readonly #ownWrite: () => void;

  constructor(
    config: PostgresDialectConfig,
    observe: ((seconds: number) => void) | undefined,
    replica: { pool: pg.Pool; router: ReadRouter } | undefined,
    ownWrite: () => void,
  ) {
    super(config);
    this.#observe = observe;
    this.#replica = replica;
    this.#ownWrite = ownWrite;
  }

  override createAdapter(): DialectAdapter {
    return new TransactionLockedPostgresAdapter();
  }

  override createDriver(): Driver {
    const primary = timed(super.createDriver(), this.#observe);
    if (!this.#replica) return announcingOwnWrites(primary, this.#ownWrite);
    // The routing driver's connections take a pool's connection at their first statement, not when
    // Kysely acquires them: the wait is timed on the two pools' drivers.
    const replica = timed(new PostgresDriver({ pool: this.#replica.pool }), this.#observe);
    return announcingOwnWrites(new RoutingDriver(primary, replica, this.#replica.router), this.#ownWrite);
  }
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl) {
    const warn = options.warn ?? (() => {});
    const pool = resilientPool(options.databaseUrl, options.poolSize ?? 10, warn, options.prepared ?? false);
    const replica = options.replica && {
      pool: resilientPool(
        options.replica.url,
        options.poolSize ?? 10,
        (line) => warn(`read replica: ${line}`),
        // A replica's reads may go through a pooler of their own (docs/scaling.md): never named.
        false,
        0,
      ),
      router: options.replica.router,
    };
    const ownWriteListeners: (() => void)[] = [];
    const db = new Kysely<Database>({
      dialect: new TimedPostgresDialect({ pool }, options.onConnectionWait, replica, () => {
        for (const listener of ownWriteListeners) listener();
      }),
    });
    return {
      db,
      dialect: 'postgres',
      onOwnCachedWrite: (listener) => ownWriteListeners.push(listener),
      warm: () => warmPool(pool, pool.options.min ?? 0),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = new BetterSqlite3(join(options.dataDir, 'tessera.db'));
  // WAL lets the CLI and a running server share the file; busy_timeout makes writers wait, not fail.
  file.pragma('journal_mode = WAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  file.pragma('synchronous = NORMAL');
  const watch = new BetterSqlite3(join(options.dataDir, 'tessera.db'), { readonly: true });
  const db = new Kysely<Database>({
    dialect: new WriterFirstSqliteDialect({ database: withStatementCache(file) }, options.onConnectionWait),
  });
  return {
    db,
    dialect: 'sqlite',
    credentialVersion: credentialVersion(watch),
    close: async () => {
      await db.destroy();
      watch.close();
    },
  };
}

/**
 * The counter of migration 030, read on `watch` (a connection of its own: `PRAGMA data_version`
 * ignores the reading connection's own commits). `data_version` changes at every commit to the
 * file, by any connection, and costs no read of a table; only then is the counter read again. The
 * counter's statement is prepared at the first call: the runtime has migrated the file by then.
 */
function credentialVersion(watch: BetterSqlite3.Database): () => number {
  const dataVersion = watch.prepare('pragma data_version').pluck();
  let counter: BetterSqlite3.Statement | null = null;
  let seen: number | null = null;
  let version = 0;
  // Read once per turn of the event loop: the requests one turn serves arrived together, and each
  // asks up to twice (its org, its client). A commit made during the turn counts from the next.
  let thisTurn = false;
  const nextTurn = () => {
    thisTurn = false;
  };
  return () => {
    if (thisTurn) return version;
    thisTurn = true;
    setImmediate(nextTurn);
    const data = dataVersion.get() as number;
    if (data !== seen) {
      counter ??= watch.prepare('select version from credential_version where id = 1').pluck();
      version = counter.get() as number;
      seen = data;
    }
    return version;
  };
}

/**
 * SQLite with every transaction begun IMMEDIATE: it takes the file's write lock first, waiting up
 * to busy_timeout for another process (the CLI, a second server, a worker) to commit. A plain BEGIN
 * reads first and fails at once with SQLITE_BUSY when it then writes after another connection
 * committed (WAL cannot upgrade a stale read snapshot), which busy_timeout does not cover. Every
 * transaction here writes, so nothing is lost by taking the lock up front.
 */
class WriterFirstSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #observe: ((seconds: number) => void) | undefined;

  constructor(config: SqliteDialectConfig, observe: ((seconds: number) => void) | undefined) {
    super(config);
    this.#config = config;
    this.#observe = observe;
  }

  override createDriver(): Driver {
    return timed(new ImmediateTransactionsDriver(this.#config), this.#observe);
  }
}

class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * A pool that survives its database going away: a server restart, a failover, a proxy or
 * `idle_session_timeout` ending a connection. pg emits 'error' on the pool for an idle client and
 * on the client itself for one in use; with no listener either would end the process. Here each
 * is reported and the broken client is dropped (the pool opens a new one on the next request);
 * queries that were running fail and are answered 503 (see storage/unavailable.ts).
 */
function resilientPool(
  url: string,
  max: number,
  warn: (line: string) => void,
  prepared: boolean,
  kept = Math.min(WARM_CONNECTIONS, max),
): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // The warmed connections stay open however idle the process is (warm-pool.ts).
    min: kept,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
  });
  let lastWarning = 0;
  const report = (error: Error) => {
    // One line per second at most: a failover ends every connection of the pool at once.
    const now = Date.now();
    if (now - lastWarning < 1_000) return;
    lastWarning = now;
    warn(`database connection lost: ${error.message}`);
  };
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', report);
    markStatements(client, { prepared, warn });
  });
  return pool;
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
      if (sql.startsWith(ROWS_AS_ARRAYS)) statement.raw(true);
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
