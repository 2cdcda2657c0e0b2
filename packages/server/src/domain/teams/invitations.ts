import { newSecret, sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import {
  findInvitation,
  findPendingInvitation,
  type InvitationStateFilter,
  insertInvitation,
  pageInvitations,
  revokeInvitationRow,
} from '../../storage/repos/invitations.js';
import { findMembership } from '../../storage/repos/memberships.js';
import { findConsoleOrg, lockOrg } from '../../storage/repos/orgs.js';
import { findRoles } from '../../storage/repos/roles.js';
import { emailKey, findUserByEmail } from '../../storage/repos/users.js';
import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { clock } from '../clock.js';
import { checkEmail } from '../directory/validate.js';
import { fail } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { issuerOf } from '../issuers.js';
import { invitationMail, mailTexts } from '../mail/messages.js';
import { windowOf } from '../paging.js';
import { runForIdOf } from '../run-for-id.js';
import type { Actor, InvitationKind, InvitationRecord, Org, Role } from '../types.js';
import type { TeamsDeps } from './deps.js';

/**
 * Invitations (DESIGN §16). An owner invites an address to be a user of the org (`user`, accepted
 * on the org's hosted pages) or a console member of it (`member`, accepted on the console's pages):
 * nobody becomes either without following the link. The link is one-time, lasts 7 days, and is
 * stored as its token's SHA-256 only; it goes out by mail, or is shown once to the owner to pass on.
 */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The hosted page an invitation link opens (the token in its `token` query parameter). */
export const INVITATION_PATH = '/invitation';

const TOKEN_PREFIX = 'tin_';

/** At most this many end-user roles per invitation. */
export const MAX_INVITATION_ROLES = 20;

export type InvitationState = 'pending' | 'accepted' | 'expired' | 'revoked';

export interface Invitation {
  id: string;
  orgId: string;
  kind: InvitationKind;
  email: string;
  /** `member` invitations: the console role; null for `user` ones. */
  role: Role | null;
  /** `user` invitations: the org's end-user role ids (`rol_`) granted on accepting, as invited. */
  roles: string[];
  mailed: boolean;
  state: InvitationState;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  acceptedBy: string | null;
}

/** An invitation's state now: withdrawn and accepted stay so; a pending one expires with time. */
export function stateOf(stored: InvitationRecord, now: number): InvitationState {
  if (stored.revokedAt !== null) return 'revoked';
  if (stored.acceptedAt !== null) return 'accepted';
  return stored.expiresAt > now ? 'pending' : 'expired';
}

export const toInvitation = (stored: InvitationRecord, now: number): Invitation => ({
  id: stored.id,
  orgId: stored.orgId,
  kind: stored.kind,
  email: stored.email,
  role: stored.role,
  roles: stored.roles,
  mailed: stored.mailed,
  state: stateOf(stored, now),
  createdAt: stored.createdAt,
  expiresAt: stored.expiresAt,
  acceptedAt: stored.acceptedAt,
  acceptedBy: stored.acceptedBy,
});

/** What audit entries hold of an invitation: never its token or link. */
const invitationSnapshot = (i: Invitation) => ({
  ...fieldsOf(i, ['id', 'orgId', 'kind', 'email', 'role', 'roles', 'mailed', 'state']),
  ...isoTimesOf(i, ['createdAt', 'expiresAt', 'acceptedAt']),
  acceptedBy: i.acceptedBy,
});

/** `invitation.created|updated|deleted`, its acceptance included (invitation-acceptance.ts). */
export const invitationAudit = auditTrail('invitation', invitationSnapshot);

export interface NewInvitation {
  kind: InvitationKind;
  email: string;
  /** Required for `member` invitations, absent for `user` ones. */
  role: Role | null;
  /** `user` invitations only: the org's end-user role ids granted on accepting. */
  roles?: readonly string[];
  sendMail: boolean;
}

/** The role ids asked for, checked before anything is stored: `user` invitations only, distinct, bounded. */
function checkRoleIds(kind: InvitationKind, roles: readonly string[]): string[] {
  if (roles.length === 0) return [];
  if (kind !== 'user')
    fail('invitation.roles.not_user', 'roles: only invitations to be a user of the organization take roles');
  if (roles.length > MAX_INVITATION_ROLES)
    fail('invitation.roles.too_many', `roles: at most ${MAX_INVITATION_ROLES}`);
  const seen = new Set<string>();
  for (const id of roles) {
    if (seen.has(id)) fail('invitation.roles.duplicate', `roles: "${id}" is listed twice`);
    seen.add(id);
  }
  return [...roles];
}

/** In `tx`: every id is a role of the org now (400 naming the first that is not). */
async function requireRoles(tx: Handle, org: Org, ids: readonly string[]): Promise<void> {
  const found = await findRoles(tx, org.id, ids);
  const unknown = ids.find((id) => !found.some((r) => r.id === id));
  if (unknown !== undefined)
    fail('invitation.roles.unknown', `roles: "${unknown}" is not a role of this organization`);
}

export interface CreatedInvitation {
  invitation: Invitation;
  /** The one-time link, when it was not mailed (shown this once); null when it was. */
  url: string | null;
}

/**
 * `member` invitations: someone who is a member already is refused (409, as the member list shows
 * them anyway). Whether the address has a console account is never part of the answer: the
 * invitation is the same either way, and the person finds out on the page.
 */
async function refuseMember(tx: Handle, org: Org, email: string): Promise<void> {
  const consoleOrg = (await findConsoleOrg(tx)) ?? fail('console.org.missing', 'the console org is missing');
  const user = await findUserByEmail(tx, consoleOrg.id, email);
  if (user && (await findMembership(tx, org.id, user.id))) {
    fail('invitation.already_member', `${emailKey(email)} is a member of the organization already`);
  }
}

/** The link the invitee follows: the org's hosted pages, or the console's for a member invitation. */
async function linkOf(deps: TeamsDeps, org: Org, kind: InvitationKind, token: string): Promise<string> {
  const host =
    kind === 'member'
      ? ((await findConsoleOrg(deps.store)) ?? fail('console.org.missing', 'the console org is missing'))
      : org;
  const url = new URL(INVITATION_PATH.slice(1), issuerOf(deps.config, host));
  url.searchParams.set('token', token);
  return url.href;
}

/**
 * POST /organizations/{org}/invitations, POST /organizations/{org}/members and
 * `tessera invitation create`: a pending invitation, audited as `invitation.created`. One pending
 * invitation per address and kind (409 conflict: withdraw it first). Mailed after the commit.
 */
export async function createInvitation(
  deps: TeamsDeps,
  org: Org,
  input: NewInvitation,
  actor: Actor,
): Promise<CreatedInvitation> {
  if (org.isConsole)
    fail('invitation.console_org', 'the console org takes no invitations: invite to an organization');
  const email = checkEmail(input.email);
  const role =
    input.kind === 'member' ? (input.role ?? fail('invitation.role.missing', 'a role is required')) : null;
  const roles = checkRoleIds(input.kind, input.roles ?? []);
  const token = newSecret(TOKEN_PREFIX);
  const invitation = await deps.unitOfWork.run(async (tx) => {
    await lockOrg(tx, org.id);
    const now = clock.now();
    if (input.kind === 'member') await refuseMember(tx, org, email);
    await requireRoles(tx, org, roles);
    if (await findPendingInvitation(tx, org.id, input.kind, emailKey(email), now)) {
      fail(
        'invitation.already_pending',
        `${emailKey(email)} has a pending invitation already: withdraw it to send another`,
      );
    }
    const stored: InvitationRecord = {
      id: newResourceId('invitation'),
      orgId: org.id,
      kind: input.kind,
      email,
      emailKey: emailKey(email),
      role,
      roles,
      tokenHash: sha256(token),
      mailed: input.sendMail,
      createdAt: now,
      expiresAt: now + INVITATION_TTL_MS,
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
    };
    await insertInvitation(tx, stored);
    const created = toInvitation(stored, now);
    await invitationAudit.created(tx, { orgId: org.id, actor, at: now }, created);
    return created;
  });
  const url = await linkOf(deps, org, input.kind, token);
  if (!input.sendMail) return { invitation, url };
  const words = await mailTexts(deps, org, null);
  await deps.mailer.send(invitationMail(words, org, email, url, INVITATION_TTL_MS / 86_400_000, role));
  return { invitation, url: null };
}

/** One page of the org's invitations (withdrawn ones left out), newest first. */
export async function listInvitations(
  deps: TeamsDeps,
  org: Org,
  query: { kind: InvitationKind | null; state: InvitationStateFilter | null; page: number; perPage: number },
): Promise<{ entries: Invitation[]; total: number }> {
  const now = clock.now();
  const { rows, total } = await pageInvitations(
    deps.store,
    org.id,
    { kind: query.kind, state: query.state, now },
    windowOf(query),
  );
  return { entries: rows.map((r) => toInvitation(r, now)), total };
}

const noSuchInvitation = () => fail('invitation.not_found', 'no such invitation');

/** The org's invitation `id`, or 404 (unknown, another org's, withdrawn, or not an `inv_` id). */
export async function requireInvitation(deps: TeamsDeps, org: Org, id: string): Promise<Invitation> {
  const row = isIdOf('invitation', id) ? await findInvitation(deps.store, org.id, id) : null;
  return row ? toInvitation(row, clock.now()) : noSuchInvitation();
}

/**
 * DELETE /organizations/{org}/invitations/{inv_id} and `tessera invitation revoke`: a pending
 * invitation's link stops working (its page says it was withdrawn); an accepted or expired one
 * leaves the list. Audited as `invitation.deleted`.
 */
export async function revokeInvitation(deps: TeamsDeps, org: Org, id: string, actor: Actor): Promise<void> {
  await runForIdOf(deps.unitOfWork, 'invitation', id, noSuchInvitation, async (tx) => {
    const now = clock.now();
    const row = await findInvitation(tx, org.id, id);
    if (!row || !(await revokeInvitationRow(tx, org.id, id, now))) return noSuchInvitation();
    await invitationAudit.deleted(tx, { orgId: org.id, actor, at: now }, toInvitation(row, now));
  });
}
