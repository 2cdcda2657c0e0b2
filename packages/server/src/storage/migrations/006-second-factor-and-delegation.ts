import type { Kysely } from 'kysely';
import { belongsTo, orgId, required, singleUse } from './column-parts.js';
import { dropTables, expiryIndex, keyedTable, linkTable } from './table-parts.js';

/**
 * Second factor and delegation: TOTP factors and recovery codes, the org policy that requires
 * them, which public clients a confidential client may promote tokens from (RFC 8693), and
 * impersonation (the acting owner on sessions, the one-time links).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('org_sign_in_policies')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .$call(required({ require_mfa: 'integer', updated_at: 'bigint' }))
    .execute();

  await db.schema
    .createTable('totp_factors')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .$call(orgId)
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .$call(required({ code_hash: 'text', created_at: 'bigint' }))
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();

  await linkTable(db, 'client_promotions', { client_id: 'clients.id', source_client_id: 'clients.id' })
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('oauth_sessions').addColumn('actor_id', 'text').execute();
  await db.schema.alterTable('browser_sessions').addColumn('actor_id', 'text').execute();

  await keyedTable(db, 'impersonations', 'key_hash')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .$call(orgId)
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .addColumn('actor_id', 'text', belongsTo('users.id'))
    .addColumn('request_id', 'text', belongsTo('authorization_requests.id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .$call(singleUse)
    .execute();
  await expiryIndex(db, 'impersonations_expiry', 'impersonations');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, [
    'impersonations',
    'client_promotions',
    'recovery_codes',
    'totp_factors',
    'org_sign_in_policies',
  ]);
  await db.schema.alterTable('browser_sessions').dropColumn('actor_id').execute();
  await db.schema.alterTable('oauth_sessions').dropColumn('actor_id').execute();
}
