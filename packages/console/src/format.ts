/** A timestamp as people read it, in their own time zone, to the second. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export const fullName = (u: { first_name: string | null; last_name: string | null }) =>
  [u.first_name, u.last_name].filter((n) => n).join(' ');

/** A number of seconds as people say it: 900 → "15 minutes", 5400 → "1 hour 30 minutes". */
export function duration(seconds: number): string {
  const parts: string[] = [];
  let left = Math.max(0, Math.round(seconds));
  for (const [size, unit] of [
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ] as const) {
    const n = Math.floor(left / size);
    left -= n * size;
    if (n > 0) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(' ') : '0 seconds';
}
