import { findMembership } from '../../storage/repos/memberships.js';
import { fail } from '../errors.js';
import { isIdOf } from '../identifiers.js';
import type { Org, Role } from '../types.js';
import type { DirectoryDeps } from './deps.js';
import { orgOfSlug } from './org-cache.js';
import { findOrg } from './orgs.js';

/** What a console user who is not an owner learns about an org they are a member of. */
export type MemberAnswer = 'forbidden' | 'not_found';

export interface OwnedOrg {
  org: Org;
  role: Extract<Role, 'owner'>;
}

/**
 * The org a management route's `{org}` names — an `org_…` id or a slug — provided the console
 * user `consoleUserId` owns it. Every other case fails with a ServiceError:
 *
 * - a member who is not an owner: 403 `forbidden`, or 404 `not_found` when `members` is
 *   `'not_found'` (operations whose existence members must not learn, like the event list);
 * - not a member, no such org, or the console org itself (managed by no one through the API):
 *   404 `not_found`, with the same detail for each, so the answer never tells them apart.
 *
 * @example
 *   const { org } = await requireOrgOwner(deps, access.userId, request.params.org, 'forbidden');
 */
export async function requireOrgOwner(
  deps: Pick<DirectoryDeps, 'store'>,
  consoleUserId: string,
  ref: string,
  members: MemberAnswer,
): Promise<OwnedOrg> {
  const { org, role } = await requireOrgMember(deps, consoleUserId, ref);
  if (role !== 'owner') {
    return members === 'forbidden'
      ? fail('org.owner_required', 'only an owner of the organization may do this')
      : fail('org.not_found', 'no such organization');
  }
  return { org, role: 'owner' };
}

export interface MemberOrg {
  org: Org;
  role: Role;
}

/**
 * The org a management route's `{org}` names, provided the console user `consoleUserId` is a
 * member of it (owner or not). Not a member, no such org, or the console org: 404 `not_found`,
 * the same answer for each.
 */
export async function requireOrgMember(
  deps: Pick<DirectoryDeps, 'store'>,
  consoleUserId: string,
  ref: string,
): Promise<MemberOrg> {
  const org = await findOrg(deps.store, ref);
  const membership = org && !org.isConsole ? await findMembership(deps.store, org.id, consoleUserId) : null;
  if (!org || !membership) return fail('org.not_found', 'no such organization');
  return { org, role: membership.role };
}

/**
 * The org a service account's management route names, provided it is the one org the account is
 * bound to (DESIGN §16). Any other org, known or not, is 404 `not_found` with the same detail a
 * console user gets for an org they are no member of.
 */
export async function requireBoundOrg(
  deps: Pick<DirectoryDeps, 'store' | 'orgs'>,
  boundOrgId: string,
  ref: string,
): Promise<Org> {
  // By slug, kept in the org cache (org-cache.ts): a service account's calls read no org row.
  const org = isIdOf('org', ref)
    ? await findOrg(deps.store, ref)
    : await orgOfSlug(deps.store, ref, deps.orgs);
  if (!org || org.id !== boundOrgId) return fail('org.not_found', 'no such organization');
  return org;
}
