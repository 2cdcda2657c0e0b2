import type { Db } from '../db.js';

export async function insertClientPromotions(db: Db, clientId: string, sources: string[], now: number) {
  if (sources.length === 0) return;
  await db
    .insertInto('client_promotions')
    .values(sources.map((source_client_id) => ({ client_id: clientId, source_client_id, created_at: now })))
    .execute();
}

/** The public clients whose user tokens `clientId` may exchange, oldest first. */
export async function listPromotableClients(db: Db, clientId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('client_promotions')
    .select('source_client_id')
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .orderBy('source_client_id')
    .execute();
  return rows.map((r) => r.source_client_id);
}
