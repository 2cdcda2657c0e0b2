import type { Handle } from '../../storage/handle.js';
import { findRoles, rolesOfUser, setUserRoles } from '../../storage/repos/roles.js';
import {
  addMembers,
  countGroups,
  deleteGroup,
  findGroup,
  groupsBatch,
  insertGroup,
  memberCounts,
  membersOf,
  removeMembers,
  roleGrantsOf,
  rolesFromGroupsOf,
  rolesOfGroups,
  type ScimGroupNarrowing,
  setGroupRoles,
  setRoleGrants,
  updateGroup,
} from '../../storage/repos/scim-groups.js';
import { heldByDirectory } from '../../storage/repos/scim-users.js';
import { findUserById } from '../../storage/repos/users.js';
import { recordAudit, recordUpdated } from '../audit/audit.js';
import { userSnapshot } from '../audit/snapshots.js';
import { heldListUpdated } from '../audit/trail.js';
import { clock } from '../clock.js';
import { fail, failApi } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { type PageAsked, windowOf } from '../paging.js';
import { type Actor, type Org, type ScimGroup, SYSTEM } from '../types.js';
import type { ScimCaller, ScimDeps } from './deps.js';
import { requireDirectory } from './directories.js';
import { indexedEquality } from './filter.js';
import { type ListPage, type ListQuery, listPage, MAX_SCAN, SCAN_BATCH } from './listing.js';
import { patchOf, type Replaceable, replaceOf } from './replacement.js';
import { GROUP_SCHEMA } from './resource.js';
import { auditUserUpdate, scimBaseUrl } from './users.js';
import { deleteOf, metaOf, patchableMeta, readOf, type ScimCreate } from './versions.js';

/** Most members one group answers or takes in one request. */
export const MAX_MEMBERS = 1000;
/** Most roles a group maps to. */
export const MAX_GROUP_ROLES = 50;

/** A group as a directory holds it, with its members. */
export interface ScimGroupView {
  group: ScimGroup;
  members: { userId: string; email: string }[];
}

export function groupRepresentation(deps: Pick<ScimDeps, 'config'>, org: Org, v: ScimGroupView) {
  const base = scimBaseUrl(deps, org);
  return {
    schemas: [GROUP_SCHEMA],
    id: v.group.id,
    displayName: v.group.displayName,
    ...(v.group.externalId === null ? {} : { externalId: v.group.externalId }),
    members: v.members.map((m) => ({ value: m.userId, display: m.email, $ref: `${base}Users/${m.userId}` })),
    meta: metaOf('Group', `${base}Groups/${v.group.id}`, v.group),
  };
}

const invalid = (detail: string): never => fail('scim.value.invalid', detail);

/** A group as its audit entries show it: never its members' addresses, only their ids. */
const groupSnapshot = (g: ScimGroup, memberIds: readonly string[]) => ({
  id: g.id,
  directoryId: g.directoryId,
  displayName: g.displayName,
  externalId: g.externalId,
  members: [...memberIds].sort(),
});

/** displayName, externalId and member ids of a Group body (RFC 7643 §4.2), checked. */
function groupInput(body: unknown): { displayName: string; externalId: string | null; members: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return fail('scim.body.invalid', 'the body must be a JSON object');
  const b = Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
  const displayName = b.displayname;
  if (typeof displayName !== 'string' || displayName.trim() === '' || displayName.length > 256)
    return invalid('displayName must be a string of 1 to 256 characters');
  const externalId = b.externalid ?? null;
  if (externalId !== null && (typeof externalId !== 'string' || externalId.length > 1024))
    return invalid('externalId must be a string');
  const members = b.members ?? [];
  if (!Array.isArray(members)) return invalid('members must be an array');
  if (members.length > MAX_MEMBERS) return invalid(`members holds more than ${MAX_MEMBERS} values`);
  const ids = members.map((m) => {
    const value = typeof m === 'object' && m !== null ? (m as Record<string, unknown>).value : undefined;
    return typeof value === 'string' ? value : invalid('each member must have a value (a user id)');
  });
  return { displayName: displayName.trim(), externalId, members: [...new Set(ids)] };
}

/** Members must be users this directory holds: another directory's, another org's or no one is 400. */
async function checkMembers(tx: Handle, caller: ScimCaller, ids: readonly string[]) {
  const held = await heldByDirectory(tx, caller.directory.id, ids);
  const stranger = ids.find((id) => !held.has(id));
  if (stranger !== undefined) invalid(`member ${stranger} is not a user of this directory`);
}

/**
 * Gives and takes the roles the users' groups map to (DESIGN §19): a role a group gives that the
 * user lacks is added and remembered as the group's grant; a grant no group gives any more is taken.
 * A role an owner gave stays whatever the groups do. Each change is `user.updated` with the roles.
 */
async function syncRoles(tx: Handle, caller: ScimCaller, userIds: Iterable<string>) {
  for (const userId of new Set(userIds)) {
    const user = await findUserById(tx, userId);
    if (!user || user.orgId !== caller.org.id) continue;
    const wanted = new Set(await rolesFromGroupsOf(tx, userId));
    const granted = await roleGrantsOf(tx, userId);
    const current = (await rolesOfUser(tx, userId)).map((r) => r.id).sort();
    const taken = granted.filter((r) => !wanted.has(r));
    const added = [...wanted].filter((r) => !current.includes(r));
    const after = [...current.filter((r) => !taken.includes(r)), ...added].sort();
    const grants = [...granted.filter((r) => wanted.has(r) && current.includes(r)), ...added].sort();
    if (JSON.stringify(grants) !== JSON.stringify(granted)) await setRoleGrants(tx, userId, grants);
    if (JSON.stringify(after) === JSON.stringify(current)) continue;
    const now = clock.now();
    await setUserRoles(tx, userId, after, now);
    await auditUserUpdate(tx, caller, now, {
      data: { ...userSnapshot(user), roles: after },
      previous: { ...userSnapshot(user), roles: current },
    });
  }
}

const notFound = (): never => fail('scim.group.not_found', 'no such group in this directory');

async function requireGroup(db: Handle, caller: ScimCaller, id: string): Promise<ScimGroupView> {
  const group = isIdOf('group', id) ? await findGroup(db, caller.directory.id, id) : null;
  if (!group) return notFound();
  return { group, members: await membersOf(db, group.id) };
}

/** POST /Groups. */
export const createScimGroup: ScimCreate<ScimGroupView> = async (deps, caller, body) => {
  const input = groupInput(body);
  return deps.unitOfWork.run(async (tx) => {
    await checkMembers(tx, caller, input.members);
    const now = clock.now();
    const group: ScimGroup = {
      id: newResourceId('group'),
      directoryId: caller.directory.id,
      displayName: input.displayName,
      externalId: input.externalId,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await insertGroup(tx, group);
    await addMembers(tx, group.id, input.members);
    await recordAudit(tx, {
      orgId: caller.org.id,
      entity: 'directory_group',
      verb: 'created',
      actor: SYSTEM,
      at: now,
      data: groupSnapshot(group, input.members),
    });
    return { group, members: await membersOf(tx, group.id) };
  });
};

/** Stores the group's new name and members at the next version; members' roles follow. */
async function replaceGroupWith(
  tx: Handle,
  caller: ScimCaller,
  current: ScimGroupView,
  input: ReturnType<typeof groupInput>,
): Promise<ScimGroupView> {
  const before = new Set(current.members.map((m) => m.userId));
  const after = new Set(input.members);
  const joined = input.members.filter((id) => !before.has(id));
  const left = [...before].filter((id) => !after.has(id));
  await checkMembers(tx, caller, joined);
  const group: ScimGroup = {
    ...current.group,
    displayName: input.displayName,
    externalId: input.externalId,
    version: current.group.version + 1,
    updatedAt: clock.now(),
  };
  if (!(await updateGroup(tx, group, current.group.version)))
    fail('scim.version.mismatch', 'the group changed while this request was served; read it again');
  await addMembers(tx, group.id, joined);
  await removeMembers(tx, group.id, left);
  await recordUpdated(tx, { orgId: caller.org.id, actor: SYSTEM, at: group.updatedAt }, 'directory_group', {
    before: groupSnapshot(current.group, [...before]),
    after: groupSnapshot(group, [...after]),
  });
  await syncRoles(tx, caller, [...joined, ...left]);
  return { group, members: await membersOf(tx, group.id) };
}

/** The directory's groups as GET reads them and PUT, PATCH and DELETE change them (a 412 says "the group changed"). */
const GROUPS: Replaceable<ScimGroupView, ReturnType<typeof groupInput>> = {
  read: requireGroup,
  version: (v) => v.group.version,
  thing: 'group',
  input: groupInput,
  patchable: (current) => ({
    schemas: [GROUP_SCHEMA],
    displayName: current.group.displayName,
    ...(current.group.externalId === null ? {} : { externalId: current.group.externalId }),
    members: current.members.map((m) => ({ value: m.userId })),
    meta: patchableMeta(current.group),
  }),
  replaceWith: replaceGroupWith,
};

/** GET /Groups/{id}. */
export const getScimGroup = readOf(GROUPS);

/** PUT /Groups/{id}. */
export const replaceScimGroup = replaceOf(GROUPS);

/** PATCH /Groups/{id}: displayName, members added and removed (Entra's `members[value eq "…"]` too). */
export const patchScimGroup = patchOf(GROUPS);

/** DELETE /Groups/{id}: its members lose the roles it gave. */
export const deleteScimGroup = deleteOf(GROUPS, async (tx, caller, current) => {
  await deleteGroup(tx, current.group.id);
  await recordAudit(tx, {
    orgId: caller.org.id,
    entity: 'directory_group',
    verb: 'deleted',
    actor: SYSTEM,
    data: groupSnapshot(
      current.group,
      current.members.map((m) => m.userId),
    ),
  });
  await syncRoles(
    tx,
    caller,
    current.members.map((m) => m.userId),
  );
});

/**
 * GET /Groups: the directory's groups matching `filter`, paged like /Users. An equality on
 * displayName, externalId or id reads by index; any other filter is evaluated over the directory's
 * groups, and refused (400 `tooMany`) when it holds more than MAX_SCAN.
 */
export function listScimGroups(
  deps: ScimDeps,
  caller: ScimCaller,
  query: ListQuery & { withMembers: boolean },
): Promise<ListPage> {
  const represent = async (group: ScimGroup) =>
    groupRepresentation(deps, caller.org, {
      group,
      members: query.withMembers ? await membersOf(deps.store, group.id) : [],
    });
  return listPage(query, {
    count: () => countGroups(deps.store, caller.directory.id),
    window: async (window) =>
      Promise.all(
        (await groupsBatch(deps.store, caller.directory.id, { kind: 'all' }, window)).map(represent),
      ),
    scan: async function* (filter) {
      const equality = indexedEquality(filter, ['displayName', 'externalId', 'id']);
      const narrowing: ScimGroupNarrowing =
        equality === null
          ? { kind: 'all' }
          : ({ kind: equality.attribute, value: equality.value } as ScimGroupNarrowing);
      // As for users: a filter no index serves is evaluated over every group, only up to a size.
      if (narrowing.kind === 'all' && (await countGroups(deps.store, caller.directory.id)) > MAX_SCAN)
        fail(
          'scim.filter.too_many',
          `this filter reads every group of the directory, which holds more than ${MAX_SCAN}: filter on displayName, externalId or id`,
        );
      for (let offset = 0; ; offset += SCAN_BATCH) {
        const groups = await groupsBatch(deps.store, caller.directory.id, narrowing, {
          offset,
          limit: SCAN_BATCH,
        });
        const resources: Record<string, unknown>[] = [];
        for (const group of groups) resources.push(await represent(group));
        yield resources;
        if (groups.length < SCAN_BATCH) return;
      }
    },
  });
}

/** A directory's group as an owner sees it: its name, how many members, the roles it maps to. */
export interface MappedGroup {
  group: ScimGroup;
  memberCount: number;
  roles: string[];
}

/** The directory's groups, oldest first, with their role mappings (owners, management API). */
export async function pageOfDirectoryGroups(
  deps: ScimDeps,
  org: Org,
  directoryId: string,
  q: PageAsked,
): Promise<{ entries: MappedGroup[]; total: number }> {
  const directory = await requireDirectory(deps, org, directoryId);
  const total = await countGroups(deps.store, directory.id);
  const groups = await groupsBatch(deps.store, directory.id, { kind: 'all' }, windowOf(q));
  const counts = await memberCounts(
    deps.store,
    groups.map((g) => g.id),
  );
  const roles = await rolesOfGroups(
    deps.store,
    groups.map((g) => g.id),
  );
  return {
    total,
    entries: groups.map((group) => ({
      group,
      memberCount: counts.get(group.id) ?? 0,
      roles: roles.get(group.id) ?? [],
    })),
  };
}

/**
 * An owner maps a directory's group to roles of the org (DESIGN §19): its members gain them, and
 * lose those it no longer maps to (unless an owner gave them). Their next token, a refresh
 * included, follows. Audited as `directory_group.updated`.
 */
export async function mapGroupToRoles(
  deps: ScimDeps,
  org: Org,
  directoryId: string,
  groupId: string,
  roleIds: readonly string[],
  actor: Actor,
): Promise<MappedGroup> {
  const wanted = [...new Set(roleIds)].sort();
  if (wanted.length > MAX_GROUP_ROLES)
    failApi('directory.group.roles_invalid', `roles: at most ${MAX_GROUP_ROLES}`);
  return deps.unitOfWork.run(async (tx) => {
    const directory = await requireDirectory({ store: tx }, org, directoryId);
    const group = isIdOf('group', groupId) ? await findGroup(tx, directory.id, groupId) : null;
    if (!group) return fail('directory.group.not_found', 'no such group in the directory');
    const found = await findRoles(tx, org.id, wanted);
    const unknown = wanted.find((id) => !found.some((r) => r.id === id));
    if (unknown !== undefined)
      failApi('directory.group.roles_invalid', `roles: "${unknown}" is not a role of this organization`);
    const before = (await rolesOfGroups(tx, [group.id])).get(group.id) ?? [];
    const members = await membersOf(tx, group.id);
    if (JSON.stringify(before) !== JSON.stringify(wanted)) {
      await setGroupRoles(tx, group.id, wanted);
      const snapshot = { id: group.id, directoryId: directory.id, displayName: group.displayName };
      await heldListUpdated(tx, { orgId: org.id, actor }, 'directory_group', snapshot, 'roles', {
        before,
        after: wanted,
      });
      await syncRoles(
        tx,
        { org, directory },
        members.map((m) => m.userId),
      );
    }
    return { group, memberCount: members.length, roles: wanted };
  });
}
