/** The second last formatted, and its text up to the milliseconds (`YYYY-MM-DDTHH:MM:SS.`). */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/**
 * `new Date(ms).toISOString()`, character for character, for a whole number of milliseconds. A batch
 * of audit entries is mostly written within a few seconds, so the date and time are formatted once per
 * second and only the milliseconds each time: formatting a date was the largest part of serializing a
 * log stream's entry.
 */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    // Throws for a time out of Date's range, as toISOString does.
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, -4);
    cachedSecond = second;
  }
  const milli = ms - second * 1000;
  return `${cachedPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/** An instant that may not have happened (yet): its isoTime, or null. */
export const isoTimeOrNull = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));

/** The second last written by epochSecondsText, and its text. */
let secondsOf = Number.NaN;
let secondsText = '';
/** `.001` … `.999` as `String(n / 1000)` ends (trailing zeros dropped), `''` for 0. */
const FRACTIONS = Array.from({ length: 1000 }, (_, milli) =>
  milli === 0 ? '' : `.${String(milli).padStart(3, '0').replace(/0+$/, '')}`,
);

/**
 * `String(ms / 1000)`, character for character: seconds since the epoch as Splunk's HEC `time` takes them.
 * Formatting a fraction is as costly as serializing a string; for a whole, non-negative number of
 * milliseconds under 10^15 (15 digits, which a double always prints back as they are) the seconds' text
 * is kept while they last and the fraction is looked up.
 */
export function epochSecondsText(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= 1e15) return String(ms / 1000);
  const second = Math.floor(ms / 1000);
  if (second !== secondsOf) {
    secondsText = String(second);
    secondsOf = second;
  }
  return `${secondsText}${FRACTIONS[ms - second * 1000]}`;
}
