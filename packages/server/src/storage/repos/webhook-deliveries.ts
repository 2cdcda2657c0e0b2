import { sql } from 'kysely';
import type { Db, Dialect } from '../db.js';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from '../schema.js';

export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookDeliveryAttemptsTable;
export type ClaimedDelivery = Pick<DeliveryRow, 'id' | 'webhook_id' | 'event_id' | 'body' | 'attempts'>;

// A literal, not a parameter: only then do SQLite and PostgreSQL use the partial index on pending rows.
const PENDING = sql.lit<'pending'>('pending');

export async function insertDeliveries(db: Db, rows: DeliveryRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}

export async function deleteDeliveriesOfWebhook(db: Db, webhookId: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).execute();
}

/**
 * Claims up to `limit` due deliveries for one worker until `leaseUntil`, in one statement:
 * PostgreSQL skips rows another worker has locked (`FOR UPDATE SKIP LOCKED`); SQLite runs the
 * UPDATE under its single write lock, so two processes never claim the same row either. A claim
 * moves `next_attempt_at` to the lease's end: if the worker dies, the delivery is due again then.
 */
export async function claimDue(
  db: Db,
  dialect: Dialect,
  options: { limit: number; now: number; leaseUntil: number; token: string },
): Promise<ClaimedDelivery[]> {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', PENDING)
    .where('next_attempt_at', '<=', options.now)
    .orderBy('next_attempt_at')
    .limit(options.limit);
  if (dialect === 'postgres') due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: options.leaseUntil, claim_token: options.token })
    .where('id', 'in', due)
    .where('status', '=', PENDING)
    .returning(['id', 'webhook_id', 'event_id', 'body', 'attempts'])
    .execute();
}

/**
 * Settles a claimed delivery: done (`delivered`, `failed`, `skipped`) or pending again at
 * `nextAttemptAt`. Only while this worker's claim holds; false when it had expired and another
 * worker may own the delivery now.
 */
export async function settleDelivery(
  db: Db,
  id: string,
  token: string,
  change: { status: DeliveryRow['status']; attempts: number; nextAttemptAt: number | null; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: change.status,
      attempts: change.attempts,
      next_attempt_at: change.nextAttemptAt,
      claim_token: null,
      updated_at: change.now,
    })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A webhook's pending deliveries become `skipped` (it was set inactive). */
export async function skipPendingOfWebhook(db: Db, webhookId: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'skipped', next_attempt_at: null, claim_token: null, updated_at: now })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', PENDING)
    .execute();
}

export async function insertAttempt(db: Db, row: AttemptRow): Promise<void> {
  await db.insertInto('webhook_delivery_attempts').values(row).execute();
}

/** A webhook's deliveries, newest event first. */
export async function listDeliveriesOfWebhook(db: Db, webhookId: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('event_id', 'desc')
    .limit(limit)
    .execute();
}

/** The attempts of these deliveries, oldest first. */
export async function attemptsOf(db: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
}

export async function findDelivery(db: Db, webhookId: string, id: string): Promise<DeliveryRow | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Puts a delivery back in the queue, due now, with a fresh retry series; not while a worker holds
 * a claim on it (that would send it twice at once). False when it was claimed.
 */
export async function requeueDelivery(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, claim_token: null, updated_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('claim_token', 'is', null), eb('next_attempt_at', '<=', now)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
