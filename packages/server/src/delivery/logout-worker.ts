import { randomUUID } from 'node:crypto';
import type { Deps } from '../domain/context.js';
import { logoutTokenFor } from '../domain/tokens/index.js';
import type { LogoutDelivery } from '../domain/types.js';
import { nextRetryDelay, onEnqueued } from '../domain/webhooks/index.js';
import { dialectOf } from '../storage/opened.js';
import { claimDueLogouts, settleLogoutDelivery } from '../storage/repos/logout-deliveries.js';
import type { Resolver } from './checked-lookup.js';
import { HttpsSender, type SendResult } from './https-sender.js';
import { listenForWork } from './work-signals.js';
import { listeningPoll, type WorkerOptions } from './worker.js';
import { type WorkerClock, wallClock } from './worker-clock.js';
import { silentLog, type WorkerLog } from './worker-log.js';

export interface LogoutWorkerOptions {
  /** Logout tokens sent at once (default 8). */
  concurrency?: number;
  /** Longest wait between looks for due deliveries (default 1 s). */
  pollMs?: number;
  /** The same while NOTIFYs reach this process (worker.ts listeningPoll). */
  listeningPollMs?: number;
  /** Per-attempt limit (default config.webhookTimeoutMs, as webhooks). */
  timeoutMs?: number;
  /** Extra trusted CA certificates, PEM. Tests only. */
  ca?: string;
  /** DNS for deliveries; tests only. */
  resolver?: Resolver;
  random?: () => number;
  log?: WorkerLog;
  clock?: WorkerClock;
}

/** The logout worker's options taken from the webhook worker's (a test's CA, resolver, clock, poll). */
export function logoutOptions(log: WorkerLog, webhooks: WorkerOptions | undefined): LogoutWorkerOptions {
  return {
    log,
    ...(webhooks?.ca === undefined ? {} : { ca: webhooks.ca }),
    ...(webhooks?.resolver === undefined ? {} : { resolver: webhooks.resolver }),
    ...(webhooks?.clock === undefined ? {} : { clock: webhooks.clock }),
    ...(webhooks?.pollMs === undefined ? {} : { pollMs: webhooks.pollMs }),
    ...(webhooks?.listeningPollMs === undefined ? {} : { listeningPollMs: webhooks.listeningPollMs }),
    ...(webhooks?.timeoutMs === undefined ? {} : { timeoutMs: webhooks.timeoutMs }),
    ...(webhooks?.random === undefined ? {} : { random: webhooks.random }),
  };
}

/**
 * Sends the logout tokens of OIDC Back-Channel Logout 1.0 (§2.5): each queued delivery is claimed
 * (leased like a webhook delivery, so several workers share the queue and a dead one's claims
 * expire), its token signed at that moment (a fresh `iat`, `exp`, `jti`), and POSTed as
 * `application/x-www-form-urlencoded` `logout_token=…` through the webhooks' sender: the same
 * outbound address policy on the address dialled, the same time limit per attempt, redirects not
 * followed, responses read up to 64 KiB and dropped. 2xx is delivered (the specification's 200, or
 * any success); anything else is tried again on the webhooks' retry schedule, then failed. The
 * outcome of the last attempt stays on the row: the client's delivery log.
 */
export class LogoutWorker {
  readonly #deps: Deps;
  readonly #sender: HttpsSender;
  readonly #concurrency: number;
  readonly #pollMs: number;
  readonly #listeningPollMs: number;
  /** NOTIFYs reach this process: poll only as a fallback. */
  #listening = false;
  #listener: { close(): Promise<void> } | null = null;
  readonly #leaseMs: number;
  readonly #schedule: readonly number[];
  readonly #random: () => number;
  readonly #log: WorkerLog;
  readonly #clock: WorkerClock;
  #stopping = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #woken = false;
  #unsubscribe: (() => void) | null = null;
  /** Cancels the waits for retries coming due. */
  readonly #retryTimers = new Set<() => void>();

  constructor(deps: Deps, options: LogoutWorkerOptions = {}) {
    this.#deps = deps;
    this.#concurrency = options.concurrency ?? 8;
    this.#pollMs = options.pollMs ?? 1000;
    this.#listeningPollMs = listeningPoll(options);
    const timeoutMs = options.timeoutMs ?? deps.config.webhookTimeoutMs;
    this.#leaseMs = 2 * timeoutMs + 5_000;
    this.#schedule = deps.config.webhookRetrySchedule;
    this.#random = options.random ?? Math.random;
    this.#log = options.log ?? silentLog;
    this.#clock = options.clock ?? wallClock;
    this.#sender = new HttpsSender({
      allowPrivate: deps.config.outboundAllowPrivate,
      timeoutMs,
      connectionsPerOrigin: this.#concurrency,
      ca: options.ca,
      loopbackHttp: true,
      userAgent: 'Tessera-Logout/1',
      ...(options.resolver ? { resolver: options.resolver } : {}),
    });
  }

  start(): this {
    if (this.#loop) return this;
    this.#unsubscribe = onEnqueued(() => this.#nudge());
    // Queuing a logout sends a NOTIFY at commit: other nodes' queues wake this one.
    const listenUrl = this.#deps.config.databaseListenUrl;
    if (dialectOf(this.#deps.store) === 'postgres' && listenUrl) {
      this.#listener = listenForWork(
        this.#deps.store,
        listenUrl,
        'logouts',
        {
          wake: () => this.#nudge(),
          live: (live) => {
            this.#listening = live;
            if (!live) this.#wake?.();
          },
        },
        this.#log,
      );
    }
    this.#loop = this.#run();
    return this;
  }

  /** Stops claiming and waits for the attempts under way (each bounded by the time limit). */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#nudge();
    await this.#loop;
    for (const cancel of this.#retryTimers) cancel();
    this.#retryTimers.clear();
    this.#unsubscribe?.();
    await this.#listener?.close();
    this.#sender.close();
  }

  #nudge(): void {
    this.#woken = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      let claimed = 0;
      try {
        claimed = await this.#round();
      } catch (error) {
        this.#log.error({ err: { message: (error as Error).message } }, 'logout delivery round failed');
      }
      if (this.#stopping) break;
      if (claimed === this.#concurrency) continue;
      await this.#sleep(this.#listening ? this.#listeningPollMs : this.#pollMs);
    }
  }

  /** Claims up to `concurrency` due deliveries and attempts them all; how many it claimed. */
  async #round(): Promise<number> {
    const now = this.#clock.now();
    const token = randomUUID();
    const deliveries = await claimDueLogouts(this.#deps.store, dialectOf(this.#deps.store), {
      limit: this.#concurrency,
      now,
      leaseUntil: now + this.#leaseMs,
      token,
    });
    await Promise.all(deliveries.map((d) => this.#attempt(d, token)));
    return deliveries.length;
  }

  async #attempt(delivery: LogoutDelivery, token: string): Promise<void> {
    const started = this.#clock.now();
    let result: SendResult;
    try {
      const logoutToken = await logoutTokenFor(this.#deps, delivery, started);
      result =
        logoutToken === null
          ? { status: null, durationMs: 0, error: 'the organization is gone', retryAfterMs: null }
          : await this.#sender.post(
              delivery.url,
              {},
              new URLSearchParams({ logout_token: logoutToken }).toString(),
              'application/x-www-form-urlencoded',
            );
    } catch (error) {
      // Signing failed (no key): safe to show, tried again later.
      result = { status: null, durationMs: 0, error: (error as Error).message, retryAfterMs: null };
    }
    const attempts = delivery.attempts + 1;
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const delay = ok ? null : nextRetryDelay(this.#schedule, attempts, result.retryAfterMs, this.#random);
    const status = ok ? 'delivered' : delay === null ? 'failed' : 'pending';
    const now = this.#clock.now();
    await settleLogoutDelivery(this.#deps.store, {
      id: delivery.id,
      token,
      status,
      attempts,
      nextAttemptAt: status === 'pending' ? now + (delay as number) : null,
      attemptedAt: started,
      statusCode: result.status,
      error: result.error,
    });
    const fields = {
      deliveryId: delivery.id,
      clientId: delivery.clientId,
      attempt: attempts,
      statusCode: result.status,
      durationMs: result.durationMs,
    };
    if (ok) this.#log.debug(fields, 'logout token delivered');
    else this.#log.warn({ ...fields, error: result.error, outcome: status }, 'logout token delivery failed');
    if (status === 'pending') this.#nudgeAt(now + (delay as number));
  }

  /** Looks again when a retry comes due, even before the next poll. */
  #nudgeAt(at: number): void {
    if (this.#stopping) return;
    const cancel = this.#clock.after(Math.max(0, at - this.#clock.now()), () => {
      this.#retryTimers.delete(cancel);
      this.#nudge();
    });
    this.#retryTimers.add(cancel);
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const cancel = this.#clock.after(ms, () => done());
      this.#wake = () => done();
      const done = () => {
        cancel();
        this.#wake = null;
        this.#woken = false;
        resolve();
      };
    });
  }
}
