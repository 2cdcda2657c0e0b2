import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the pool of a PostgreSQL store reports; SQLite has no pool. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricsSources {
  /** Deliveries waiting to be attempted (pending rows of the outbox); null when unknown. */
  outboxDepth(): Promise<number | null>;
  /** The database pool's connections, or null (SQLite). */
  pool(): PoolStats | null;
}

/**
 * The service's Prometheus metrics (DESIGN §11), one registry per running server so several in one
 * process (the tests) do not mix: request durations by route and status, tokens issued by grant,
 * webhook deliveries by outcome, outbox depth, database pool use and waits, and Node's process metrics.
 * Labels are bounded: routes are route templates (never a raw path), grants and outcomes are
 * fixed sets. Nothing here carries a token, a secret or an identifier.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests: Histogram<'method' | 'route' | 'status_code'>;
  readonly #tokens: Counter<'grant_type'>;
  readonly #deliveries: Counter<'outcome'>;
  readonly #connectionWaits: Histogram;
  readonly #recoveryConflicts: Counter;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'tessera_' });
    this.#requests = new Histogram({
      name: 'tessera_http_request_duration_seconds',
      help: 'HTTP request durations by route template, method and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.#tokens = new Counter({
      name: 'tessera_tokens_issued_total',
      help: 'Token responses issued by the token endpoint, by grant type',
      labelNames: ['grant_type'],
      registers,
    });
    this.#deliveries = new Counter({
      name: 'tessera_webhook_deliveries_total',
      help: 'Webhook delivery attempts by this process, by outcome (delivered, retry, failed, skipped)',
      labelNames: ['outcome'],
      registers,
    });
    new Gauge({
      name: 'tessera_webhook_outbox_depth',
      help: 'Webhook deliveries waiting to be attempted (all processes)',
      registers,
      async collect() {
        const depth = await sources.outboxDepth();
        if (depth !== null) this.set(depth);
      },
    });
    this.#connectionWaits = new Histogram({
      name: 'tessera_db_pool_wait_seconds',
      help:
        'How long queries and transactions waited for a database connection: a PostgreSQL pool ' +
        "connection (TESSERA_DB_POOL), or SQLite's one connection while a transaction holds it",
      buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.#recoveryConflicts = new Counter({
      name: 'tessera_db_replica_recovery_conflicts_total',
      help:
        'Reads the read replica (TESSERA_DB_READ_URL) cancelled for a conflict with recovery ' +
        '(SQLSTATE 40001, 40P01), each then answered by the primary',
      registers,
    });
    new Gauge({
      name: 'tessera_db_pool_connections',
      help: 'PostgreSQL pool connections of this process: total, idle, and requests waiting for one',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.pool();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe({ method, route, status_code: String(status) }, seconds);
  }

  tokenIssued(grantType: string): void {
    this.#tokens.inc({ grant_type: grantType });
  }

  connectionWaited(seconds: number): void {
    this.#connectionWaits.observe(seconds);
  }

  replicaRecoveryConflict(): void {
    this.#recoveryConflicts.inc();
  }

  deliveryAttempted(outcome: 'delivered' | 'retry' | 'failed' | 'skipped'): void {
    this.#deliveries.inc({ outcome });
  }
}
