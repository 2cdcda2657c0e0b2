import { findRoles, rolesOfUser, setUserRoles } from '../../storage/repos/roles.js';
import { userSnapshot } from '../audit/snapshots.js';
import { heldListUpdated } from '../audit/trail.js';
import { clock } from '../clock.js';
import { requireOrgUser } from '../directory/users.js';
import { fail } from '../errors.js';
import type { Actor, EndUserRole, Org } from '../types.js';
import type { ResourcesDeps } from './deps.js';

/** At most this many roles per user. */
export const MAX_USER_ROLES = 100;

/** The roles one of the org's users holds; 404 for a user that is not the org's. */
export async function getUserRoles(deps: ResourcesDeps, org: Org, userId: string): Promise<EndUserRole[]> {
  await requireOrgUser(deps.store, org, userId);
  return rolesOfUser(deps.store, userId);
}

/**
 * Replaces the roles a user holds, audited as `user.updated` whose data names the role ids after
 * and whose previous names them before (nothing is written when the set is the same). An id that
 * is not a role of the org is 400. The user's next token, a refresh included, follows the new set.
 */
export async function setRolesOfUser(
  deps: ResourcesDeps,
  org: Org,
  userId: string,
  roleIds: readonly string[],
  actor: Actor,
): Promise<EndUserRole[]> {
  const wanted = [...new Set(roleIds)];
  if (wanted.length > MAX_USER_ROLES) fail('user.roles.too_many', `roles: at most ${MAX_USER_ROLES}`);
  return deps.unitOfWork.run(async (tx) => {
    const user = await requireOrgUser(tx, org, userId);
    const found = await findRoles(tx, org.id, wanted);
    const unknown = wanted.find((id) => !found.some((r) => r.id === id));
    if (unknown !== undefined)
      fail('user.roles.unknown', `roles: "${unknown}" is not a role of this organization`);
    const before = (await rolesOfUser(tx, userId)).map((r) => r.id).sort();
    const after = found.map((r) => r.id).sort();
    if (JSON.stringify(before) === JSON.stringify(after)) return found;
    const now = clock.now();
    await setUserRoles(tx, userId, after, now);
    await heldListUpdated(tx, { orgId: org.id, actor, at: now }, 'user', userSnapshot(user), 'roles', {
      before,
      after,
    });
    return found;
  });
}
