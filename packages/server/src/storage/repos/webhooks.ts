import type { Db } from '../db.js';
import type { WebhooksTable } from '../schema.js';

/** A webhook as stored, minus its sealed secret (only the delivery worker reads `secret_sealed`). */
export interface WebhookRecord {
  id: string;
  orgId: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: number;
  updatedAt: number;
}

const PUBLIC_COLUMNS = ['id', 'org_id', 'url', 'events', 'active', 'created_at', 'updated_at'] as const;

const toRecord = (r: Omit<WebhooksTable, 'secret_sealed'>): WebhookRecord => ({
  id: r.id,
  orgId: r.org_id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  active: r.active === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertWebhook(db: Db, w: WebhookRecord, secretSealed: string): Promise<void> {
  await db
    .insertInto('webhooks')
    .values({
      id: w.id,
      org_id: w.orgId,
      url: w.url,
      events: JSON.stringify(w.events),
      secret_sealed: secretSealed,
      active: w.active ? 1 : 0,
      created_at: w.createdAt,
      updated_at: w.updatedAt,
    })
    .execute();
}

/** An org's webhooks, oldest first. */
export async function listWebhooks(db: Db, orgId: string): Promise<WebhookRecord[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select(PUBLIC_COLUMNS)
    .where('org_id', '=', orgId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

/** The org's webhook (without its secret), or null. */
export async function findWebhook(db: Db, orgId: string, id: string): Promise<WebhookRecord | null> {
  const row = await db
    .selectFrom('webhooks')
    .select(PUBLIC_COLUMNS)
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** Stores what an update may change: url, events, active (and `updated_at`). */
export async function updateWebhookRow(db: Db, w: WebhookRecord): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({
      url: w.url,
      events: JSON.stringify(w.events),
      active: w.active ? 1 : 0,
      updated_at: w.updatedAt,
    })
    .where('id', '=', w.id)
    .where('org_id', '=', w.orgId)
    .execute();
}

/** Deletes the webhook if it belongs to `orgId`; returns what was deleted, or null. */
export async function deleteWebhook(db: Db, orgId: string, id: string): Promise<WebhookRecord | null> {
  const row = await db
    .selectFrom('webhooks')
    .select(PUBLIC_COLUMNS)
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  if (!row) return null;
  const deleted = await db
    .deleteFrom('webhooks')
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n ? toRecord(row) : null;
}
