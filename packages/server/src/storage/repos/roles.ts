import type { EndUserRole, Permission } from '../../domain/types.js';
import type { Db } from '../db.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { RolesTable } from '../schema.js';
import { columnMap, orgRowColumns, timestampColumns } from './column-map.js';
import { tableOf } from './keyed-rows.js';
import { orgRowById, pageOrgRows } from './org-rows.js';
import { insertOf } from './table-records.js';

/** A permission as stored: the resource by id. */
export interface StoredPermission {
  resourceId: string;
  scope: string;
}

/** A statement on a table of permissions (role_permissions, client_permissions), by the two methods used. */
interface PermissionRows<Self> {
  where(column: 'resource_id', op: '=', value: string): Self;
  where(column: 'scope', op: 'not in', values: string[]): Self;
}

/**
 * The permissions on the resource naming a scope outside `scopes` (all of them when it has none):
 * what a resource that no longer has those scopes drops, from roles and clients alike.
 */
export function permissionsOutside<S extends PermissionRows<S>>(
  statement: S,
  resourceId: string,
  scopes: readonly string[],
): S {
  const onResource = statement.where('resource_id', '=', resourceId);
  return scopes.length > 0 ? onResource.where('scope', 'not in', [...scopes]) : onResource;
}

/** The permissions of these roles, by role id, each naming its resource by identifier. */
async function permissionsOf(db: Db, roleIds: readonly string[]): Promise<Map<string, Permission[]>> {
  const byRole = new Map<string, Permission[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return byRole;
  const rows = await db
    .selectFrom('role_permissions')
    .innerJoin('api_resources', 'api_resources.id', 'role_permissions.resource_id')
    .select(['role_permissions.role_id', 'api_resources.identifier', 'role_permissions.scope'])
    .where('role_permissions.role_id', 'in', [...roleIds])
    .orderBy('api_resources.created_at')
    .orderBy('api_resources.identifier')
    .orderBy('role_permissions.scope')
    .execute();
  for (const r of rows) byRole.get(r.role_id)?.push({ resource: r.identifier, scope: r.scope });
  return byRole;
}

/** A role's own columns (its permissions are rows of role_permissions). */
const roleColumns = columnMap<RolesTable, Omit<EndUserRole, 'permissions'>>()({
  ...orgRowColumns,
  name: 'name',
  description: 'description',
  ...timestampColumns,
});
const roleRows = tableOf('roles');
const rolePermissions = tableOf('role_permissions');
const userRoles = tableOf('user_roles');

async function withPermissions(db: Db, rows: RolesTable[]): Promise<EndUserRole[]> {
  const permissions = await permissionsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...roleColumns.toRecord(r), permissions: permissions.get(r.id) ?? [] }));
}

export const insertRole = insertOf('roles', roleColumns);

/** Replaces the role's permissions. */
export async function setRolePermissions(
  store: Handle,
  roleId: string,
  permissions: readonly StoredPermission[],
): Promise<void> {
  await rolePermissions.replaceWhere(
    store,
    { role_id: roleId },
    permissions.map((p) => ({ role_id: roleId, resource_id: p.resourceId, scope: p.scope })),
  );
}

/** The org's role with this id, or null. */
export async function findRole(store: Handle, orgId: string, id: string): Promise<EndUserRole | null> {
  const db = opened(store);
  const row = await orgRowById(db.selectFrom('roles').selectAll(), orgId, id).executeTakeFirst();
  return row ? ((await withPermissions(db, [row]))[0] ?? null) : null;
}

/** The org's roles with these ids, oldest first (unknown ids are absent). */
export async function findRoles(
  store: Handle,
  orgId: string,
  ids: readonly string[],
): Promise<EndUserRole[]> {
  const db = opened(store);
  if (ids.length === 0) return [];
  const rows = await roleRows.rowsOldestFirst(db, { org_id: orgId, id: ids });
  return withPermissions(db, rows);
}

/** One page of an org's roles, oldest first, and how many it has. */
export async function pageRoles(
  store: Handle,
  orgId: string,
  window: { offset: number; limit: number },
): Promise<{ entries: EndUserRole[]; total: number }> {
  const db = opened(store);
  const { rows, total } = await pageOrgRows(db.selectFrom('roles').selectAll(), orgId, window);
  return { entries: await withPermissions(db, rows), total };
}

export async function updateRoleRow(store: Handle, role: EndUserRole): Promise<void> {
  const db = opened(store);
  await orgRowById(
    db
      .updateTable('roles')
      .set({ name: role.name, description: role.description, updated_at: role.updatedAt }),
    role.orgId,
    role.id,
  ).execute();
}

/** Deletes the role (its permissions and holders go with it, by foreign key); true when it existed. */
export async function deleteRoleRow(store: Handle, orgId: string, id: string): Promise<boolean> {
  const db = opened(store);
  const row = await orgRowById(db.deleteFrom('roles'), orgId, id).returning('id').executeTakeFirst();
  return row !== undefined;
}

/** The roles `userId` holds, oldest first. */
export async function rolesOfUser(store: Handle, userId: string): Promise<EndUserRole[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .selectAll('roles')
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.created_at')
    .orderBy('roles.id')
    .execute();
  return withPermissions(db, rows);
}

/** Replaces the roles `userId` holds. */
export async function setUserRoles(store: Handle, userId: string, roleIds: readonly string[], now: number) {
  await userRoles.replaceWhere(
    store,
    { user_id: userId },
    roleIds.map((roleId) => ({ user_id: userId, role_id: roleId, created_at: now })),
  );
}

/** The scopes of the resource that the user's roles allow, sorted. */
export async function scopesAllowedToUser(
  store: Handle,
  userId: string,
  resourceId: string,
): Promise<string[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .select('role_permissions.scope')
    .distinct()
    .where('user_roles.user_id', '=', userId)
    .where('role_permissions.resource_id', '=', resourceId)
    .orderBy('role_permissions.scope')
    .execute();
  return rows.map((r) => r.scope);
}

/** Drops the roles' permissions on the resource naming a scope outside `scopes` (all, when empty). */
export async function dropRolePermissionsOutside(
  store: Handle,
  resourceId: string,
  scopes: readonly string[],
): Promise<void> {
  const db = opened(store);
  await permissionsOutside(db.deleteFrom('role_permissions'), resourceId, scopes).execute();
}
