import type { Deps } from '../domain/context.js';
import { dialectOf } from '../storage/opened.js';
import { listenForWork, type WorkChannel } from './work-signals.js';
import type { WorkerClock } from './worker-clock.js';
import type { WorkerLog } from './worker-log.js';

/** How often a worker woken by NOTIFYs still looks for work by itself. */
const LISTENING_POLL_MS = 10_000;

/** The poll while NOTIFYs reach the process: the option, else `pollMs` when given, else LISTENING_POLL_MS. */
const listeningPoll = (options: { pollMs?: number; listeningPollMs?: number }) =>
  options.listeningPollMs ?? options.pollMs ?? LISTENING_POLL_MS;

/** The polls of a worker: between looks when no NOTIFY reaches it, and while they do. */
export interface PollOptions {
  /** Longest wait between looks for due work (default 1 s; the webhook and log-stream workers add ±20 % jitter). */
  pollMs?: number;
  /**
   * The same while NOTIFYs reach this process (PostgreSQL, its work listener connected): a fallback
   * only, for claims a dead worker left and NOTIFYs lost (default LISTENING_POLL_MS, or `pollMs` when
   * that is given).
   */
  listeningPollMs?: number;
}

/**
 * How the webhook, logout and log-stream workers wait between looks for work: a sleep of at most
 * a poll (the long one while NOTIFYs reach this process through the node's work listener, on
 * PostgreSQL with a LISTEN URL), cut short by a wake — a NOTIFY, work queued in this process, a
 * slot freed, a retry coming due, stopping. A wake while not asleep makes the next sleep return at
 * once, so none is lost.
 */
export class WorkerWait {
  readonly #clock: WorkerClock;
  readonly #pollMs: number;
  readonly #listeningPollMs: number;
  /** NOTIFYs reach this process: poll only as a fallback. */
  #listening = false;
  #listener: { close(): Promise<void> } | null = null;
  /** Woken while not asleep: the next sleep returns at once. */
  #woken = false;
  #interrupt: (() => void) | null = null;
  /** Cancels the waits for retries coming due. */
  readonly #retryTimers = new Set<() => void>();
  /** Closed: a retry's wait asked for after close() would outlive the worker, so none is started. */
  #closed = false;

  constructor(clock: WorkerClock, options: PollOptions) {
    this.#clock = clock;
    this.#pollMs = options.pollMs ?? 1000;
    this.#listeningPollMs = listeningPoll(options);
  }

  /** The longest wait before the next look: the fallback poll while NOTIFYs reach this process. */
  get poll(): number {
    return this.#listening ? this.#listeningPollMs : this.#pollMs;
  }

  /**
   * On PostgreSQL with a LISTEN URL: calls `onWork` on `channel`'s NOTIFYs. When they stop reaching
   * this process the worker wakes: the short poll applies from then, not after the long wait under way.
   */
  listen(
    deps: Pick<Deps, 'store' | 'config'>,
    channel: WorkChannel,
    log: WorkerLog,
    onWork: () => void,
  ): void {
    const listenUrl = deps.config.databaseListenUrl;
    if (dialectOf(deps.store) !== 'postgres' || !listenUrl) return;
    this.#listener = listenForWork(
      deps.store,
      listenUrl,
      channel,
      {
        wake: onWork,
        live: (live) => {
          this.#listening = live;
          if (!live) this.wake();
        },
      },
      log,
    );
  }

  /** Look again now: ends the sleep under way, or the next one at once. */
  wake(): void {
    this.#woken = true;
    this.#interrupt?.();
  }

  /** Sleeps until woken or `ms` pass; true when the time ran out (a poll is due). */
  sleep(ms: number): Promise<boolean> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve(false);
    }
    return new Promise<boolean>((resolve) => {
      const cancel = this.#clock.after(ms, () => done(true));
      this.#interrupt = () => done(false);
      const done = (timedOut: boolean) => {
        cancel();
        this.#interrupt = null;
        this.#woken = false;
        resolve(timedOut);
      };
    });
  }

  /** Wakes when a retry comes due at `at`, even before the next poll (cancelled by close). */
  wakeAt(at: number): void {
    if (this.#closed) return;
    const cancel = this.#clock.after(Math.max(0, at - this.#clock.now()), () => {
      this.#retryTimers.delete(cancel);
      this.wake();
    });
    this.#retryTimers.add(cancel);
  }

  /** Cancels the retries' waits and closes the listener. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const cancel of this.#retryTimers) cancel();
    this.#retryTimers.clear();
    await this.#listener?.close();
  }
}
