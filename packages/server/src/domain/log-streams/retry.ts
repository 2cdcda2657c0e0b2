/**
 * When a stream whose destination failed is tried again: 1 s after the first failure, doubling per
 * failure up to 5 min, each spread by ±20 % jitter; a `Retry-After` pushes it later (up to 1 h), never
 * earlier. A stream never gives up and never skips an entry: it waits for its destination, and its
 * status and last error say so.
 */
export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 5 * 60_000;
const MAX_RETRY_AFTER_MS = 3_600_000;
const JITTER = 0.2;

export function streamRetryDelay(
  failures: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number {
  const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(30, Math.max(0, failures - 1)));
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterMs === null) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}
