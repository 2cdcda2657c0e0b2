import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { Handle } from '../handle.js';
import { dialectOf, opened } from '../opened.js';

export interface SlotResult {
  taken: boolean;
  /** When refused: milliseconds until the oldest counted hit leaves the window. */
  retryAfterMs: number;
}

/**
 * Takes one slot of `limit` per `windowMs` in `bucket`, exactly, across processes.
 * The count and the insert are one statement; on PostgreSQL an advisory lock on the bucket
 * serializes concurrent callers (READ COMMITTED would let two of them see the same count), on
 * SQLite the statement itself holds the database's single write lock.
 */
export async function takeSlot(
  store: Handle,
  bucket: string,
  limit: number,
  windowMs: number,
  now: number,
): Promise<SlotResult> {
  const db = opened(store);
  const dialect = dialectOf(store);
  const since = now - windowMs;
  const attempt = async (trx: Db) => {
    if (dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtextextended(${bucket}, 0))`.execute(trx);
    await trx.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).where('at', '<=', since).execute();
    const inserted = await sql<{ at: number }>`
      insert into rate_limit_hits (bucket, at)
      select ${bucket}, ${now}
      where (select count(*) from rate_limit_hits where bucket = ${bucket} and at > ${since}) < ${limit}
      returning at`.execute(trx);
    if (inserted.rows.length === 1) return { taken: true, retryAfterMs: 0 };
    const oldest = await trx
      .selectFrom('rate_limit_hits')
      .select((eb) => eb.fn.min('at').as('at'))
      .where('bucket', '=', bucket)
      .where('at', '>', since)
      .executeTakeFirst();
    const oldestAt = Number(oldest?.at ?? now);
    return { taken: false, retryAfterMs: Math.max(1000, oldestAt + windowMs - now) };
  };
  return db.transaction().execute(attempt);
}
