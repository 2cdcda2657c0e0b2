import { randomUUID } from 'node:crypto';
import type { Deps } from '../domain/context.js';
import { logoutTokenFor } from '../domain/tokens/index.js';
import type { LogoutDelivery } from '../domain/types.js';
import { nextRetryDelay, onEnqueued } from '../domain/webhooks/index.js';
import { dialectOf } from '../storage/opened.js';
import { claimDueLogouts, settleLogoutDelivery } from '../storage/repos/logout-deliveries.js';
import { HttpsSender, type SendResult } from './https-sender.js';
import type { SendingWorkerOptions, WorkerOptions } from './worker.js';
import { type WorkerClock, wallClock } from './worker-clock.js';
import { silentLog, type WorkerLog } from './worker-log.js';
import { WorkerWait } from './worker-wait.js';

export interface LogoutWorkerOptions extends SendingWorkerOptions {
  /** Logout tokens sent at once (default 8). */
  concurrency?: number;
}

/** The webhook worker's options the logout worker takes too (a test's CA, resolver, clock, poll). */
const SHARED_OPTIONS = [
  'ca',
  'resolver',
  'clock',
  'pollMs',
  'listeningPollMs',
  'timeoutMs',
  'random',
] as const;

/** The logout worker's options taken from the webhook worker's (a test's CA, resolver, clock, poll). */
export function logoutOptions(log: WorkerLog, webhooks: WorkerOptions | undefined): LogoutWorkerOptions {
  const given = SHARED_OPTIONS.filter((k) => webhooks?.[k] !== undefined);
  return { log, ...Object.fromEntries(given.map((k) => [k, webhooks?.[k]])) };
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
  readonly #wait: WorkerWait;
  readonly #leaseMs: number;
  readonly #schedule: readonly number[];
  readonly #random: () => number;
  readonly #log: WorkerLog;
  readonly #clock: WorkerClock;
  #stopping = false;
  #loop: Promise<void> | null = null;
  #unsubscribe: (() => void) | null = null;

  constructor(deps: Deps, options: LogoutWorkerOptions = {}) {
    this.#deps = deps;
    this.#concurrency = options.concurrency ?? 8;
    const timeoutMs = options.timeoutMs ?? deps.config.webhookTimeoutMs;
    this.#leaseMs = 2 * timeoutMs + 5_000;
    this.#schedule = deps.config.webhookRetrySchedule;
    this.#random = options.random ?? Math.random;
    this.#log = options.log ?? silentLog;
    this.#clock = options.clock ?? wallClock;
    this.#wait = new WorkerWait(this.#clock, options);
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
    this.#unsubscribe = onEnqueued(() => this.#wait.wake());
    // Queuing a logout sends a NOTIFY at commit: other nodes' queues wake this one.
    this.#wait.listen(this.#deps, 'logouts', this.#log, () => this.#wait.wake());
    this.#loop = this.#run();
    return this;
  }

  /** Stops claiming and waits for the attempts under way (each bounded by the time limit). */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wait.wake();
    await this.#loop;
    this.#unsubscribe?.();
    await this.#wait.close();
    this.#sender.close();
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
      await this.#wait.sleep(this.#wait.poll);
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
    // Look again when the retry comes due, even before the next poll.
    if (status === 'pending' && !this.#stopping) this.#wait.wakeAt(now + (delay as number));
  }
}
