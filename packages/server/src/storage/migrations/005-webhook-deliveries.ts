import { type Kysely, sql } from 'kysely';
import { belongsTo, required, timestamps } from './column-parts.js';
import { dropTables, keyedTable, orgTable, tableIndex } from './table-parts.js';

/**
 * The webhook outbox (one row per event and matching webhook, written in the event's transaction)
 * and the log of delivery attempts. See packages/server/docs/webhooks.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'webhook_deliveries')
    // No foreign key: a webhook deleted while an event is being written must not fail that write.
    // Deleting a webhook deletes its deliveries in the same transaction (webhooks/enqueue.ts).
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    // The audit event id: the `webhook-id` header, the same on every attempt.
    .$call(required({ event_id: 'text', event_key: 'text' }))
    // The exact JSON body that is signed and sent on every attempt.
    .addColumn('body', 'text', (c) => c.notNull())
    // pending | delivered | failed | skipped
    .addColumn('status', 'text', (c) => c.notNull())
    // Failed attempts of the current series (a manual retry starts a new series).
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // Pending: when it is due. While claimed, the end of the worker's lease (a crashed worker's
    // claim expires and the delivery is due again).
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claim_token', 'text')
    .$call(timestamps)
    .execute();
  // What workers claim: only pending rows are indexed, so delivered history costs the claim nothing.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // One delivery per event and webhook; event ids sort by time, so this also serves the log, newest first.
  await tableIndex(db, 'webhook_deliveries_webhook_event', 'webhook_deliveries', ['webhook_id', 'event_id'], {
    unique: true,
  });

  await keyedTable(db, 'webhook_delivery_attempts', 'id')
    .addColumn('delivery_id', 'text', belongsTo('webhook_deliveries.id'))
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await tableIndex(db, 'webhook_delivery_attempts_delivery', 'webhook_delivery_attempts', [
    'delivery_id',
    'attempted_at',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['webhook_delivery_attempts', 'webhook_deliveries']);
}
