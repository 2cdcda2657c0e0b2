import { randomUUID } from 'node:crypto';
import type { Deps } from '../domain/context.js';
import type { ClaimedDelivery, DeliveryTarget } from '../domain/types.js';
import { onEnqueued } from '../domain/webhooks/index.js';
import { type AttemptContext, attemptDelivery } from './attempt.js';
import type { Resolver } from './checked-lookup.js';
import { HttpsSender } from './https-sender.js';
import { Settler } from './settler.js';
import { type WorkerClock, wallClock } from './worker-clock.js';
import { silentLog, type WorkerLog } from './worker-log.js';
import { type PollOptions, WorkerWait } from './worker-wait.js';

/** What the webhook, logout and log-stream workers all take: how they poll, send, log and tell the time. */
export interface SendingWorkerOptions extends PollOptions {
  /** Per-attempt limit (default config.webhookTimeoutMs, 15 s; must stay well under the lease). */
  timeoutMs?: number;
  /** Extra trusted CA certificates, PEM. Tests only (see docs/webhooks.md). */
  ca?: string;
  /** DNS for deliveries; tests only. */
  resolver?: Resolver;
  /** Jitter source for retry delays. */
  random?: () => number;
  log?: WorkerLog;
  /** The time it reads and waits on (default the wall clock); tests pass one they move forward. */
  clock?: WorkerClock;
}

export interface WorkerOptions extends SendingWorkerOptions {
  /** Deliveries attempted at once by this worker (default 32); it holds claims on up to three times as many. */
  concurrency?: number;
  /** How long a claim holds before another worker may take the delivery (default twice the timeout). */
  leaseMs?: number;
  /** Counts each attempt's outcome (/metrics). */
  metrics?: { deliveryAttempted(outcome: 'delivered' | 'retry' | 'failed' | 'skipped'): void };
}

/** Claims held at most, in batches of `concurrency`: one on the wire, up to two waiting. */
const HELD_BATCHES = 3;

interface Work {
  delivery: ClaimedDelivery;
  token: string;
  leaseUntil: number;
  target: DeliveryTarget | undefined;
}

/**
 * The delivery worker: claims due deliveries in batches (claimDue: SKIP LOCKED on PostgreSQL, a
 * single atomic UPDATE on SQLite), sends up to `concurrency` at once over one keep-alive connection
 * pool per origin, and settles the outcomes in batches whose transaction also takes the next claim
 * (settler.ts). It claims ahead, up to three times `concurrency`, so the next batch is ready while
 * one is on the wire. Several workers — in `tessera serve` processes and `tessera worker` processes — share
 * one database safely; a worker that dies leaves claims that expire after the lease, so delivery is
 * at least once.
 */
export class DeliveryWorker {
  readonly #deps: Pick<Deps, 'store' | 'sealer' | 'config'>;
  readonly #ctx: AttemptContext;
  readonly #sender: HttpsSender;
  readonly #settler: Settler;
  readonly #concurrency: number;
  readonly #wait: WorkerWait;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #log: WorkerLog;
  readonly #clock: WorkerClock;
  readonly #metrics: WorkerOptions['metrics'];
  /** Claimed, not yet sent. */
  readonly #ready: Work[] = [];
  /** Requests on the wire. */
  #sending = 0;
  /** Every attempt until it is settled (stop() waits for them). */
  readonly #inflight = new Set<Promise<void>>();
  /** More may be due than the last claim took: a change, a retry's time, a poll, a full claim. */
  #moreDue = true;
  #stopping = false;
  #loop: Promise<void> | null = null;
  /** Cancels the wait for `#dueAt`. */
  #dueTimer: (() => void) | null = null;
  #dueAt = Number.POSITIVE_INFINITY;
  #cleanup: (() => Promise<void>)[] = [];

  constructor(deps: Pick<Deps, 'store' | 'sealer' | 'config'>, options: WorkerOptions = {}) {
    this.#deps = deps;
    this.#concurrency = options.concurrency ?? 32;
    const timeoutMs = options.timeoutMs ?? deps.config.webhookTimeoutMs;
    this.#timeoutMs = timeoutMs;
    this.#leaseMs = options.leaseMs ?? 2 * timeoutMs;
    this.#log = options.log ?? silentLog;
    this.#clock = options.clock ?? wallClock;
    this.#wait = new WorkerWait(this.#clock, options);
    this.#metrics = options.metrics;
    this.#sender = new HttpsSender({
      allowPrivate: deps.config.outboundAllowPrivate,
      timeoutMs,
      connectionsPerOrigin: this.#concurrency,
      ca: options.ca,
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
    this.#settler = new Settler(deps.store);
    this.#ctx = {
      sealer: deps.sealer,
      sender: this.#sender,
      settler: this.#settler,
      keys: new Map(),
      schedule: deps.config.webhookRetrySchedule,
      random: options.random ?? Math.random,
      log: this.#log,
      clock: this.#clock,
    };
  }

  start(): this {
    if (this.#loop) return this;
    const unsubscribe = onEnqueued(() => this.#wake(true));
    this.#cleanup.push(async () => unsubscribe());
    this.#wait.listen(this.#deps, 'outbox', this.#log, () => this.#wake(true));
    this.#cleanup.push(() => this.#wait.close());
    this.#loop = this.#run();
    return this;
  }

  /**
   * Stops claiming, hands back what it claimed but did not start (due again at once, for any
   * worker), lets the attempts in flight finish (each is bounded by the timeout), and closes.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake(false);
    await this.#loop;
    await this.#handBack(this.#ready.splice(0));
    await Promise.allSettled([...this.#inflight]);
    this.#dueTimer?.();
    for (const close of this.#cleanup.splice(0)) await close();
    this.#sender.close();
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      this.#pump();
      // Claim ahead: while fewer than one batch wait to be sent, take up to another (at most
      // three batches held), so the next claim's round trips overlap the sending.
      const room = HELD_BATCHES * this.#concurrency - this.#sending - this.#ready.length;
      if (this.#moreDue && this.#ready.length < this.#concurrency && room >= this.#concurrency) {
        this.#moreDue = false;
        try {
          // A claim as large as asked for means more may be due.
          if ((await this.#claim(room)) === room) this.#moreDue = true;
        } catch (error) {
          this.#log.error(
            { err: { message: (error as Error).message } },
            'claiming webhook deliveries failed',
          );
        }
        if (this.#stopping) break;
        this.#pump();
        if (this.#moreDue) continue;
      }
      const poll = this.#wait.poll * (0.8 + 0.4 * Math.random());
      if (await this.#wait.sleep(Math.max(0, Math.min(poll, this.#dueAt - this.#clock.now()))))
        this.#moreDue = true;
    }
  }

  async #claim(limit: number): Promise<number> {
    const now = this.#clock.now();
    const token = randomUUID();
    const leaseUntil = now + this.#leaseMs;
    const { deliveries, targets } = await this.#settler.claim({ limit, now, leaseUntil, token });
    for (const delivery of deliveries) {
      this.#ready.push({ delivery, token, leaseUntil, target: targets.get(delivery.webhookId) });
    }
    return deliveries.length;
  }

  /**
   * Starts claimed deliveries while fewer than `concurrency` are on the wire. One whose lease would
   * end before its attempt could (receivers slow to time out kept it waiting) is handed back
   * instead: once the lease is over, another worker may send it.
   */
  #pump(): void {
    while (!this.#stopping && this.#sending < this.#concurrency && this.#ready.length > 0) {
      const work = this.#ready.shift() as Work;
      if (work.leaseUntil - this.#clock.now() < this.#timeoutMs) this.#track(this.#handBack([work]));
      else this.#dispatch(work);
    }
  }

  #track(run: Promise<void>): void {
    const tracked = run.finally(() => this.#inflight.delete(tracked));
    this.#inflight.add(tracked);
  }

  #dispatch({ delivery, token, target }: Work): void {
    this.#sending++;
    let sent = false;
    const onSent = () => {
      if (sent) return;
      sent = true;
      this.#sending--;
      this.#pump();
      this.#wake(false);
    };
    const run = attemptDelivery(this.#ctx, delivery, token, target, onSent).then(
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
    this.#track(run.finally(onSent));
  }

  /** Claimed but never started: pending again, due now (for any worker), with no attempt counted. */
  async #handBack(works: Work[]): Promise<void> {
    const now = this.#clock.now();
    await Promise.allSettled(
      works.map(({ delivery, token, target }) =>
        this.#settler.settle({
          settlement: {
            id: delivery.id,
            token,
            status: 'pending',
            attempts: delivery.attempts,
            nextAttemptAt: now,
            now,
          },
          attempt: null,
          target,
        }),
      ),
    );
    this.#wake(true);
  }

  /** Look again now; `due` says deliveries may have become due (not just a slot freed). */
  #wake(due: boolean): void {
    if (due) this.#moreDue = true;
    this.#wait.wake();
  }

  /** A retry this worker scheduled: look for due work then, even before the next poll. */
  #wakeAt(at: number): void {
    if (at >= this.#dueAt) return;
    this.#dueAt = at;
    this.#dueTimer?.();
    this.#dueTimer = this.#clock.after(Math.max(0, at - this.#clock.now()), () => {
      this.#dueTimer = null;
      this.#dueAt = Number.POSITIVE_INFINITY;
      this.#wake(true);
    });
  }
}
