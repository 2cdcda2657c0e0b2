/**
 * When a failed delivery is tried again (DESIGN §6): after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h,
 * so eight attempts in all over about 28 hours, each delay spread by ±10 % jitter so a receiver
 * coming back is not hit by every retry at once. TESSERA_WEBHOOK_RETRY_SCHEDULE replaces the delays
 * (tests shorten them).
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const MAX_STEPS = 20;
const MAX_STEP_MS = 7 * 24 * 3_600_000;
/** A `Retry-After` is honoured up to this far ahead; a receiver cannot park a delivery forever. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
export const JITTER = 0.1;
/** One attempt's time limit (DESIGN §6); TESSERA_WEBHOOK_TIMEOUT replaces it (tests shorten it). */
export const DEFAULT_WEBHOOK_TIMEOUT = '15s';

/** Parses `5s,5m,2h` (units ms, s, m, h) into delays in milliseconds; the message names what is wrong. */
export function parseRetrySchedule(text: string): number[] {
  const steps = text.split(',').map((s) => s.trim());
  if (steps.length > MAX_STEPS) throw new Error(`has more than ${MAX_STEPS} delays`);
  return steps.map((step) => parseDelay(step, MAX_STEP_MS));
}

/** One delay such as `500ms`, `5s`, `5m` or `2h`, in milliseconds, above 0 and at most `maxMs`. */
export function parseDelay(step: string, maxMs: number): number {
  const match = /^(\d+)(ms|s|m|h)$/.exec(step);
  if (!match) throw new Error(`"${step}" is not a delay such as 500ms, 5s, 5m or 2h`);
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms <= 0 || ms > maxMs) throw new Error(`"${step}" must be above 0 and at most ${formatLimit(maxMs)}`);
  return ms;
}

const formatLimit = (ms: number) => (ms >= 86_400_000 ? `${ms / 86_400_000} days` : `${ms / 1000} s`);

/**
 * The delay before the next attempt, after `attemptsMade` attempts have failed, or null when the
 * schedule is spent (the delivery has failed for good). A `Retry-After` pushes the retry later,
 * never earlier.
 */
export function nextRetryDelay(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  if (retryAfterMs === null) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}
