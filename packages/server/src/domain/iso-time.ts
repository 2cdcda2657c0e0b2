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
