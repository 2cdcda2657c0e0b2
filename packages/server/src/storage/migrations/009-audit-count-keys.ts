import type { Kysely } from 'kysely';
import { tableIndex } from './table-parts.js';

/**
 * The keys an org's entries use, read on every entity/verb/key_prefix filter of the event list
 * (domain/event-counts.ts keysOf): with this index they come from an index-only scan in key
 * order, instead of sorting every (day, key) count row of the org (12,000 a year at 32 keys).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await tableIndex(db, 'audit_event_counts_org_key', 'audit_event_counts', [
    'org_id',
    'key',
    'entity',
    'verb',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_event_counts_org_key').ifExists().execute();
}
