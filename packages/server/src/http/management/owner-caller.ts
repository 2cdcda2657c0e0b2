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
import { grants, type ManagementScope } from '../../domain/tokens/console-scopes.js';
import type { Actor } from '../../domain/types.js';
import { authenticateBearer, REALM } from '../bearer.js';

export interface ConsoleCaller {
  /** The console user, as the audit entries of their changes name them. */
  actor: Actor;
  /** The console user's `usr_` id (the `act.sub` of an impersonation they start). */
  consoleUserId: string;
}

export interface OwnerCaller extends OwnedOrg, ConsoleCaller {}

export interface MemberCaller extends MemberOrg, ConsoleCaller {}

/**
 * A token without the scope its route needs: 403 `insufficient_scope` naming it, in the body and
 * in the `WWW-Authenticate` challenge (RFC 6750 §3.1).
 */
function requireScope(granted: string, needed: ManagementScope): void {
  if (grants(granted, needed)) return;
  fail('insufficient_scope', `this token lacks the ${needed} scope`, {
    'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${needed}"`,
  });
}

/**
 * The first steps of every management route: a console token (else 401) on the console host
 * (else 404: the management API lives there only) whose session was granted `scope` (else 403
 * insufficient_scope). Routes about the caller rather than one org (`/organizations`) need no more.
 */
export async function consoleCaller(
  deps: Deps,
  request: FastifyRequest,
  scope: ManagementScope,
): Promise<ConsoleCaller> {
  const { org: host, access } = await authenticateBearer(deps, request, ['console']);
  if (!host.isConsole) return fail('not_found', 'the management API is served on the console host');
  requireScope(access.session.scope, scope);
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
