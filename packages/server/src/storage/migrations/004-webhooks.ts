import type { Kysely } from 'kysely';
import { orgId, required, timestamps } from './column-parts.js';
import { dropTables, orgTable, tableIndex } from './table-parts.js';

/**
 * Org webhooks, and what keeps the audit-event list fast at millions of entries: indexes for its
 * filters and per-day counts of closed days (see storage/repos/audit-counts.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'webhooks')
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of routing-key patterns.
    .addColumn('events', 'text', (c) => c.notNull())
    // `whsec_…`, sealed with the at-rest key (crypto/sealing.ts); never stored or logged in clear.
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'webhooks_org', 'webhooks', ['org_id']);

  // `(org_id, at desc, id desc)` exists since 001. The filters get their own newest-first indexes:
  // `key` serves entity, verb and key_prefix (each resolves to a set of keys); actor_id its own.
  await tableIndex(db, 'audit_events_org_key_at', 'audit_events', ['org_id', 'key', 'at desc', 'id desc']);
  await tableIndex(db, 'audit_events_org_actor_at', 'audit_events', [
    'org_id',
    'actor_id',
    'at desc',
    'id desc',
  ]);

  // Entries per org, UTC day and key, for days closed long enough ago that no entry can still
  // arrive for them; `audit_count_marks.sealed_until` says up to where (exclusive, epoch ms).
  await db.schema
    .createTable('audit_event_counts')
    .$call(orgId)
    .$call(required({ day: 'bigint', key: 'text', entity: 'text', verb: 'text', n: 'bigint' }))
    .addPrimaryKeyConstraint('audit_event_counts_pk', ['org_id', 'day', 'key'])
    .execute();
  await db.schema
    .createTable('audit_count_marks')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('sealed_until', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['audit_count_marks', 'audit_event_counts']);
  await db.schema.dropIndex('audit_events_org_actor_at').ifExists().execute();
  await db.schema.dropIndex('audit_events_org_key_at').ifExists().execute();
  await dropTables(db, ['webhooks']);
}
