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
