import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { type MemberAnswer, type OwnedOrg, requireOrgOwner } from '../../domain/directory/org-access.js';
import { fail } from '../../domain/errors.js';
import type { ManagementScope } from '../../domain/tokens/console-scopes.js';
import type { Actor } from '../../domain/types.js';
import { authenticateBearer } from '../bearer.js';

export interface OwnerCaller extends OwnedOrg {
  /** The console user, as the audit entries of their changes name them. */
  actor: Actor;
  /** The console user's `usr_` id (the `act.sub` of an impersonation they start). */
  consoleUserId: string;
}

/**
 * The first steps of every `/organizations/{org}/…` management route: a console token (else 401),
 * the console host (else 404: the management API lives there only, DESIGN §4), then ownership
 * of `{org}` (see requireOrgOwner for what members and strangers get).
 */
export async function ownerCaller(
  deps: Deps,
  request: FastifyRequest<{ Params: { org: string } }>,
  members: MemberAnswer,
  _scope: ManagementScope,
): Promise<OwnerCaller> {
  const { org: host, access } = await authenticateBearer(deps, request, ['console']);
  if (!host.isConsole) return fail('not_found', 'the management API is served on the console host');
  const owned = await requireOrgOwner(deps, access.userId, request.params.org, members);
  return { ...owned, actor: { kind: 'user', id: access.userId }, consoleUserId: access.userId };
}
