import type { ScimGroup } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ScimGroupsTable } from '../schema.js';
import { columnMap, timestampColumns } from './column-map.js';
import { recordsOf, tableOf } from './keyed-rows.js';
import { oldestFirst } from './org-rows.js';

const { toRecord: toGroup, toRow: rowOf } = columnMap<ScimGroupsTable, ScimGroup>()({
  id: 'id',
  directory_id: 'directoryId',
  display_name: 'displayName',
  external_id: 'externalId',
  version: 'version',
  ...timestampColumns,
});
const groups = recordsOf('scim_groups', toGroup);
const groupRoles = tableOf('scim_group_roles');
const roleGrants = tableOf('scim_role_grants');

export async function insertGroup(store: Handle, g: ScimGroup): Promise<void> {
  await opened(store).insertInto('scim_groups').values(rowOf(g)).execute();
}

/** The directory's group `id`, or null. */
export const findGroup = (store: Handle, directoryId: string, id: string): Promise<ScimGroup | null> =>
  groups.recordWhere(store, { id, directory_id: directoryId });

/** What a group list may be narrowed to before its filter is evaluated. */
export type ScimGroupNarrowing =
  | { kind: 'all' }
  | { kind: 'displayName'; value: string }
  | { kind: 'externalId'; value: string }
  | { kind: 'id'; value: string };

/** The directory's groups in creation order, narrowed by an equality (displayName in any case). */
export async function groupsBatch(
  store: Handle,
  directoryId: string,
  narrowing: ScimGroupNarrowing,
  window: { offset: number; limit: number },
): Promise<ScimGroup[]> {
  const db = opened(store);
  let query = db.selectFrom('scim_groups').selectAll().where('directory_id', '=', directoryId);
  if (narrowing.kind === 'displayName')
    query = query.where((eb) => eb(eb.fn('lower', ['display_name']), '=', narrowing.value.toLowerCase()));
  else if (narrowing.kind === 'externalId') query = query.where('external_id', '=', narrowing.value);
  else if (narrowing.kind === 'id') query = query.where('id', '=', narrowing.value);
  const rows = await oldestFirst(query).limit(window.limit).offset(window.offset).execute();
  return rows.map(toGroup);
}

export async function countGroups(store: Handle, directoryId: string): Promise<number> {
  return groups.countWhere(store, { directory_id: directoryId });
}

/** Writes the group if its stored version is still `expectedVersion`; false otherwise. */
export async function updateGroup(store: Handle, g: ScimGroup, expectedVersion: number): Promise<boolean> {
  const { id, directory_id, created_at, ...changes } = rowOf(g);
  return (await groups.updateWhere(store, changes, { id, version: expectedVersion })) > 0;
}

export async function deleteGroup(store: Handle, id: string): Promise<boolean> {
  return (await groups.deleteWhere(store, { id })) > 0;
}

/** The group's members (user ids and addresses), oldest user first. */
export async function membersOf(
  store: Handle,
  groupId: string,
): Promise<{ userId: string; email: string }[]> {
  const rows = await opened(store)
    .selectFrom('scim_group_members')
    .innerJoin('users', 'users.id', 'scim_group_members.user_id')
    .select(['scim_group_members.user_id', 'users.email'])
    .where('scim_group_members.group_id', '=', groupId)
    .orderBy('users.created_at')
    .orderBy('users.id')
    .execute();
  return rows.map((r) => ({ userId: r.user_id, email: r.email }));
}

/**
 * The groups each user is a member of (the User resource's read-only `groups`, RFC 7643 §4.1.2),
 * oldest group first; a user in none is absent from the map.
 */
export async function groupsOfUsers(
  store: Handle,
  userIds: readonly string[],
): Promise<Map<string, { id: string; displayName: string }[]>> {
  const found = new Map<string, { id: string; displayName: string }[]>();
  if (userIds.length === 0) return found;
  const rows = await opened(store)
    .selectFrom('scim_group_members')
    .innerJoin('scim_groups', 'scim_groups.id', 'scim_group_members.group_id')
    .select(['scim_group_members.user_id', 'scim_groups.id', 'scim_groups.display_name'])
    .where('scim_group_members.user_id', 'in', [...userIds])
    .orderBy('scim_groups.created_at')
    .orderBy('scim_groups.id')
    .execute();
  for (const r of rows) {
    const list = found.get(r.user_id) ?? [];
    list.push({ id: r.id, displayName: r.display_name });
    found.set(r.user_id, list);
  }
  return found;
}

/** How many members each group has. */
export async function memberCounts(store: Handle, groupIds: readonly string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await opened(store)
    .selectFrom('scim_group_members')
    .select(['group_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('group_id', 'in', [...groupIds])
    .groupBy('group_id')
    .execute();
  return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
}

export async function addMembers(store: Handle, groupId: string, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await opened(store)
    .insertInto('scim_group_members')
    .values(userIds.map((userId) => ({ group_id: groupId, user_id: userId })))
    .execute();
}

export async function removeMembers(
  store: Handle,
  groupId: string,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await opened(store)
    .deleteFrom('scim_group_members')
    .where('group_id', '=', groupId)
    .where('user_id', 'in', [...userIds])
    .execute();
}

/** The roles the user's groups map to (every group of theirs is their directory's). */
export async function rolesFromGroupsOf(store: Handle, userId: string): Promise<string[]> {
  const rows = await opened(store)
    .selectFrom('scim_group_members')
    .innerJoin('scim_group_roles', 'scim_group_roles.group_id', 'scim_group_members.group_id')
    .select('scim_group_roles.role_id')
    .distinct()
    .where('scim_group_members.user_id', '=', userId)
    .execute();
  return rows.map((r) => r.role_id).sort();
}

/** The roles each of the groups maps to. */
export async function rolesOfGroups(
  store: Handle,
  groupIds: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await opened(store)
    .selectFrom('scim_group_roles')
    .select(['group_id', 'role_id'])
    .where('group_id', 'in', [...groupIds])
    .orderBy('role_id')
    .execute();
  for (const r of rows) out.get(r.group_id)?.push(r.role_id);
  return out;
}

export async function setGroupRoles(
  store: Handle,
  groupId: string,
  roleIds: readonly string[],
): Promise<void> {
  await groupRoles.replaceWhere(
    store,
    { group_id: groupId },
    roleIds.map((roleId) => ({ group_id: groupId, role_id: roleId })),
  );
}

/** The roles the user holds because of a group. */
export async function roleGrantsOf(store: Handle, userId: string): Promise<string[]> {
  const rows = await opened(store)
    .selectFrom('scim_role_grants')
    .select('role_id')
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.role_id).sort();
}

export async function setRoleGrants(
  store: Handle,
  userId: string,
  roleIds: readonly string[],
): Promise<void> {
  await roleGrants.replaceWhere(
    store,
    { user_id: userId },
    roleIds.map((roleId) => ({ user_id: userId, role_id: roleId })),
  );
}
