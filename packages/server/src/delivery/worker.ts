import { randomUUID } from 'node:crypto';
import type { Deps } from '../domain/context.js';
import { onEnqueued } from '../domain/webhooks/outbox-signal.js';
import { type ClaimedDelivery, claimDue } from '../storage/repos/webhook-deliveries.js';
import { loadDeliveryTargets } from '../storage/repos/webhook-targets.js';
import { type AttemptContext, attemptDelivery } from './attempt.js';
import type { Resolver } from './checked-lookup.js';
import { HttpsSender } from './https-sender.js';
import { listenForDeliveries } from './pg-listener.js';
import { silentLog, type WorkerLog } from './worker-log.js';

export interface WorkerOptions {
  /** Deliveries attempted at once by this worker (default 32). */
  concurrency?: number;
  /** Longest wait between looks for due deliveries (default 1 s; ±20 % jitter). */
  pollMs?: number;
  /** How long a claim holds before another worker may take the delivery (default twice the timeout). */
  leaseMs?: number;
  /** Per-attempt limit (default config.webhookTimeoutMs, 15 s; must stay well under the lease). */
  timeoutMs?: number;
  /** Extra trusted CA certificates, PEM. Tests only (see docs/webhooks.md). */
  ca?: string;
  /** DNS for deliveries; tests only. */
  resolver?: Resolver;
  /** Jitter source for retry delays. */
  random?: () => number;
  log?: WorkerLog;
  /** Counts each attempt's outcome (/metrics). */
  metrics?: { deliveryAttempted(outcome: 'delivered' | 'retry' | 'failed' | 'skipped'): void };
}

/**
 * The delivery worker: claims due deliveries (claimDue: SKIP LOCKED on PostgreSQL, a single atomic
 * UPDATE on SQLite), attempts up to `concurrency` of them at once, and settles each. Several workers
 * — in `tessera serve` processes and `tessera worker` processes — share one database safely; a
 * worker that dies leaves claims that expire after the lease, so delivery is at least once.
 */
export class DeliveryWorker {
  readonly #deps: Pick<Deps, 'db' | 'dialect' | 'sealer' | 'config'>;
  readonly #ctx: AttemptContext;
  readonly #sender: HttpsSender;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #leaseMs: number;
  readonly #log: WorkerLog;
  readonly #metrics: WorkerOptions['metrics'];
  readonly #inflight = new Set<Promise<void>>();
  #stopping = false;
  #loop: Promise<void> | null = null;
  #woken = false;
  #interrupt: (() => void) | null = null;
  #dueTimer: NodeJS.Timeout | null = null;
  #dueAt = Number.POSITIVE_INFINITY;
  #cleanup: (() => Promise<void>)[] = [];

  constructor(deps: Pick<Deps, 'db' | 'dialect' | 'sealer' | 'config'>, options: WorkerOptions = {}) {
    this.#deps = deps;
    this.#concurrency = options.concurrency ?? 32;
    this.#pollMs = options.pollMs ?? 1000;
    const timeoutMs = options.timeoutMs ?? deps.config.webhookTimeoutMs;
    this.#leaseMs = options.leaseMs ?? 2 * timeoutMs;
    this.#log = options.log ?? silentLog;
    this.#metrics = options.metrics;
    this.#sender = new HttpsSender({
      allowPrivate: deps.config.webhooksAllowPrivate,
      timeoutMs,
      ca: options.ca,
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
    this.#ctx = {
      db: deps.db,
      sealer: deps.sealer,
      sender: this.#sender,
      schedule: deps.config.webhookRetrySchedule,
      random: options.random ?? Math.random,
      log: this.#log,
    };
  }

  start(): this {
    if (this.#loop) return this;
    const unsubscribe = onEnqueued(() => this.#wake());
    this.#cleanup.push(async () => unsubscribe());
    if (this.#deps.dialect === 'postgres' && this.#deps.config.databaseUrl) {
      const listener = listenForDeliveries(this.#deps.config.databaseUrl, () => this.#wake(), this.#log);
      this.#cleanup.push(() => listener.close());
    }
    this.#loop = this.#run();
    return this;
  }

  /** Stops claiming, lets the attempts in flight finish (each is bounded by the timeout), and closes. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake();
    await this.#loop;
    await Promise.allSettled([...this.#inflight]);
    if (this.#dueTimer) clearTimeout(this.#dueTimer);
    for (const close of this.#cleanup.splice(0)) await close();
    this.#sender.close();
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      const capacity = this.#concurrency - this.#inflight.size;
      let claimed = 0;
      if (capacity > 0) {
        try {
          claimed = await this.#claim(capacity);
        } catch (error) {
          this.#log.error(
            { err: { message: (error as Error).message } },
            'claiming webhook deliveries failed',
          );
        }
      }
      if (this.#stopping) break;
      // A full batch means more may be due: look again as soon as a slot is free.
      if (capacity > 0 && claimed === capacity) continue;
      const poll = this.#pollMs * (0.8 + 0.4 * Math.random());
      await this.#sleep(Math.max(0, Math.min(poll, this.#dueAt - Date.now())));
    }
  }

  async #claim(capacity: number): Promise<number> {
    const now = Date.now();
    const token = randomUUID();
    const { db, dialect } = this.#deps;
    const claimed = await claimDue(db, dialect, {
      limit: capacity,
      now,
      leaseUntil: now + this.#leaseMs,
      token,
    });
    if (claimed.length === 0) return 0;
    const targets = await loadDeliveryTargets(db, [...new Set(claimed.map((d) => d.webhook_id))]);
    for (const delivery of claimed) this.#dispatch(delivery, token, targets);
    return claimed.length;
  }

  #dispatch(
    delivery: ClaimedDelivery,
    token: string,
    targets: Awaited<ReturnType<typeof loadDeliveryTargets>>,
  ) {
    const run = attemptDelivery(this.#ctx, delivery, token, targets.get(delivery.webhook_id)).then(
      (outcome) => {
        this.#metrics?.deliveryAttempted(outcome.status === 'pending' ? 'retry' : outcome.status);
        if (outcome.nextAttemptAt !== null) this.#wakeAt(outcome.nextAttemptAt);
      },
      (error: unknown) => {
        // Not settled: the claim expires after the lease and another attempt follows.
        this.#log.error(
          { deliveryId: delivery.id, err: { message: (error as Error).message } },
          'webhook delivery attempt could not be recorded',
        );
      },
    );
    const tracked = run.finally(() => {
      this.#inflight.delete(tracked);
      this.#wake();
    });
    this.#inflight.add(tracked);
  }

  #wake(): void {
    this.#woken = true;
    this.#interrupt?.();
  }

  /** A retry this worker scheduled: look for due work then, even before the next poll. */
  #wakeAt(at: number): void {
    if (at >= this.#dueAt) return;
    this.#dueAt = at;
    if (this.#dueTimer) clearTimeout(this.#dueTimer);
    this.#dueTimer = setTimeout(
      () => {
        this.#dueTimer = null;
        this.#dueAt = Number.POSITIVE_INFINITY;
        this.#wake();
      },
      Math.max(0, at - Date.now()),
    );
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      this.#interrupt = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    }).then(() => {
      this.#interrupt = null;
      this.#woken = false;
    });
  }
}
