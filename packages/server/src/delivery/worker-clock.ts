/**
 * The time the delivery worker reads (claims, leases, retry times, attempt times, signatures) and
 * the waits it makes on it (polls, a retry coming due). The wall clock unless a test passes one it
 * can move forward, so that a retry schedule is not waited out in real time.
 */
export interface WorkerClock {
  now(): number;
  /** Calls `fn` once `ms` have passed on this clock; the function returned cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const wallClock: WorkerClock = {
  now: () => Date.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};
