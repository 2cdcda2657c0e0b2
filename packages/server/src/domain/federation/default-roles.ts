import type { Handle } from '../../storage/handle.js';
import { findRoles, setUserRoles } from '../../storage/repos/roles.js';
import { userSnapshot } from '../audit/snapshots.js';
import { heldListUpdated } from '../audit/trail.js';
import { failApi } from '../errors.js';
import { type Org, SYSTEM, type User } from '../types.js';

/**
 * A connection's `default_roles` (DESIGN §17): end-user roles of the org given to a user the
 * connection creates on first sign-in (`jit`). Linking a user who already exists changes nothing
 * about their roles: those are the owners' to set.
 */

/** In `tx`: every id is a role of the org now (400 naming the first that is not); the ids, distinct. */
export async function requireDefaultRoles(tx: Handle, org: Org, ids: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(ids)];
  const found = await findRoles(tx, org.id, wanted);
  const unknown = wanted.find((id) => !found.some((r) => r.id === id));
  if (unknown !== undefined)
    failApi(
      'connection.default_roles.unknown',
      `default_roles: "${unknown}" is not a role of this organization`,
    );
  return wanted;
}

/**
 * In `tx`, for a user the connection just created: its default roles (a role deleted since the
 * connection was saved is skipped), audited as `user.updated` like setting a user's roles.
 */
export async function grantDefaultRoles(tx: Handle, org: Org, roleIds: readonly string[], user: User) {
  const roles = (await findRoles(tx, org.id, roleIds)).map((r) => r.id).sort();
  if (roles.length === 0) return;
  await setUserRoles(tx, user.id, roles, user.createdAt);
  const by = { orgId: org.id, actor: SYSTEM, at: user.createdAt };
  await heldListUpdated(tx, by, 'user', userSnapshot(user), 'roles', { before: [], after: roles });
}
