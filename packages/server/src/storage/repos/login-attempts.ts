import { sql } from 'kysely';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';

export interface AttemptCount {
  attempts: number;
  windowStart: number;
}

export interface CountedKey {
  key: string;
  /** The fixed window this key counts in, in ms (a constant of the code: it is written into the SQL). */
  windowMs: number;
}

/**
 * Counts one attempt against each key in its fixed window, atomically and in one statement (a
 * multi-row upsert), and returns each key's count including it. A window that has ended starts over
 * at 1. Works across nodes on PostgreSQL. `counted` must not name a key twice.
 */
export async function countAttempts(
  store: Handle,
  orgId: string,
  counted: readonly CountedKey[],
  now: number,
): Promise<Map<string, AttemptCount>> {
  const db = opened(store);
  const windowOf = sql<number>`case excluded.key ${sql.join(
    counted.map(({ key, windowMs }) => {
      if (!Number.isSafeInteger(windowMs) || windowMs <= 0) throw new Error(`bad window ${windowMs}`);
      return sql`when ${key} then ${sql.lit(windowMs)}`;
    }),
    sql` `,
  )} end`;
  // Both sides of SET read the row as it was before the update, on SQLite and PostgreSQL alike.
  const over = sql<boolean>`login_attempts.window_start <= excluded.window_start - ${windowOf}`;
  const rows = await db
    .insertInto('login_attempts')
    .values(counted.map(({ key }) => ({ org_id: orgId, key, window_start: now, attempts: 1 })))
    .onConflict((oc) =>
      oc.columns(['org_id', 'key']).doUpdateSet({
        attempts: sql<number>`case when ${over} then 1 else login_attempts.attempts + 1 end`,
        window_start: sql<number>`case when ${over} then excluded.window_start else login_attempts.window_start end`,
      }),
    )
    .returning(['key', 'attempts', 'window_start'])
    .execute();
  return new Map(
    rows.map((r) => [r.key, { attempts: Number(r.attempts), windowStart: Number(r.window_start) }]),
  );
}

/**
 * In one statement: clears the counts of `clear` and gives back one counted attempt to each of
 * `refund` (never below zero).
 */
export async function settleAttempts(
  store: Handle,
  orgId: string,
  { clear = [], refund = [] }: { clear?: readonly string[]; refund?: readonly string[] },
): Promise<void> {
  const db = opened(store);
  const keys = [...clear, ...refund];
  if (keys.length === 0) return;
  await db
    .updateTable('login_attempts')
    .set((eb) => ({
      attempts:
        clear.length === 0
          ? eb('attempts', '-', 1)
          : eb
              .case()
              .when('key', 'in', clear)
              .then(0)
              .else(eb('attempts', '-', 1))
              .end(),
    }))
    .where('org_id', '=', orgId)
    .where('key', 'in', keys)
    .where('attempts', '>', 0)
    .execute();
}
