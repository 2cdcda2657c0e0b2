import type { WorkerClock } from '../../../src/delivery/worker-clock.js';

interface Timer {
  at: number;
  fn: () => void;
  real: NodeJS.Timeout;
}

/**
 * A worker clock that runs with the wall clock and that a test can move forward past the waits the
 * worker is making (a poll, a retry coming due) instead of sitting them out. It never goes back:
 * it is the wall clock plus every jump made so far.
 */
export class SkippingClock implements WorkerClock {
  #skipped = 0;
  readonly #timers = new Set<Timer>();

  now(): number {
    return Date.now() + this.#skipped;
  }

  after(ms: number, fn: () => void): () => void {
    // Whole milliseconds, as the wall clock reads (the worker's waits have fractions: the poll's jitter).
    const timer: Timer = {
      at: this.now() + Math.ceil(ms),
      fn,
      real: setTimeout(() => this.#fire(timer), ms),
    };
    this.#timers.add(timer);
    return () => {
      clearTimeout(timer.real);
      this.#timers.delete(timer);
    };
  }

  /** Jumps to the end of the longest wait the worker is making, ending every wait. */
  skip(): void {
    if (this.#timers.size === 0) return;
    const next = Math.max(...[...this.#timers].map((t) => t.at));
    this.#skipped += Math.max(0, next - this.now());
    const now = this.now();
    for (const timer of [...this.#timers]) if (timer.at <= now) this.#fire(timer);
  }

  #fire(timer: Timer): void {
    if (!this.#timers.delete(timer)) return;
    clearTimeout(timer.real);
    timer.fn();
  }
}
