import type { Handle } from '../../storage/handle.js';
import { type DayCount, sealedKeys, sealedPerDay } from '../../storage/repos/audit-counts.js';
import { DAY_MS } from '../../storage/repos/audit-events.js';

/**
 * What this process has read of each org's sealed per-day counts. A sealed day never changes
 * (entries are never deleted, and none is written for a day once it is sealed: SEAL_MARGIN_MS), so
 * what was read under a seal mark stays true while the mark stands; a newer mark starts afresh. The
 * list then reads a few hundred numbers from memory instead of summing thousands of count rows on
 * every request. Bounded: the least recently used orgs, and an org's least used filters, go first.
 */
const MAX_ORGS = 1_000;
const MAX_FILTERS_PER_ORG = 64;

interface Sealed {
  mark: number;
  keys: Promise<Awaited<ReturnType<typeof sealedKeys>>> | null;
  /** Per-day counts of every sealed day, newest first, by key filter (`*` for any key). */
  days: Map<string, Promise<DayCount[]>>;
}

const orgs = new Map<string, Sealed>();

function entry(orgId: string, mark: number): Sealed {
  let sealed = orgs.get(orgId);
  if (sealed?.mark !== mark) sealed = { mark, keys: null, days: new Map() };
  // Re-inserted on every use, so the Map's first key is the least recently used org.
  orgs.delete(orgId);
  if (orgs.size >= MAX_ORGS) orgs.delete(orgs.keys().next().value as string);
  orgs.set(orgId, sealed);
  return sealed;
}

/** The newest seal mark this process saw for the org (0: none yet). */
export function knownMark(orgId: string): number {
  return orgs.get(orgId)?.mark ?? 0;
}

/** The distinct keys of the org's days sealed up to `mark`. */
export function keysSealed(db: Handle, orgId: string, mark: number) {
  const sealed = entry(orgId, mark);
  sealed.keys ??= forget(sealedKeys(db, orgId), () => {
    sealed.keys = null;
  });
  return sealed.keys;
}

/** Entries per sealed day of `[fromDay, toDay)`, of any key or of `keys`, newest day first. */
export async function daysSealed(
  db: Handle,
  orgId: string,
  mark: number,
  keys: readonly string[] | null,
  fromDay: number,
  toDay: number,
): Promise<DayCount[]> {
  const sealed = entry(orgId, mark);
  const name = keys === null ? '*' : [...keys].sort().join('\n');
  let days = sealed.days.get(name);
  if (!days) {
    days = forget(sealedPerDay(db, orgId, keys, 0, mark / DAY_MS), () => sealed.days.delete(name));
    if (sealed.days.size >= MAX_FILTERS_PER_ORG)
      sealed.days.delete(sealed.days.keys().next().value as string);
  }
  sealed.days.delete(name);
  sealed.days.set(name, days);
  return (await days).filter((d) => d.day >= fromDay && d.day < toDay);
}

/** A failed read is not kept: the next request reads again. */
function forget<T>(read: Promise<T>, drop: () => void): Promise<T> {
  read.catch(drop);
  return read;
}
