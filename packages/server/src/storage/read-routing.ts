import { AsyncLocalStorage } from 'node:async_hooks';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { isDatabaseUnavailable } from './unavailable.js';

/**
 * Read replicas (TESSERA_DB_READ_URL): which statements go to the replica, which to the primary.
 *
 * The primary takes every statement unless the request running it is in a read scope that
 * tolerates lag (`ReadRouter.run` then `lagFromNow`, entered by the HTTP layer for discovery, JWKS,
 * and, once their caller is authenticated, the management lists and the audit list). There, a
 * SELECT outside a transaction goes to the replica, except when:
 * - the request has written already (read-after-write in the same request);
 * - its principal wrote on this node and the replica has not replayed that write yet: the
 *   primary's WAL position after the write (pg_current_wal_lsn) is compared with the replica's
 *   replay position (pg_last_wal_replay_lsn), so the principal's next requests read their write;
 * - the replica cannot be reached: it is left alone for a few seconds and the primary answers.
 * A transaction always runs on the primary (it may write, and reads inside it must see its writes).
 * A replica's read cancelled by a conflict with recovery (its replay needed what the read held: a
 * VACUUM's removed rows, a lock) is asked again of the primary, once, and counted.
 */

/** The request running a statement. */
export interface ReadScope {
  /** Who the request acts for (its bearer token's issuer and subject), or null. */
  readonly principal: string | null;
}

interface ActiveScope extends ReadScope {
  /** Reads may come from a replica that lags the primary (from `lagFromNow` on). */
  lagTolerant: boolean;
  wrote: boolean;
}

/** How long a replica that could not be reached is left alone. */
const REPLICA_BACKOFF_MS = 5_000;
/**
 * Principals with a write the replica may not have replayed, kept one by one per node (see `wrote`);
 * past this many, a write is kept as a floor every principal's reads wait for instead.
 */
const MAX_PENDING = 10_000;

export class ReadRouter {
  readonly #scopes = new AsyncLocalStorage<ActiveScope>();
  /** Principal → the primary's WAL position after its last write, until the replica replayed it. */
  readonly #pending = new Map<string, bigint>();
  /**
   * The WAL position of writes not kept in `#pending` because it was full (0n: none): every
   * principal's lag-tolerant reads wait until the replica has replayed it. Anyone can be a principal
   * (the bearer token is read unverified) and many requests write, so the map must not grow without
   * bound, nor, full, keep every principal off the replica for good.
   */
  #floor = 0n;
  #replicaDownUntil = 0;
  /** Statements each database answered (for tests and /metrics-like inspection). */
  readonly served = { primary: 0, replica: 0 };
  readonly #onRecoveryConflict: () => void;

  /** `onRecoveryConflict`: told each replica read cancelled by recovery and asked of the primary. */
  constructor(options: { onRecoveryConflict?: () => void } = {}) {
    this.#onRecoveryConflict = options.onRecoveryConflict ?? (() => {});
  }

  /** Runs `next` (and everything it starts) in `scope`: on the primary until `lagFromNow`. */
  run(scope: ReadScope, next: () => void): void {
    this.#scopes.run({ principal: scope.principal, lagTolerant: false, wrote: false }, next);
  }

  /** The running request's reads may lag from now on. */
  lagFromNow(): void {
    const scope = this.#scopes.getStore();
    if (scope) scope.lagTolerant = true;
  }

  /** Where a statement outside a transaction goes; `pendingLsn` when the replica must have replayed it first. */
  route(query: CompiledQuery): { to: 'primary' } | { to: 'replica'; pendingLsn: bigint | null } {
    const scope = this.#scopes.getStore();
    if (!scope?.lagTolerant || scope.wrote) return { to: 'primary' };
    if (query.query.kind !== 'SelectQueryNode') return { to: 'primary' };
    if (Date.now() < this.#replicaDownUntil) return { to: 'primary' };
    if (scope.principal === null) return { to: 'replica', pendingLsn: null };
    const own = this.#pending.get(scope.principal) ?? 0n;
    const pendingLsn = own > this.#floor ? own : this.#floor;
    return { to: 'replica', pendingLsn: pendingLsn === 0n ? null : pendingLsn };
  }

  /** The replica has replayed up to `replayed`: every principal's write up to there is visible. */
  replayed(replayed: bigint): void {
    for (const [principal, lsn] of this.#pending) if (lsn <= replayed) this.#pending.delete(principal);
    if (this.#floor <= replayed) this.#floor = 0n;
  }

  replicaUnreachable(): void {
    this.#replicaDownUntil = Date.now() + REPLICA_BACKOFF_MS;
  }

  /** A replica's read was cancelled by a conflict with recovery; the primary answers it. */
  recoveryConflict(): void {
    this.#onRecoveryConflict();
  }

  /** Whether the running request has a principal and a write to record; marks it as having written. */
  noteWrite(): string | null {
    const scope = this.#scopes.getStore();
    if (!scope) return null;
    scope.wrote = true;
    return scope.principal;
  }

  /** The principal's write ended at `lsn` on the primary. */
  wrote(principal: string, lsn: bigint): void {
    this.#pending.delete(principal);
    if (this.#pending.size < MAX_PENDING) this.#pending.set(principal, lsn);
    else if (lsn > this.#floor) this.#floor = lsn;
  }
}

/**
 * Whether a replica cancelled a statement because its replay of the primary's WAL needed what the
 * statement held ("canceling statement due to conflict with recovery"): a snapshot whose rows a
 * VACUUM removed, a lock an exclusive lock's replay waits for (SQLSTATE 40001), a buffer pin
 * (40P01), past max_standby_streaming_delay. A read outside a transaction on a standby fails with
 * these for no other reason; the statement itself was fine and the primary can answer it.
 */
export function isRecoveryConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

/** A PostgreSQL LSN (`16/B374D848`) as a number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

const CURRENT_LSN = CompiledQuery.raw('select pg_current_wal_lsn()::text as lsn');
const REPLAY_LSN = CompiledQuery.raw('select pg_last_wal_replay_lsn()::text as lsn');

/**
 * A driver over two: `primary` and `replica` (each a Kysely PostgresDriver on its own pool). Its
 * connections choose their database at their first statement (`RoutedConnection`).
 */
export class RoutingDriver implements Driver {
  constructor(
    readonly primary: Driver,
    readonly replica: Driver,
    readonly router: ReadRouter,
  ) {}

  async init(): Promise<void> {
    await this.primary.init();
    await this.replica.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const routed = connection as RoutedConnection;
    await this.primary.beginTransaction(await routed.onPrimary(), settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    await this.primary.commitTransaction(await routed.onPrimary());
    routed.wroteOnPrimary = true;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.primary.rollbackTransaction(await (connection as RoutedConnection).onPrimary());
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.primary.savepoint?.(await (connection as RoutedConnection).onPrimary(), name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.primary.rollbackToSavepoint?.(
      await (connection as RoutedConnection).onPrimary(),
      name,
      compile,
    );
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.primary.releaseSavepoint?.(await (connection as RoutedConnection).onPrimary(), name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    await Promise.allSettled([this.primary.destroy(), this.replica.destroy()]);
  }
}

/** One connection handed to Kysely: the primary's or the replica's, chosen at its first statement. */
class RoutedConnection implements DatabaseConnection {
  #primary: DatabaseConnection | null = null;
  #replica: DatabaseConnection | null = null;
  wroteOnPrimary = false;

  constructor(readonly driver: RoutingDriver) {}

  async onPrimary(): Promise<DatabaseConnection> {
    this.#primary ??= await this.driver.primary.acquireConnection();
    return this.#primary;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#primary === null && this.#replica === null) {
      const replica = await this.#replicaFor(query);
      if (replica !== null) {
        try {
          const result = await replica.executeQuery<R>(query);
          this.driver.router.served.replica += 1;
          return result;
        } catch (error) {
          // A SELECT: asked again of the primary.
          if (isRecoveryConflict(error)) this.driver.router.recoveryConflict();
          else if (isDatabaseUnavailable(error)) this.driver.router.replicaUnreachable();
          else throw error;
          await this.#releaseReplica();
        }
      }
    }
    if (this.#replica !== null) return this.#replica.executeQuery<R>(query);
    const primary = await this.onPrimary();
    const result = await primary.executeQuery<R>(query);
    this.driver.router.served.primary += 1;
    if (query.query.kind !== 'SelectQueryNode') this.wroteOnPrimary = true;
    return result;
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    // Streams (none are used today) stay on the primary.
    yield* (this.#replica ?? (await this.onPrimary())).streamQuery<R>(query, chunkSize);
  }

  /** The replica's connection when `query` may go there, else null. */
  async #replicaFor(query: CompiledQuery): Promise<DatabaseConnection | null> {
    const router = this.driver.router;
    const route = router.route(query);
    if (route.to === 'primary') return null;
    try {
      this.#replica = await this.driver.replica.acquireConnection();
      if (route.pendingLsn === null) return this.#replica;
      const { rows } = await this.#replica.executeQuery<{ lsn: string | null }>(REPLAY_LSN);
      const replayed = rows[0]?.lsn ? parseLsn(rows[0].lsn) : null;
      if (replayed !== null) router.replayed(replayed);
      if (replayed !== null && replayed >= route.pendingLsn) return this.#replica;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      router.replicaUnreachable();
    }
    await this.#releaseReplica();
    return null;
  }

  async #releaseReplica(): Promise<void> {
    const replica = this.#replica;
    this.#replica = null;
    if (replica) await this.driver.replica.releaseConnection(replica).catch(() => {});
  }

  /** Back to their pools; a write's WAL position is recorded for its principal first. */
  async release(): Promise<void> {
    await this.#releaseReplica();
    const primary = this.#primary;
    this.#primary = null;
    if (!primary) return;
    try {
      if (this.wroteOnPrimary) {
        const principal = this.driver.router.noteWrite();
        if (principal !== null) {
          const { rows } = await primary.executeQuery<{ lsn: string }>(CURRENT_LSN);
          if (rows[0]) this.driver.router.wrote(principal, parseLsn(rows[0].lsn));
        }
      }
    } catch {
      // The connection broke after the write: the pool drops it; the next read of this principal
      // finds no pending write and may read the replica, as before any write.
    } finally {
      await this.driver.primary.releaseConnection(primary);
    }
  }
}
