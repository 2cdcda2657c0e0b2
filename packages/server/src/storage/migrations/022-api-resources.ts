import type { Kysely } from 'kysely';
import { belongsTo, required, timestamps } from './column-parts.js';
import { dropTables, linkTable, orgTable, tableIndex } from './table-parts.js';

/**
 * API resources, roles and permissions (DESIGN §15): an org's APIs with their scopes, the roles of
 * its end users, which roles each user holds, and the permissions of its machine clients. A
 * permission names a resource by id (its identifier never changes) and one of its scopes; deleting
 * the resource, the role, the user or the client deletes the rows naming it (foreign keys).
 * OAuth sessions remember the resources and resource scopes their authorization granted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'api_resources')
    .$call(required({ identifier: 'text', name: 'text' }))
    // JSON array of {name, description}, in the order the owner gave them.
    .$call(required({ scopes: 'text', access_token_ttl: 'integer' }))
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'api_resources_org_identifier', 'api_resources', ['org_id', 'identifier'], {
    unique: true,
  });

  await orgTable(db, 'roles')
    .$call(required({ name: 'text', description: 'text' }))
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'roles_org_name', 'roles', ['org_id', 'name'], { unique: true });

  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'text', belongsTo('roles.id'))
    .addColumn('resource_id', 'text', belongsTo('api_resources.id'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'resource_id', 'scope'])
    .execute();
  await tableIndex(db, 'role_permissions_resource', 'role_permissions', ['resource_id']);

  await linkTable(db, 'user_roles', { user_id: 'users.id', role_id: 'roles.id' })
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await tableIndex(db, 'user_roles_role', 'user_roles', ['role_id']);

  await db.schema
    .createTable('client_permissions')
    .addColumn('client_id', 'text', belongsTo('clients.id'))
    .addColumn('resource_id', 'text', belongsTo('api_resources.id'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_permissions_pk', ['client_id', 'resource_id', 'scope'])
    .execute();
  await tableIndex(db, 'client_permissions_resource', 'client_permissions', ['resource_id']);

  // JSON array of {resource: identifier, scopes: [...]}, in request order; null: no resource.
  await db.schema.alterTable('oauth_sessions').addColumn('resources', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_sessions').dropColumn('resources').execute();
  await dropTables(db, ['client_permissions', 'user_roles', 'role_permissions', 'roles', 'api_resources']);
}
