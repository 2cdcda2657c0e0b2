import type { Kysely } from 'kysely';
import { tableIndex } from './table-parts.js';

/**
 * The management lists read an org's rows oldest first (`created_at`, then the id): with an index
 * in that order a page is an index walk that stops after `offset + per_page` entries (or, read from
 * the nearer end, `total - offset`), instead of a sort of every row of the org (1M users: hundreds
 * of ms per request). Issue #32, measured by bench/users. The invitations list (newest first) has
 * its `(org_id, created_at, id)` index since migration 026; the members list orders by email.
 */
const INDEXES: [name: string, table: string, columns: string[]][] = [
  ['users_org_created', 'users', ['org_id', 'created_at', 'id']],
  ['clients_org_created', 'clients', ['org_id', 'created_at', 'id']],
  ['service_accounts_org_created', 'service_accounts', ['org_id', 'created_at', 'client_id']],
  ['api_resources_org_created', 'api_resources', ['org_id', 'created_at', 'id']],
  ['roles_org_created', 'roles', ['org_id', 'created_at', 'id']],
  ['connections_org_created', 'connections', ['org_id', 'created_at', 'id']],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await tableIndex(db, name, table, columns);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute();
}
