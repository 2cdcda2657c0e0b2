import type { Db } from './db.js';

/** How many webhook deliveries wait to be attempted (pending, due now or later). */
export async function outboxDepth(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
