import type { Kysely } from 'kysely';
import { orgId, required } from './column-parts.js';
import { dropTables, tableIndex } from './table-parts.js';

/**
 * Service accounts (DESIGN §16): a confidential client of the console org (its row in `clients`)
 * bound to one org, whose management API it may call with the scopes chosen for it. The row goes
 * with its client (on delete cascade), and with the org it is bound to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_accounts')
    .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id').onDelete('cascade'))
    .$call(orgId)
    .$call(required({ scope: 'text', created_at: 'bigint' }))
    .execute();
  await tableIndex(db, 'service_accounts_org', 'service_accounts', ['org_id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['service_accounts']);
}
