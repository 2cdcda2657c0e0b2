import { sql } from 'kysely';
import type {
  ClaimedDelivery,
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryTarget,
  WebhookDelivery,
} from '../../domain/types.js';
import type { Dialect } from '../db.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable, WebhooksTable } from '../schema.js';
import { columnMap, orgRowColumns, timestampColumns } from './column-map.js';
import { recordsOf } from './keyed-rows.js';
import { toDeliveryTarget } from './webhooks.js';

const deliveryColumns = columnMap<WebhookDeliveriesTable, WebhookDelivery>()({
  ...orgRowColumns,
  webhook_id: 'webhookId',
  event_id: 'eventId',
  event_key: 'eventKey',
  body: 'body',
  status: 'status',
  attempts: 'attempts',
  next_attempt_at: 'nextAttemptAt',
  claim_token: 'claimToken',
  ...timestampColumns,
});
const toDelivery = deliveryColumns.toRecord;
const deliveryRows = recordsOf('webhook_deliveries', toDelivery);

type ClaimedRow = Pick<WebhookDeliveriesTable, 'id' | 'webhook_id' | 'event_id' | 'body' | 'attempts'>;

const toClaimed = (r: ClaimedRow): ClaimedDelivery => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  body: r.body,
  attempts: r.attempts,
});

const attemptColumns = columnMap<WebhookDeliveryAttemptsTable, DeliveryAttempt>()({
  id: 'id',
  delivery_id: 'deliveryId',
  attempted_at: 'attemptedAt',
  status_code: 'statusCode',
  duration_ms: 'durationMs',
  error: 'error',
});
const toAttempt = attemptColumns.toRecord;

// A literal, not a parameter: only then do SQLite and PostgreSQL use the partial index on pending rows.
const PENDING = sql.lit<'pending'>('pending');

export interface ClaimOptions {
  limit: number;
  now: number;
  leaseUntil: number;
  token: string;
  /** Deliveries not to claim (those settled in the same write: they are claimed by the next one). */
  exclude?: readonly string[];
}

export async function insertDeliveries(store: Handle, deliveries: readonly WebhookDelivery[]): Promise<void> {
  const db = opened(store);
  if (deliveries.length > 0)
    await db.insertInto('webhook_deliveries').values(deliveries.map(deliveryColumns.toRow)).execute();
}

export async function deleteDeliveriesOfWebhook(store: Handle, webhookId: string): Promise<void> {
  await deliveryRows.deleteWhere(store, { webhook_id: webhookId });
}

/**
 * Claims up to `limit` due deliveries for one worker until `leaseUntil`, in one statement:
 * PostgreSQL skips rows another worker has locked (`FOR UPDATE SKIP LOCKED`); SQLite runs the
 * UPDATE under its single write lock, so two processes never claim the same row either. A claim
 * moves `next_attempt_at` to the lease's end: if the worker dies, the delivery is due again then.
 */
export async function claimDue(
  store: Handle,
  dialect: Dialect,
  options: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  const db = opened(store);
  return (await claimStatement(db, dialect, options).execute()).map(toClaimed);
}

/** The statement of {@link claimDue}, unrun: the PostgreSQL batch write embeds it. */
export function claimStatement(store: Handle, dialect: Dialect, options: ClaimOptions) {
  const db = opened(store);
  // The rows are picked (and on PostgreSQL locked) once, in a CTE: as a subquery of the UPDATE they
  // may be scanned again, and each scan with SKIP LOCKED can pick other rows (more than `limit`).
  return db
    .with('due', (qc) => {
      let due = qc
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', PENDING)
        .where('next_attempt_at', '<=', options.now)
        .orderBy('next_attempt_at')
        .limit(options.limit);
      if (options.exclude?.length) due = due.where('id', 'not in', options.exclude);
      return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: options.leaseUntil, claim_token: options.token })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where('status', '=', PENDING)
    .returning(['id', 'webhook_id', 'event_id', 'body', 'attempts']);
}

export interface Settlement {
  id: string;
  /** The claim this worker holds: only then is the row changed. */
  token: string;
  status: DeliveryStatus;
  attempts: number;
  /** When a pending delivery is due again; null once it is done. */
  nextAttemptAt: number | null;
  now: number;
}

/**
 * Settles claimed deliveries in one statement: each done (`delivered`, `failed`, `skipped`) or
 * pending again at `nextAttemptAt`, but only while its worker's claim holds. Answers the ids that
 * were held; one missing had its claim expire, and another worker may own it now. The same SQL on
 * both databases: `UPDATE … FROM (VALUES …)` with typed casts, RETURNING.
 */
export async function settleDeliveries(
  store: Handle,
  settlements: readonly Settlement[],
): Promise<Set<string>> {
  const db = opened(store);
  if (settlements.length === 0) return new Set();
  const { rows } = await settleStatement(settlements).execute(db);
  return new Set(rows.map((r) => r.id));
}

/** The statement of {@link settleDeliveries} (at least one settlement), unrun: the PostgreSQL batch write embeds it. */
export function settleStatement(settlements: readonly Settlement[]) {
  const values = sql.join(
    settlements.map(
      (s) =>
        sql`(${s.id}, ${s.token}, ${s.status}, cast(${s.attempts} as integer), cast(${s.nextAttemptAt} as bigint), cast(${s.now} as bigint))`,
    ),
  );
  return sql<{ id: string }>`
    update webhook_deliveries
    set status = v.column3, attempts = v.column4, next_attempt_at = v.column5, claim_token = null,
        updated_at = v.column6
    from (values ${values}) as v
    where webhook_deliveries.id = v.column1 and webhook_deliveries.claim_token = v.column2
    returning webhook_deliveries.id`;
}

/**
 * Which of these deliveries still exist, for logging attempts against them in the caller's
 * transaction. On PostgreSQL the rows are locked (FOR KEY SHARE) until it ends, so a deletion under
 * way is waited for and one that comes later waits: the log row never points at a deleted row.
 */
export async function existingDeliveries(
  store: Handle,
  dialect: Dialect,
  ids: readonly string[],
): Promise<Set<string>> {
  const db = opened(store);
  if (ids.length === 0) return new Set();
  const query = db.selectFrom('webhook_deliveries').select('id').where('id', 'in', ids);
  const rows = await (dialect === 'postgres' ? query.forKeyShare() : query).execute();
  return new Set(rows.map((r) => r.id));
}

/** A webhook's pending deliveries become `skipped` (it was set inactive). */
export async function skipPendingOfWebhook(store: Handle, webhookId: string, now: number): Promise<void> {
  const db = opened(store);
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'skipped', next_attempt_at: null, claim_token: null, updated_at: now })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', PENDING)
    .execute();
}

export async function insertAttempts(store: Handle, attempts: readonly DeliveryAttempt[]): Promise<void> {
  const db = opened(store);
  if (attempts.length > 0)
    await db.insertInto('webhook_delivery_attempts').values(attempts.map(attemptColumns.toRow)).execute();
}

/** A webhook's deliveries, newest event first. */
export async function listDeliveriesOfWebhook(
  store: Handle,
  webhookId: string,
  limit: number,
): Promise<WebhookDelivery[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('event_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toDelivery);
}

/** The attempts of these deliveries, oldest first. */
export async function attemptsOf(store: Handle, deliveryIds: string[]): Promise<DeliveryAttempt[]> {
  const db = opened(store);
  if (deliveryIds.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
  return rows.map(toAttempt);
}

export const findDelivery = (store: Handle, webhookId: string, id: string): Promise<WebhookDelivery | null> =>
  deliveryRows.recordWhere(store, { id, webhook_id: webhookId });

/**
 * Puts a delivery back in the queue, due now, with a fresh retry series; not while a worker holds
 * a claim on it (that would send it twice at once). False when it was claimed.
 */
export async function requeueDelivery(store: Handle, id: string, now: number): Promise<boolean> {
  const db = opened(store);
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, claim_token: null, updated_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('claim_token', 'is', null), eb('next_attempt_at', '<=', now)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** How many webhook deliveries wait to be attempted (pending, due now or later). */
export async function outboxDepth(store: Handle): Promise<number> {
  return deliveryRows.countWhere(store, { status: 'pending' });
}

export interface BatchResult {
  /** The settlements whose claim still held. */
  held: Set<string>;
  claimed: ClaimedDelivery[];
  /** The claimed deliveries' webhooks (deleted ones are absent). */
  targets: DeliveryTarget[];
}

/**
 * PostgreSQL only: the worker's whole write in one statement, so one round trip instead of six
 * (BEGIN, settle, log, claim, read the webhooks, COMMIT) while the event loop is busy sending. A
 * statement is atomic on its own. Data-modifying CTEs all see the snapshot from before the
 * statement: the attempts are logged for the deliveries settled (their UPDATE holds their rows)
 * and for others that exist (a delivery deleted with its webhook does not; FOR KEY SHARE waits for
 * a deletion under way, so the log row never points at a row deleted meanwhile), and the claim
 * leaves out `exclude` (the caller passes what this statement settles: no row changes twice).
 * Settlements that disable a webhook do not come here (see settler.ts).
 */
export async function settleAndClaimOnPostgres(
  store: Handle,
  settlements: readonly Settlement[],
  attempts: readonly DeliveryAttempt[],
  claim: ClaimOptions | null,
): Promise<BatchResult> {
  const db = opened(store);
  const none = sql`select null::text as id where false`;
  const settled = settlements.length === 0 ? none : settleStatement(settlements);
  const logged =
    attempts.length === 0
      ? none
      : sql`insert into webhook_delivery_attempts
            (id, delivery_id, attempted_at, status_code, duration_ms, error)
          select a.* from (values ${sql.join(
            attempts.map(
              (a) =>
                sql`(${a.id}::text, ${a.deliveryId}::text, ${a.attemptedAt}::bigint, ${a.statusCode}::int, ${a.durationMs}::int, ${a.error}::text)`,
            ),
          )}) as a (id, delivery_id, attempted_at, status_code, duration_ms, error)
          where a.delivery_id in (select id from settled)
            or exists (select 1 from webhook_deliveries d where d.id = a.delivery_id for key share)`;
  const claimed = claim
    ? claimStatement(db, 'postgres', claim)
    : sql`select null::text as id, null::text as webhook_id, null::text as event_id, null::text as body,
          null::int as attempts where false`;
  const { rows } = await sql<{ held: string[]; claimed: ClaimedRow[]; targets: WebhooksTable[] }>`
    with settled as (${settled}), logged as (${logged}), claimed as (${claimed})
    select
      (select coalesce(json_agg(id), '[]') from settled) as held,
      (select coalesce(json_agg(claimed), '[]') from claimed) as claimed,
      (select coalesce(json_agg(w), '[]') from webhooks w
        where w.id in (select webhook_id from claimed)) as targets`.execute(db);
  const row = rows[0] ?? { held: [], claimed: [], targets: [] };
  return {
    held: new Set(row.held),
    claimed: row.claimed.map(toClaimed),
    targets: row.targets.map(toDeliveryTarget),
  };
}
