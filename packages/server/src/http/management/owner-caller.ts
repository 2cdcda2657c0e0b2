import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import {
  grants,
  type ManagementScope,
  type MemberAnswer,
  requireBoundOrg,
  requireOrgMember,
  requireOrgOwner,
} from '../../domain/directory/index.js';
import { fail } from '../../domain/errors.js';
import { type ManagementPrincipal, verifyManagementToken } from '../../domain/tokens/index.js';
import type { Actor, Org } from '../../domain/types.js';
import { authenticateBearerWith, REALM } from '../bearer.js';
import { ORG_CACHE_TTL_MS, orgOf } from '../org-routing.js';

export interface ConsoleCaller {
  /** The console user, as the audit entries of their changes name them. */
  actor: Actor;
  /** The console user's `usr_` id (the `act.sub` of an impersonation they start). */
  consoleUserId: string;
}

/** The caller of an `/organizations/{org}/…` route: the org, and the actor its audit entries name. */
export interface OrgCaller {
  org: Org;
  /** `{kind: 'user'}` for a console user, `{kind: 'client'}` for a service account. */
  actor: Actor;
}

export interface OwnerCaller extends OrgCaller, ConsoleCaller {}

/**
 * A token without the scope its route needs: 403 `insufficient_scope` naming it, in the body and
 * in the `WWW-Authenticate` challenge (RFC 6750 §3.1).
 */
function requireScope(granted: string, needed: ManagementScope): void {
  if (grants(granted, needed)) return;
  fail('management.scope.insufficient', `this token lacks the ${needed} scope`, {
    'www-authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${needed}"`,
  });
}

const NOT_A_PERSON = 'a service account cannot do this: it is for the organization’s owners';

/**
 * The first steps of every management route: a console user's or service account's token (else
 * 401) on the console host (else 404: the management API lives there only); for a route of
 * `people` only, a person's (a service account: 403 forbidden, whatever its scopes, since no scope
 * it can hold would let it in); then granted `scope` (else 403 insufficient_scope).
 */
async function managementCaller(
  deps: Deps,
  request: FastifyRequest,
  scope: ManagementScope,
  people: boolean,
): Promise<ManagementPrincipal> {
  // The console org of the host, kept like the token endpoint's (the token's checks read it).
  await orgOf(deps, request, ORG_CACHE_TTL_MS);
  const { org: host, access: principal } = await authenticateBearerWith(deps, request, (org, token) =>
    verifyManagementToken(deps, org, token),
  );
  if (!host.isConsole)
    return fail('management.wrong_host', 'the management API is served on the console host');
  if (people && principal.kind !== 'person') return fail('management.not_a_person', NOT_A_PERSON);
  requireScope(principal.kind === 'person' ? principal.access.session.scope : principal.access.scope, scope);
  return principal;
}

function personOf(principal: ManagementPrincipal): ConsoleCaller {
  if (principal.kind !== 'person') return fail('management.not_a_person', NOT_A_PERSON);
  return { actor: { kind: 'user', id: principal.access.userId }, consoleUserId: principal.access.userId };
}

/**
 * A route about the console user rather than one org (`/organizations`, their membership): a
 * console token granted `scope`. A service account is bound to one org and has no such routes:
 * 403 `forbidden`.
 */
export async function consoleCaller(
  deps: Deps,
  request: FastifyRequest,
  scope: ManagementScope,
): Promise<ConsoleCaller> {
  return personOf(await managementCaller(deps, request, scope, true));
}

/**
 * The first steps of an owners' `/organizations/{org}/…` management route: an owner of `{org}`
 * (see requireOrgOwner for what members and strangers get), or a service account bound to it
 * (another org: 404, as for strangers), with `scope`.
 */
export async function ownerCaller(
  deps: Deps,
  request: FastifyRequest<{ Params: { org: string } }>,
  members: MemberAnswer,
  scope: ManagementScope,
): Promise<OrgCaller> {
  return orgCaller(deps, request, scope, (userId, ref) => requireOrgOwner(deps, userId, ref, members));
}

/**
 * An owners' route that only people may take — who the org's people are (member writes,
 * invitations), its service accounts, impersonation (docs/delegation.md, "Who may call the
 * management API"): a service account gets 403 `forbidden`, whatever its scopes.
 */
export async function personOwnerCaller(
  deps: Deps,
  request: FastifyRequest<{ Params: { org: string } }>,
  members: MemberAnswer,
  scope: ManagementScope,
): Promise<OwnerCaller> {
  const caller = personOf(await managementCaller(deps, request, scope, true));
  const { org } = await requireOrgOwner(deps, caller.consoleUserId, request.params.org, members);
  return { org, ...caller };
}

/**
 * The first steps of a `/organizations/{org}/…` route that members read too: a member of `{org}`
 * (strangers and unknown orgs get 404 not_found), or a service account bound to it, with `scope`.
 */
export async function memberCaller(
  deps: Deps,
  request: FastifyRequest<{ Params: { org: string } }>,
  scope: ManagementScope,
): Promise<OrgCaller> {
  return orgCaller(deps, request, scope, (userId, ref) => requireOrgMember(deps, userId, ref));
}

/** A service account bound to `{org}`, or a person `admit` lets in (it answers 404 or 403 otherwise). */
async function orgCaller(
  deps: Deps,
  request: FastifyRequest<{ Params: { org: string } }>,
  scope: ManagementScope,
  admit: (consoleUserId: string, orgRef: string) => Promise<{ org: Org }>,
): Promise<OrgCaller> {
  const principal = await managementCaller(deps, request, scope, false);
  if (principal.kind === 'service_account') {
    const org = await requireBoundOrg(deps, principal.access.orgId, request.params.org);
    return { org, actor: { kind: 'client', id: principal.access.clientId } };
  }
  const caller = personOf(principal);
  const { org } = await admit(caller.consoleUserId, request.params.org);
  return { org, actor: caller.actor };
}
