import type { Db } from '../../storage/db.js';
import { DAY_MS, sealCounts, sealedKeys, sealedUntil, sumSealed } from '../../storage/repos/audit-counts.js';
import {
  type AuditFilter,
  countAuditEvents,
  keysSince,
  type TimeRange,
} from '../../storage/repos/audit-events.js';
import { clock } from '../clock.js';

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
export async function ensureSealed(db: Db, orgId: string, now = clock.now()): Promise<number> {
  const mark = await sealedUntil(db, orgId);
  const target = Math.floor((now - SEAL_MARGIN_MS) / DAY_MS) * DAY_MS;
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
export async function keysOf(db: Db, orgId: string, sealed: number, r: KeyRefinement) {
  if (r.entity === null && r.verb === null && r.keyPrefix === null) return null;
  const [old, recent] = await Promise.all([sealedKeys(db, orgId), keysSince(db, orgId, sealed)]);
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
 * How many entries match: whole sealed days inside the range from the per-day counts, the rest
 * (partial days at the range's ends, the unsealed tail) counted live. Counts by actor are not
 * kept per day, so an actor filter is always counted live, from its own index.
 */
export async function countEvents(
  db: Db,
  filter: AuditFilter,
  range: TimeRange,
  sealed: number,
): Promise<number> {
  if (filter.actorId !== null) return countAuditEvents(db, filter, [range]);
  const firstDay = range.from === null ? 0 : Math.ceil(range.from / DAY_MS) * DAY_MS;
  const endDay = Math.min(range.to === null ? sealed : Math.floor(range.to / DAY_MS) * DAY_MS, sealed);
  if (firstDay >= endDay) return countAuditEvents(db, filter, [range]);
  const live: TimeRange[] = [];
  if (range.from !== null && range.from < firstDay) live.push({ from: range.from, to: firstDay });
  if (range.to === null || endDay < range.to) live.push({ from: endDay, to: range.to });
  const [days, rest] = await Promise.all([
    sumSealed(db, filter.orgId, filter.keys, firstDay / DAY_MS, endDay / DAY_MS),
    countAuditEvents(db, filter, live),
  ]);
  return days + rest;
}
