import type { Db } from '../db.js';
import type { WebhooksTable } from '../schema.js';

/** A webhook as the delivery worker needs it, sealed secret included. */
export type DeliveryTarget = WebhooksTable;

/** The webhooks of these ids, by id (deleted ones are simply absent). */
export async function loadDeliveryTargets(db: Db, ids: string[]): Promise<Map<string, DeliveryTarget>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('webhooks').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Sets an active webhook inactive; false when it was inactive already (or is gone). */
export async function deactivateWebhook(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set({ active: 0, updated_at: now })
    .where('id', '=', id)
    .where('active', '=', 1)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** One webhook of an org (without its secret), or null. */
export async function findOrgWebhook(db: Db, orgId: string, id: string) {
  const row = await db
    .selectFrom('webhooks')
    .select(['id', 'org_id', 'active'])
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ?? null;
}
