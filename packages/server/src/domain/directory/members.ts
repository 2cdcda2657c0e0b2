import type { Handle } from '../../storage/handle.js';
import {
  countOwners,
  deleteMembership,
  findMembership,
  pageMembersOfOrg,
  upsertMembership,
} from '../../storage/repos/memberships.js';
import { findConsoleOrg, lockOrg } from '../../storage/repos/orgs.js';
import { findUserByEmail, findUserById } from '../../storage/repos/users.js';
import { recordAudit, recordUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { type PageAsked, windowOf } from '../paging.js';
import type { Actor, Org, Role, User } from '../types.js';
import type { DirectoryDeps } from './deps.js';
import { insertUserWithTenant, type NewUser, prepareUser } from './users.js';

export interface ConsoleUserRef {
  email: string;
  /** Required when the console user does not exist yet. */
  password: string | null;
}

/** Finds the console user with this email, or prepares to create one (hashing outside any lock). */
export async function prepareConsoleUser(db: Handle, ref: ConsoleUserRef) {
  const consoleOrg = (await findConsoleOrg(db)) ?? fail('console.org.missing', 'the console org is missing');
  const password = ref.password;
  const prepared = await prepareUser({ email: ref.email, password } satisfies NewUser);
  const existing = await findUserByEmail(db, consoleOrg.id, prepared.input.email);
  if (!existing && password === null) {
    fail(
      'member.password_required',
      `${prepared.input.email} is not a console user yet: a password is required`,
    );
  }
  return { consoleOrg, prepared, existing };
}

export type PreparedConsoleUser = Awaited<ReturnType<typeof prepareConsoleUser>>;

/** The console user `id` as prepareConsoleUser would find them; null for anyone else. */
export async function consoleUserById(db: Handle, id: string): Promise<PreparedConsoleUser | null> {
  const consoleOrg = (await findConsoleOrg(db)) ?? fail('console.org.missing', 'the console org is missing');
  const user = await findUserById(db, id);
  if (!user || user.orgId !== consoleOrg.id) return null;
  return {
    consoleOrg,
    prepared: { input: { email: user.email, password: null }, passwordHash: null },
    existing: user,
  };
}

/** What audit entries hold of a membership. */
const snapshot = (org: Org, user: Pick<User, 'id' | 'email'>, role: Role) => ({
  orgId: org.id,
  userId: user.id,
  email: user.email,
  role,
});

/** A member as the management API shows them. */
export interface Member {
  userId: string;
  email: string;
  role: Role;
}

/**
 * Makes a console user a member of `org` with `role`, creating the user first when needed.
 * An existing member gets `role` (audited as `membership.updated` when it differs).
 */
export async function addMember(
  tx: Handle,
  org: Org,
  ready: PreparedConsoleUser,
  role: Role,
  actor: Actor,
): Promise<User> {
  let user = await findUserByEmail(tx, ready.consoleOrg.id, ready.prepared.input.email);
  if (!user) user = (await insertUserWithTenant(tx, ready.consoleOrg.id, ready.prepared, actor)).user;
  const now = clock.now();
  const before = await findMembership(tx, org.id, user.id);
  await upsertMembership(tx, { orgId: org.id, userId: user.id, role, createdAt: now });
  const data = snapshot(org, user, role);
  if (!before) {
    await recordAudit(tx, { orgId: org.id, entity: 'membership', verb: 'created', actor, at: now, data });
  } else if (before.role !== role) {
    const snapshots = { before: { ...data, role: before.role }, after: data };
    await recordUpdated(tx, { orgId: org.id, actor, at: now }, 'membership', snapshots);
  }
  return user;
}

/**
 * `tessera member add`, the operator's path on the host: makes the console user `ref` names
 * (created when new) a member of `org` at once; someone who is one already gets `role` (the
 * operator may also leave an org without owners and give it one again). Everyone else invites
 * (invitations.ts): the management API adds nobody without their acceptance.
 */
export async function addOrgMember(
  deps: DirectoryDeps,
  org: Org,
  ref: ConsoleUserRef,
  role: Role,
  actor: Actor,
): Promise<Member> {
  const ready = await prepareConsoleUser(deps.store, ref);
  const user = await deps.unitOfWork.run(async (tx) => {
    await lockOrg(tx, org.id);
    return addMember(tx, org, ready, role, actor);
  });
  return { userId: user.id, email: user.email, role };
}

/** One page of the org's members, by email, and how many there are. */
export async function listMembers(
  deps: DirectoryDeps,
  org: Org,
  page: PageAsked,
): Promise<{ entries: Member[]; total: number }> {
  const { rows, total } = await pageMembersOfOrg(deps.store, org.id, windowOf(page));
  return { entries: rows, total };
}

/** The member `userId` of `org` with their console user, read in `tx` after the org is locked. */
async function lockedMember(tx: Handle, org: Org, userId: string) {
  await lockOrg(tx, org.id);
  const membership = await findMembership(tx, org.id, userId);
  const user = membership ? await findUserById(tx, userId) : null;
  if (!membership || !user) return fail('member.not_found', 'no such member');
  return { membership, user };
}

const LAST_OWNER = 'the last owner of the organization';

/**
 * PATCH /organizations/{org}/members/{usr_id}: gives a member another role, audited as
 * `membership.updated`. The org's last owner cannot become a member (409 conflict).
 */
export async function changeMemberRole(
  deps: DirectoryDeps,
  org: Org,
  userId: string,
  role: Role,
  actor: Actor,
): Promise<Member> {
  return deps.unitOfWork.run(async (tx) => {
    const { membership, user } = await lockedMember(tx, org, userId);
    const data = snapshot(org, user, role);
    if (membership.role === role) return { userId: user.id, email: user.email, role };
    if (membership.role === 'owner' && (await countOwners(tx, org.id)) === 1) {
      fail('member.last_owner.demote', `${LAST_OWNER} cannot be demoted: make another member an owner first`);
    }
    await upsertMembership(tx, { ...membership, role });
    const snapshots = { before: { ...data, role: membership.role }, after: data };
    await recordUpdated(tx, { orgId: org.id, actor }, 'membership', snapshots);
    return { userId: user.id, email: user.email, role };
  });
}

/**
 * DELETE /organizations/{org}/members/{usr_id}: ends a membership (the console user stays),
 * audited as `membership.deleted`. The org's last owner cannot be removed (409 conflict).
 */
export async function removeMember(
  deps: DirectoryDeps,
  org: Org,
  userId: string,
  actor: Actor,
): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    const { membership, user } = await lockedMember(tx, org, userId);
    if (membership.role === 'owner' && (await countOwners(tx, org.id)) === 1) {
      fail('member.last_owner.remove', `${LAST_OWNER} cannot be removed: make another member an owner first`);
    }
    await deleteMembership(tx, org.id, userId);
    await recordAudit(tx, {
      orgId: org.id,
      entity: 'membership',
      verb: 'deleted',
      actor,
      data: snapshot(org, user, membership.role),
    });
  });
}
