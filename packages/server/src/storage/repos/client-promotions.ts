import type { Handle } from '../handle.js';
import { opened } from '../opened.js';

export async function insertClientPromotions(
  store: Handle,
  clientId: string,
  sources: string[],
  now: number,
) {
  const db = opened(store);
  if (sources.length === 0) return;
  await db
    .insertInto('client_promotions')
    .values(sources.map((source_client_id) => ({ client_id: clientId, source_client_id, created_at: now })))
    .execute();
}

/** The public clients whose user tokens `clientId` may exchange, oldest first. */
export async function listPromotableClients(store: Handle, clientId: string): Promise<string[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('client_promotions')
    .select('source_client_id')
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .orderBy('source_client_id')
    .execute();
  return rows.map((r) => r.source_client_id);
}
