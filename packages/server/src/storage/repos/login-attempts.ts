import type { Db } from '../db.js';

export interface AttemptCount {
  attempts: number;
  windowStart: number;
}

/**
 * Counts one attempt in a fixed window, atomically (one upsert), and returns the count including
 * it. A window that has ended starts over at 1. Works across nodes on PostgreSQL.
 */
export async function countAttempt(
  db: Db,
  orgId: string,
  key: string,
  now: number,
  windowMs: number,
): Promise<AttemptCount> {
  const windowOver = now - windowMs;
  const row = await db
    .insertInto('login_attempts')
    .values({ org_id: orgId, key, window_start: now, attempts: 1 })
    .onConflict((oc) =>
      oc.columns(['org_id', 'key']).doUpdateSet((eb) => ({
        attempts: eb
          .case()
          .when('login_attempts.window_start', '<=', windowOver)
          .then(1)
          .else(eb('login_attempts.attempts', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('login_attempts.window_start', '<=', windowOver)
          .then(now)
          .else(eb.ref('login_attempts.window_start'))
          .end(),
      })),
    )
    .returning(['attempts', 'window_start'])
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), windowStart: Number(row.window_start) };
}

/** Gives back one counted attempt (a successful sign-in does not count against its IP). */
export async function refundAttempt(db: Db, orgId: string, key: string): Promise<void> {
  await db
    .updateTable('login_attempts')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('org_id', '=', orgId)
    .where('key', '=', key)
    .where('attempts', '>', 0)
    .execute();
}

export async function clearAttempts(db: Db, orgId: string, key: string): Promise<void> {
  await db.deleteFrom('login_attempts').where('org_id', '=', orgId).where('key', '=', key).execute();
}
