import { sql } from 'kysely';
import type { DeliveryTarget, Webhook } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { WebhooksTable } from '../schema.js';
import { columnMap, flag, json, orgRowColumns, timestampColumns } from './column-map.js';
import { tableOf } from './keyed-rows.js';
import { orgRowById } from './org-rows.js';
import { orgRecordById, orgRecordsOldestFirst } from './table-records.js';

/** Every column but the sealed secret (only the delivery worker reads `secret_sealed`). */
const webhookColumns = columnMap<Omit<WebhooksTable, 'secret_sealed'>, Webhook>()({
  ...orgRowColumns,
  url: 'url',
  events: ['events', json<string[]>()],
  active: ['active', flag],
  ...timestampColumns,
});
const toRecord = webhookColumns.toRecord;

export async function insertWebhook(store: Handle, w: Webhook, secretSealed: string): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('webhooks')
    .values({ ...webhookColumns.toRow(w), secret_sealed: secretSealed })
    .execute();
}

const webhookRows = tableOf('webhooks');

/** An org's webhooks, oldest first. */
export const listWebhooks = orgRecordsOldestFirst('webhooks', webhookColumns);

/** The org's webhook (without its secret), or null. */
export const findWebhook = orgRecordById('webhooks', webhookColumns);

/** Stores what an update may change: url, events, active (and `updated_at`). */
export async function updateWebhookRow(store: Handle, w: Webhook): Promise<void> {
  const db = opened(store);
  await orgRowById(
    db.updateTable('webhooks').set({
      url: w.url,
      events: JSON.stringify(w.events),
      active: w.active ? 1 : 0,
      updated_at: w.updatedAt,
    }),
    w.orgId,
    w.id,
  ).execute();
}

/** Deletes the webhook if it belongs to `orgId`; returns what was deleted, or null. */
export async function deleteWebhook(store: Handle, orgId: string, id: string): Promise<Webhook | null> {
  const db = opened(store);
  const webhook = await findWebhook(db, orgId, id);
  if (!webhook) return null;
  const deleted = await orgRowById(db.deleteFrom('webhooks'), orgId, id).executeTakeFirst();
  return deleted.numDeletedRows > 0n ? webhook : null;
}

/** A webhook row as the delivery worker needs it, sealed secret included. */
export const toDeliveryTarget = (r: WebhooksTable): DeliveryTarget => ({
  ...toRecord(r),
  sealedSecret: r.secret_sealed,
});

/** The webhooks of these ids, by id (deleted ones are simply absent). */
export async function loadDeliveryTargets(
  store: Handle,
  ids: string[],
): Promise<Map<string, DeliveryTarget>> {
  if (ids.length === 0) return new Map();
  const rows = await webhookRows.rowsWhere(store, { id: ids });
  return new Map(rows.map((r) => [r.id, toDeliveryTarget(r)]));
}

/** Sets an active webhook inactive; false when it was inactive already (or is gone). */
export async function deactivateWebhook(store: Handle, id: string, now: number): Promise<boolean> {
  return (await webhookRows.updateWhere(store, { active: 0, updated_at: now }, { id, active: 1 })) > 0;
}

/** One webhook of an org, only what the delivery log checks (id, org, whether active), or null. */
export async function findOrgWebhook(
  store: Handle,
  orgId: string,
  id: string,
): Promise<Pick<Webhook, 'id' | 'orgId' | 'active'> | null> {
  const db = opened(store);
  const row = await orgRowById(
    db.selectFrom('webhooks').select(['id', 'org_id', 'active']),
    orgId,
    id,
  ).executeTakeFirst();
  return row ? { id: row.id, orgId: row.org_id, active: row.active === 1 } : null;
}

/**
 * A cheap summary of an org's webhooks that changes whenever one is created, deleted or updated
 * (every write sets `updated_at`): count, newest `updated_at`, and a checksum of all `updated_at`s
 * (so changes within one millisecond, or under clock skew between nodes, are still seen). Null when
 * the org has no webhooks at all.
 */
export async function webhookFingerprint(store: Handle, orgId: string): Promise<string | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('webhooks')
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number | string | null>`max(updated_at)`.as('latest'),
      sql<number | string | null>`sum(updated_at % 1048573)`.as('checksum'),
    ])
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  if (!row || Number(row.n) === 0) return null;
  return `${row.n}:${row.latest}:${row.checksum}`;
}

/**
 * webhookFingerprint as an expression another statement can return (PostgreSQL): the same text,
 * null when the org has no webhooks. An audit entry's INSERT returns it (audit-events.ts), so an
 * event costs no statement of its own to learn whether the org's routing changed.
 */
export const webhookFingerprintSql = (orgId: string) => sql<string | null>`(
  select case when count(*) = 0 then null
    else count(*)::text || ':' || max(updated_at)::text || ':' || sum(updated_at % 1048573)::text end
  from webhooks where org_id = ${orgId})`;

/** The routing patterns of an org's active webhooks. */
export async function activeWebhookPatterns(
  store: Handle,
  orgId: string,
): Promise<{ id: string; events: string[] }[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('webhooks')
    .select(['id', 'events'])
    .where('org_id', '=', orgId)
    .where('active', '=', 1)
    .execute();
  return rows.map((r) => ({ id: r.id, events: parseEvents(r.events) }));
}

function parseEvents(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}
