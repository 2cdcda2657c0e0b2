import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { dailyCounts } from './audit-events.js';
import { tableOf } from './keyed-rows.js';

const marks = tableOf('audit_count_marks');

/** Up to where (exclusive, epoch ms) the org's per-day counts are complete; 0 before the first seal. */
export async function sealedUntil(store: Handle, orgId: string): Promise<number> {
  const until = await marks.valueWhere(store, 'sealed_until', { org_id: orgId });
  return until === undefined ? 0 : Number(until);
}

/**
 * Counts the org's entries of the days in `[from, until)` (both UTC day boundaries) per day and
 * key (a trigger adds them to the days' totals, migration 033), and moves the mark to `until`. Two
 * nodes sealing the same days at once compute the same rows, so the second insert is a no-op and
 * the mark only ever moves forward.
 */
export async function sealCounts(store: Handle, orgId: string, from: number, until: number): Promise<void> {
  const db = opened(store);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('audit_event_counts')
      .columns(['org_id', 'day', 'key', 'entity', 'verb', 'n'])
      .expression(dailyCounts(trx, orgId, from, until))
      .onConflict((oc) => oc.columns(['org_id', 'day', 'key']).doNothing())
      .execute();
    await trx
      .insertInto('audit_count_marks')
      .values({ org_id: orgId, sealed_until: until })
      .onConflict((oc) =>
        oc
          .column('org_id')
          .doUpdateSet({ sealed_until: until })
          .where('audit_count_marks.sealed_until', '<', until),
      )
      .execute();
  });
}

/** Entries of one sealed day (`day` = `at / 86400000`). */
export interface DayCount {
  day: number;
  n: number;
}

/**
 * Entries per sealed day of `[fromDay, toDay)` (day numbers), of any key or of `keys`, newest day
 * first; days without entries are left out. Of any key: the day totals, one row a day. Of some
 * keys: one pass over the org's count rows in key order (`(org_id, day, key)`, the primary key),
 * at most 366 × keys rows a year.
 */
export async function sealedPerDay(
  store: Handle,
  orgId: string,
  keys: readonly string[] | null,
  fromDay: number,
  toDay: number,
): Promise<DayCount[]> {
  const db = opened(store);
  const rows =
    keys === null
      ? await db
          .selectFrom('audit_day_totals')
          .select(['day', 'n'])
          .where('org_id', '=', orgId)
          .where('day', '>=', fromDay)
          .where('day', '<', toDay)
          .orderBy('day', 'desc')
          .execute()
      : await db
          .selectFrom('audit_event_counts')
          .select((eb) => ['day', eb.fn.sum<number | string>('n').as('n')])
          .where('org_id', '=', orgId)
          .where('day', '>=', fromDay)
          .where('day', '<', toDay)
          .where('key', 'in', keys)
          .groupBy('day')
          .orderBy('day', 'desc')
          .execute();
  return rows.map((r) => ({ day: Number(r.day), n: Number(r.n) }));
}

/** The distinct keys of the org's sealed days. */
export async function sealedKeys(store: Handle, orgId: string) {
  const db = opened(store);
  return db
    .selectFrom('audit_event_counts')
    .select(['key', 'entity', 'verb'])
    .distinct()
    .where('org_id', '=', orgId)
    .execute();
}
