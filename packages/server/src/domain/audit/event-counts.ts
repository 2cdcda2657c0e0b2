import type { Handle } from '../../storage/handle.js';
import { sealCounts, sealedUntil } from '../../storage/repos/audit-counts.js';
import {
  type AuditFilter,
  countAuditEvents,
  DAY_MS,
  keysSince,
  type TimeRange,
} from '../../storage/repos/audit-events.js';
import { clock } from '../clock.js';
import { daysSealed, keysSealed, knownMark } from './sealed-counts.js';

/**
 * How long after a UTC day ends its counts are sealed. An entry's `at` is taken when its change is
 * written, so this must exceed the longest transaction plus the clock skew between nodes: an
 * entry committed later than this with an older `at` would be listed but not counted.
 */
export const SEAL_MARGIN_MS = 60 * 60 * 1000;

/**
 * Seals the org's per-day counts up to the last day that ended SEAL_MARGIN_MS ago (the first call
 * for an org counts its whole history once); returns up to where they are sealed.
 */
export async function ensureSealed(db: Handle, orgId: string, now = clock.now()): Promise<number> {
  const target = Math.floor((now - SEAL_MARGIN_MS) / DAY_MS) * DAY_MS;
  // The mark only moves forward: one this process saw that is new enough needs no read.
  const known = knownMark(orgId);
  if (known >= target) return known;
  const mark = await sealedUntil(db, orgId);
  if (mark >= target) return mark;
  await sealCounts(db, orgId, mark, target);
  return target;
}

export interface KeyRefinement {
  entity: string | null;
  verb: string | null;
  keyPrefix: string | null;
}

/**
 * The keys an entity/verb/key_prefix filter stands for, from the keys the org's entries use
 * (sealed days, then the live tail): null when nothing is filtered, [] when nothing can match.
 * One `key` index then serves all three filters.
 */
export async function keysOf(db: Handle, orgId: string, sealed: number, r: KeyRefinement) {
  if (r.entity === null && r.verb === null && r.keyPrefix === null) return null;
  const [old, recent] = await Promise.all([keysSealed(db, orgId, sealed), keysSince(db, orgId, sealed)]);
  const keys = new Set<string>();
  for (const k of [...old, ...recent]) {
    if (r.entity !== null && k.entity !== r.entity) continue;
    if (r.verb !== null && k.verb !== r.verb) continue;
    if (r.keyPrefix !== null && !k.key.startsWith(r.keyPrefix)) continue;
    keys.add(k.key);
  }
  return [...keys];
}

/**
 * A stretch of the matching entries in the list's order: the `n` entries with `from ≤ at < to`
 * (null ends open). Segments do not overlap and are newest first.
 */
export interface Segment {
  from: number | null;
  to: number | null;
  n: number;
}

/**
 * The matching entries cut into segments, newest first, with how many each holds: the part of the
 * range after the sealed days (the unsealed tail, or the partial day at `to`) counted live, then
 * each whole sealed day inside the range from the per-day counts, then the partial day at `from`
 * counted live. Their sum is the total; the list seeks to the segment holding its first entry
 * (domain/audit/events.ts). Counts by actor are not kept per day, so an actor filter (and a range
 * holding no whole sealed day) is one segment counted live from its own index.
 */
export async function countSegments(
  db: Handle,
  filter: AuditFilter,
  range: TimeRange,
  sealed: number,
): Promise<Segment[]> {
  const whole = async () => [{ ...range, n: await countAuditEvents(db, filter, [range]) }];
  if (filter.actorId !== null) return whole();
  const firstDay = range.from === null ? 0 : Math.ceil(range.from / DAY_MS) * DAY_MS;
  const endDay = Math.min(range.to === null ? sealed : Math.floor(range.to / DAY_MS) * DAY_MS, sealed);
  if (firstDay >= endDay) return whole();
  const top = range.to === null || endDay < range.to ? { from: endDay, to: range.to } : null;
  const bottom = range.from !== null && range.from < firstDay ? { from: range.from, to: firstDay } : null;
  const live = (r: TimeRange | null) => (r === null ? 0 : countAuditEvents(db, filter, [r]));
  const [topN, days, bottomN] = await Promise.all([
    live(top),
    daysSealed(db, filter.orgId, sealed, filter.keys, firstDay / DAY_MS, endDay / DAY_MS),
    live(bottom),
  ]);
  const segments: Segment[] = [];
  if (top !== null) segments.push({ ...top, n: topN });
  for (const { day, n } of days) segments.push({ from: day * DAY_MS, to: (day + 1) * DAY_MS, n });
  if (bottom !== null) segments.push({ ...bottom, n: bottomN });
  return segments.filter((s) => s.n > 0);
}
