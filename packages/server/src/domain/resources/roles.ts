import { isUniqueViolation } from '../../storage/errors.js';
import type { Handle } from '../../storage/handle.js';
import {
  deleteRoleRow,
  findRole,
  insertRole,
  pageRoles,
  setRolePermissions,
  updateRoleRow,
} from '../../storage/repos/roles.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { checkName } from '../directory/validate.js';
import { fail } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { type PageAsked, windowOf } from '../paging.js';
import type { Actor, EndUserRole, Org, Permission } from '../types.js';
import type { ResourcesDeps } from './deps.js';
import { resolvePermissions } from './permissions.js';
import { roleSnapshot } from './snapshots.js';

export interface NewRole {
  name: string;
  description?: string;
  permissions?: Permission[];
}

export type RoleChanges = Partial<NewRole>;

const MAX_DESCRIPTION = 200;

function checkDescription(value: string): string {
  const v = value.trim();
  if (v.length > MAX_DESCRIPTION)
    fail('role.description.length', `description must be 0-${MAX_DESCRIPTION} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(v))
    fail('role.description.control_characters', 'description must not contain control characters');
  return v;
}

const TAKEN = 'another role of this organization has that name';

const audit = auditTrail('role', roleSnapshot);

/** A write that fails on the unique name is 409 `conflict`. */
async function uniqueName<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) fail('role.name.taken', TAKEN);
    throw error;
  }
}

/** Creates a role of the org's end users; `role.created` is audited with it. */
export async function createRole(
  deps: ResourcesDeps,
  org: Org,
  input: NewRole,
  actor: Actor,
): Promise<EndUserRole> {
  const name = checkName('name', input.name, 64);
  const description = checkDescription(input.description ?? '');
  return uniqueName(
    deps.unitOfWork.run(async (tx) => {
      const { stored, shown } = await resolvePermissions(tx, org, 'permissions', input.permissions ?? []);
      const now = clock.now();
      const role: EndUserRole = {
        id: newResourceId('role'),
        orgId: org.id,
        name,
        description,
        permissions: shown,
        createdAt: now,
        updatedAt: now,
      };
      await insertRole(tx, role);
      await setRolePermissions(tx, role.id, stored);
      const created = (await findRole(tx, org.id, role.id)) as EndUserRole;
      await audit.created(tx, { orgId: org.id, actor, at: now }, created);
      return created;
    }),
  );
}

/** One page of the org's roles, oldest first. */
export function listRoles(deps: ResourcesDeps, org: Org, q: PageAsked) {
  return pageRoles(deps.store, org.id, windowOf(q));
}

const NO_SUCH_ROLE = 'no such role';

async function orgRole(db: Handle, org: Org, id: string): Promise<EndUserRole> {
  if (!isIdOf('role', id)) return fail('role.not_found', NO_SUCH_ROLE);
  return (await findRole(db, org.id, id)) ?? fail('role.not_found', NO_SUCH_ROLE);
}

/** One of the org's roles; 404 `not_found` for any other id. */
export const getRole = (deps: ResourcesDeps, org: Org, id: string) => orgRole(deps.store, org, id);

/** Updates a role (a list of permissions given replaces the stored one), audited as `role.updated`. */
export async function updateRole(
  deps: ResourcesDeps,
  org: Org,
  id: string,
  changes: RoleChanges,
  actor: Actor,
): Promise<EndUserRole> {
  const name = changes.name === undefined ? undefined : checkName('name', changes.name, 64);
  const description = changes.description === undefined ? undefined : checkDescription(changes.description);
  return uniqueName(
    deps.unitOfWork.run(async (tx) => {
      const before = await orgRole(tx, org, id);
      const permissions = changes.permissions
        ? await resolvePermissions(tx, org, 'permissions', changes.permissions)
        : null;
      const after: EndUserRole = {
        ...before,
        name: name ?? before.name,
        description: description ?? before.description,
        permissions: permissions?.shown ?? before.permissions,
      };
      if (permissions) {
        await setRolePermissions(tx, id, permissions.stored);
        after.permissions = ((await findRole(tx, org.id, id)) as EndUserRole).permissions;
      }
      if (audit.unchanged(before, after)) return before;
      after.updatedAt = clock.now();
      await updateRoleRow(tx, after);
      await audit.updated(tx, { orgId: org.id, actor, at: after.updatedAt }, before, after);
      return after;
    }),
  );
}

/**
 * Deletes a role, audited as `role.deleted`: the users holding it lose it, and their next token
 * (a refresh included) carries none of the scopes only it allowed.
 */
export async function deleteRole(deps: ResourcesDeps, org: Org, id: string, actor: Actor): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    const role = await orgRole(tx, org, id);
    if (!(await deleteRoleRow(tx, org.id, id))) fail('role.not_found', NO_SUCH_ROLE);
    await audit.deleted(tx, { orgId: org.id, actor }, role);
  });
}
