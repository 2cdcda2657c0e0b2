import type { Kysely } from 'kysely';
import { belongsTo, required, timestamps } from './column-parts.js';
import { dropTables, keyedTable, linkTable, orgTable, tableIndex } from './table-parts.js';

/**
 * SCIM 2.0 inbound provisioning (DESIGN §19). `scim_directories`: an org's directories, each with
 * the SHA-256 of its bearer token (shown once) and, optionally, the connection whose domains it may
 * create users in and whose sign-in links them (once that connection is deleted, the directory gives
 * no user a new address; deactivation and deletion still work).
 *
 * `scim_users`: the org users a directory holds (made by it or adopted by an owner), one directory
 * per user, with what SCIM keeps beside the user: `user_name` (unique per directory regardless of
 * case, `user_name_key`), `external_id`, the whole SCIM resource as JSON (`resource`: name, emails,
 * the enterprise extension, …) and `version`, the ETag's counter.
 *
 * `scim_user_emails`: every address of each such user's `emails`, lower case, so a filter on
 * `emails…value eq` (Entra's) is read by index.
 *
 * `scim_groups` and `scim_group_members`: a directory's groups and who is in them;
 * `scim_group_roles`: the org roles an owner maps a group to; `scim_role_grants`: the roles a user
 * holds because of a group (only those: a role an owner gave stays when the group goes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'scim_directories')
    .addColumn('name', 'text', (c) => c.notNull())
    // No foreign key: a deleted connection leaves its id, and the directory then creates no user
    // (it must not fall back to creating users in every domain).
    .addColumn('connection_id', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'scim_directories_org', 'scim_directories', ['org_id']);
  await db.schema
    .createTable('scim_users')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('directory_id', 'text', belongsTo('scim_directories.id'))
    .$call(required({ user_name: 'text', user_name_key: 'text' }))
    .addColumn('external_id', 'text')
    .$call(required({ resource: 'text', version: 'integer' }))
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'scim_users_user_name', 'scim_users', ['directory_id', 'user_name_key'], {
    unique: true,
  });
  await tableIndex(db, 'scim_users_external_id', 'scim_users', ['directory_id', 'external_id']);
  await tableIndex(db, 'scim_users_order', 'scim_users', ['directory_id', 'created_at', 'user_id']);
  await db.schema
    .createTable('scim_user_emails')
    .addColumn('user_id', 'text', belongsTo('scim_users.user_id'))
    .$call(required({ directory_id: 'text', email_key: 'text' }))
    .addPrimaryKeyConstraint('scim_user_emails_pk', ['user_id', 'email_key'])
    .execute();
  await tableIndex(db, 'scim_user_emails_lookup', 'scim_user_emails', ['directory_id', 'email_key']);
  await keyedTable(db, 'scim_groups', 'id')
    .addColumn('directory_id', 'text', belongsTo('scim_directories.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await tableIndex(db, 'scim_groups_directory', 'scim_groups', ['directory_id', 'created_at', 'id']);
  await linkTable(db, 'scim_group_members', { group_id: 'scim_groups.id', user_id: 'users.id' }).execute();
  await tableIndex(db, 'scim_group_members_user', 'scim_group_members', ['user_id']);
  await linkTable(db, 'scim_group_roles', { group_id: 'scim_groups.id', role_id: 'roles.id' }).execute();
  await linkTable(db, 'scim_role_grants', { user_id: 'users.id', role_id: 'roles.id' }).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, [
    'scim_role_grants',
    'scim_group_roles',
    'scim_group_members',
    'scim_groups',
    'scim_user_emails',
    'scim_users',
    'scim_directories',
  ]);
}
