import { findMembership } from '../../storage/repos/memberships.js';
import { fail } from '../errors.js';
import type { DirectoryDeps } from './deps.js';
import { findOrg } from './orgs.js';

/**
 * GET /organizations/{slug}: the caller's own membership of an org, as the SDK's Organization
 * record. Not a member, or no such org, is the same 404 (the SDK turns it into null).
 */
export async function membershipOf(deps: DirectoryDeps, consoleUserId: string, ref: string) {
  const org = await findOrg(deps.store, ref);
  const membership = org && !org.isConsole ? await findMembership(deps.store, org.id, consoleUserId) : null;
  if (!org || !membership) return fail('org.not_found', 'no such organization');
  return { id: org.id, slug: org.slug, role: membership.role };
}
