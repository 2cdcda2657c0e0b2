import { type Kysely, sql } from 'kysely';
import { required, timestamps } from './column-parts.js';
import { isPostgres } from './is-postgres.js';
import { addWithDefault, dropTables, orgTable, tableIndex } from './table-parts.js';

/**
 * Audit-log streams (`lst_…`): an org's SIEM destinations, each with a durable cursor into the audit
 * table, and the column that cursor follows.
 *
 * `audit_events.tx_order` is the order a stream reads entries in, chosen so that an entry whose
 * transaction commits late is never passed over: on PostgreSQL it is the writing transaction's id
 * (`pg_current_xact_id()`), and a stream reads only entries below the oldest transaction still open
 * (`pg_snapshot_xmin`), where nothing new can appear; on SQLite, whose writers take turns, it is a
 * per-org counter taken inside the writing transaction (storage/repos/audit-events.ts). Entries written
 * before this migration read 0 and follow in id (time) order. Adding the column with a constant default
 * rewrites no rows on either database; on PostgreSQL the transaction-id default applies to new rows only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addWithDefault(db, 'audit_events', 'tx_order', 'bigint', 0);
  if (isPostgres(db)) {
    await sql`alter table audit_events alter column tx_order set default (pg_current_xact_id()::text::bigint)`.execute(
      db,
    );
  }
  await tableIndex(db, 'audit_events_org_tx_order', 'audit_events', ['org_id', 'tx_order', 'id']);

  await orgTable(db, 'log_streams')
    .addColumn('name', 'text', (c) => c.notNull())
    // https | splunk_hec | datadog
    .$call(required({ type: 'text', url: 'text' }))
    // The https type's `whsec_…` signing secret, Splunk's HEC token, Datadog's API key: sealed.
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    // JSON: the type's own settings (Splunk index/source/sourcetype, Datadog service/tags/gzip).
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    // Entries at or after this time (epoch ms) are streamed.
    .addColumn('backfill_from', 'bigint', (c) => c.notNull())
    // The last entry sent and accepted: (tx_order, id); null before the first.
    .addColumn('cursor_order', 'bigint')
    .addColumn('cursor_id', 'text')
    // The worker holding the stream, until `lease_until` (epoch ms); another may take it after.
    .addColumn('claim_token', 'text')
    .addColumn('lease_until', 'bigint')
    // When the stream may be attempted again (a failure's backoff).
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'bigint')
    .addColumn('last_sent_at', 'bigint')
    .addColumn('sent_entries', 'bigint', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'log_streams_org', 'log_streams', ['org_id', 'created_at']);
  await tableIndex(db, 'log_streams_due', 'log_streams', ['next_attempt_at']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['log_streams']);
  await db.schema.dropIndex('audit_events_org_tx_order').ifExists().execute();
  await db.schema.alterTable('audit_events').dropColumn('tx_order').execute();
}
