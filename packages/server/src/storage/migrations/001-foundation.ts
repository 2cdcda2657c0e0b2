import type { Kysely } from 'kysely';
import { required, timestamps } from './column-parts.js';
import { dropTables, keyedTable, linkTable, orgTable, tableIndex } from './table-parts.js';

/** Organizations, their users, tenants, clients, signing keys and audit trail. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(db, 'organizations', 'id')
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_console', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_signup', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timestamps)
    .execute();

  await orgTable(db, 'users')
    .$call(required({ email: 'text', email_key: 'text' }))
    .addColumn('password_hash', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('picture', 'text')
    .addColumn('provider', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addUniqueConstraint('users_org_email', ['org_id', 'email_key'])
    .execute();

  await linkTable(db, 'memberships', { org_id: 'organizations.id', user_id: 'users.id' })
    .$call(required({ role: 'text', created_at: 'bigint' }))
    .execute();
  await tableIndex(db, 'memberships_user', 'memberships', ['user_id']);

  await orgTable(db, 'tenants')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('logo', 'text')
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'tenants_org', 'tenants', ['org_id']);

  await linkTable(db, 'tenant_members', { tenant_id: 'tenants.id', user_id: 'users.id' })
    .$call(required({ role: 'text', created_at: 'bigint' }))
    .execute();
  await tableIndex(db, 'tenant_members_user', 'tenant_members', ['user_id']);

  await orgTable(db, 'clients')
    .$call(required({ name: 'text', kind: 'text' }))
    .addColumn('secret_hash', 'text')
    .$call(required({ redirect_uris: 'text', grant_types: 'text' }))
    .addColumn('first_party', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'clients_org', 'clients', ['org_id']);

  await orgTable(db, 'signing_keys', 'kid')
    .$call(required({ status: 'text', public_jwk: 'text', private_key: 'text', created_at: 'bigint' }))
    .addColumn('expires_at', 'bigint')
    .execute();
  await tableIndex(db, 'signing_keys_org', 'signing_keys', ['org_id', 'status']);

  await orgTable(db, 'audit_events')
    .$call(required({ key: 'text', entity: 'text', verb: 'text', at: 'bigint', actor_kind: 'text' }))
    .addColumn('actor_id', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('previous', 'text')
    .addColumn('changes', 'text')
    .execute();
  // The event list reads newest first per org (DESIGN §7).
  await tableIndex(db, 'audit_events_org_at', 'audit_events', ['org_id', 'at desc', 'id desc']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, [
    'audit_events',
    'signing_keys',
    'clients',
    'tenant_members',
    'tenants',
    'memberships',
    'users',
    'organizations',
  ]);
}
