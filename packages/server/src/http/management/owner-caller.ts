import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import {
  type MemberAnswer,
  type MemberOrg,
  type OwnedOrg,
  requireOrgMember,
  requireOrgOwner,
} from '../../domain/directory/org-access.js';
import { fail } from '../../domain/errors.js';
import type { ManagementScope } from '../../domain/tokens/console-scopes.js';
import type { Actor } from '../../domain/types.js';
import { authenticateBearer } from '../bearer.js';

export interface ConsoleCaller {
  /** The console user, as the audit entries of their changes name them. */
  actor: Actor;
  /** The console user's `usr_` id (the `act.sub` of an impersonation they start). */
  consoleUserId: string;
}

export interface OwnerCaller extends OwnedOrg, ConsoleCaller {}

export interface MemberCaller extends MemberOrg, ConsoleCaller {}

/**
 * The first steps of every management route: a console token (else 401) on the console host
 * (else 404: the management API lives there only). Routes about the caller rather than one org
 * (`/organizations`) need no more.
 */
export async function consoleCaller(
  deps: Deps,
  request: FastifyRequest,
  _scope: ManagementScope,
): Promise<ConsoleCaller> {
  const { org: host, access } = await authenticateBearer(deps, request, ['console']);
  if (!host.isConsole) return fail('not_found', 'the management API is served on the console host');
  return { actor: { kind: 'user', id: access.userId }, consoleUserId: access.userId };
}

/**
 * The first steps of an owners' `/organizations/{org}/…` management route: consoleCaller, then
 * ownership of `{org}` (see requireOrgOwner for what members and strangers get).
 */
export async function ownerCaller(
  deps: Deps,
  request: FastifyRequest<{ Params: { org: string } }>,
  members: MemberAnswer,
  scope: ManagementScope,
): Promise<OwnerCaller> {
  const caller = await consoleCaller(deps, request, scope);
  const owned = await requireOrgOwner(deps, caller.consoleUserId, request.params.org, members);
  return { ...owned, ...caller };
}

/**
 * The first steps of a `/organizations/{org}/…` route that members read too: consoleCaller,
 * then membership of `{org}` (strangers and unknown orgs get 404 not_found).
 */
export async function memberCaller(
  deps: Deps,
  request: FastifyRequest<{ Params: { org: string } }>,
  scope: ManagementScope,
): Promise<MemberCaller> {
  const caller = await consoleCaller(deps, request, scope);
  const member = await requireOrgMember(deps, caller.consoleUserId, request.params.org);
  return { ...member, ...caller };
}
