import { hashPassword } from '../../crypto/passwords.js';
import { isUniqueViolation } from '../../storage/errors.js';
import type { Handle } from '../../storage/handle.js';
import { addTenantMember, tenantsOnlyOf } from '../../storage/repos/tenant-members.js';
import { deleteTenant, insertTenant } from '../../storage/repos/tenants.js';
import {
  deleteUser as deleteUserRow,
  findUserByEmail,
  findUserById,
  insertUser,
  listOrgUsers,
  updateUser as updateUserRow,
} from '../../storage/repos/users.js';
import { recordAudit, recordUserUpdated } from '../audit/audit.js';
import { tenantSnapshot, userSnapshot } from '../audit/snapshots.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { isIdOf, newResourceId } from '../identifiers.js';
import { windowOf } from '../paging.js';
import { endUserSessions } from '../sessions/sessions.js';
import {
  type Actor,
  NO_STANDARD_CLAIMS,
  type Org,
  type StandardClaims,
  type Tenant,
  type User,
} from '../types.js';
import type { DirectoryDeps } from './deps.js';
import {
  applyStandardClaims,
  checkClaimUrl,
  checkPicture,
  type StandardClaimChanges,
  sameStandardClaims,
} from './standard-claims.js';
import { tenantAudit } from './tenants.js';
import { checkEmail, checkName, checkPassword } from './validate.js';

export interface NewUser {
  email: string;
  password: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** How the user came to be: `password` (the default), or a connection's type (`oidc`, `saml`). */
  provider?: string;
  /** An upstream vouched for the address (a federated user, DESIGN §17); default false. */
  emailVerified?: boolean;
  /**
   * Who vouched for the address (account-linking.ts): `owner` (the CLI, the API; the default),
   * `sign_up` (self-service), `invitation`, or the connection that made the user on first sign-in.
   */
  origin?: 'owner' | 'sign_up' | 'invitation' | { connectionId: string };
  /** http(s) URL of a picture of the person (OIDC `picture`). */
  picture?: string | null;
  /** The other OIDC Core §5.1 claims (standard-claims.ts checks them); none when not given. */
  claims?: StandardClaimChanges;
}

/** NewUser once checked: the standard claims as they will be stored. */
export interface CheckedNewUser extends Omit<NewUser, 'claims'> {
  /** None when not given. */
  standard?: StandardClaims;
}

export interface CreatedUser {
  user: User;
  tenant: Tenant;
}

/** Checks and hashes outside the transaction: argon2 is slow and must not hold a write lock. */
export async function prepareUser(
  input: NewUser,
): Promise<{ input: CheckedNewUser; passwordHash: string | null }> {
  const email = checkEmail(input.email);
  const password = input.password === null ? null : checkPassword(input.password);
  return {
    input: {
      email,
      password: null,
      firstName: input.firstName ? checkName('first name', input.firstName, 100) : null,
      lastName: input.lastName ? checkName('last name', input.lastName, 100) : null,
      picture: input.picture ? checkClaimUrl('picture', input.picture) : null,
      standard: applyStandardClaims(NO_STANDARD_CLAIMS, input.claims ?? {}),
      ...(input.provider === undefined ? {} : { provider: input.provider }),
      ...(input.emailVerified === undefined ? {} : { emailVerified: input.emailVerified }),
    },
    passwordHash: password === null ? null : await hashPassword(password),
  };
}

/** Creates a user and the personal tenant every user has, audited, in `tx`. */
export async function insertUserWithTenant(
  tx: Handle,
  orgId: string,
  prepared: Awaited<ReturnType<typeof prepareUser>>,
  actor: Actor,
  /** Added to the `user.created` entry's data (a SCIM directory's id). */
  note: Record<string, unknown> = {},
): Promise<CreatedUser> {
  const { input, passwordHash } = prepared;
  if (await findUserByEmail(tx, orgId, input.email))
    fail('user.email.taken', `a user with email ${input.email} exists`);
  const now = clock.now();
  const user: User = {
    ...(input.standard ?? NO_STANDARD_CLAIMS),
    id: newResourceId('user'),
    orgId,
    email: input.email,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    picture: input.picture ?? null,
    provider: input.provider ?? 'password',
    disabled: false,
    emailVerified: input.emailVerified ?? false,
    createdAt: now,
    updatedAt: now,
  };
  const tenant: Tenant = {
    id: newResourceId('tenant'),
    orgId,
    name: 'Personal',
    logo: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    const origin = input.origin ?? 'owner';
    await insertUser(
      tx,
      user,
      passwordHash,
      typeof origin === 'string'
        ? { origin, connectionId: null }
        : { origin: 'connection', connectionId: origin.connectionId },
    );
  } catch (error) {
    if (isUniqueViolation(error)) fail('user.email.taken', `a user with email ${input.email} exists`);
    throw error;
  }
  await insertTenant(tx, tenant);
  await addTenantMember(tx, tenant.id, user.id, 'owner', now);
  await recordAudit(tx, {
    orgId,
    entity: 'user',
    verb: 'created',
    actor,
    at: now,
    data: { ...userSnapshot(user), ...note },
  });
  await recordAudit(tx, {
    orgId,
    entity: 'tenant',
    verb: 'created',
    actor,
    at: now,
    data: { ...tenantSnapshot(tenant), ownerId: user.id },
  });
  return { user, tenant };
}

/**
 * `tessera user create` and POST /organizations/{org}/users: a user of `org` with their personal
 * tenant. The password (optional: without one the user cannot sign in with a password) follows the
 * sign-up rules; an email the org already has is a conflict.
 */
export async function createUser(
  deps: DirectoryDeps,
  org: Org,
  input: NewUser,
  actor: Actor,
): Promise<CreatedUser> {
  const prepared = await prepareUser(input);
  return deps.unitOfWork.run((tx) => insertUserWithTenant(tx, org.id, prepared, actor));
}

/**
 * One page of the org's users, oldest first; `q` keeps those whose email or names contain it (any
 * case). `total` is exact, or (`exact` false, a search matching more than its counted matches) a
 * lower bound.
 */
export async function listUsers(
  deps: DirectoryDeps,
  org: Org,
  query: { q: string | null; page: number; perPage: number },
): Promise<{ entries: User[]; total: number; exact: boolean }> {
  const { users, total, exact } = await listOrgUsers(deps.store, org.id, {
    q: query.q === null || query.q === '' ? null : query.q,
    ...windowOf(query),
  });
  return { entries: users, total, exact };
}

/** The user `id` of `org`; any other id, another org's user included, is 404. */
export async function requireOrgUser(db: Handle, org: Org, id: string): Promise<User> {
  const user = isIdOf('user', id) ? await findUserById(db, id) : null;
  if (!user || user.orgId !== org.id) return fail('user.not_found', 'no such user');
  return user;
}

export interface UserChanges {
  /** null clears the name. */
  firstName?: string | null;
  lastName?: string | null;
  /** null clears it. */
  picture?: string | null;
  disabled?: boolean;
  /** The other OIDC Core §5.1 claims (standard-claims.ts): null clears one, absent keeps it. */
  claims?: StandardClaimChanges;
}

const nameOf = (field: string, value: string | null) =>
  value === null ? null : checkName(field, value, 100);

/**
 * An owner's change to a user, audited as `user.updated` with previous and changes (nothing is
 * written when nothing changes). Disabling ends every session of the user in the same transaction.
 */
export async function updateUser(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  changes: UserChanges,
  actor: Actor,
): Promise<User> {
  return deps.unitOfWork.run(async (tx) => {
    const before = await requireOrgUser(tx, org, id);
    const after: User = {
      ...before,
      ...applyStandardClaims(before, changes.claims ?? {}),
      firstName: changes.firstName === undefined ? before.firstName : nameOf('first name', changes.firstName),
      lastName: changes.lastName === undefined ? before.lastName : nameOf('last name', changes.lastName),
      picture: changes.picture === undefined ? before.picture : checkPicture(changes.picture),
      disabled: changes.disabled ?? before.disabled,
    };
    if (
      after.firstName === before.firstName &&
      after.lastName === before.lastName &&
      after.picture === before.picture &&
      after.disabled === before.disabled &&
      sameStandardClaims(after, before)
    ) {
      return before;
    }
    const now = clock.now();
    after.updatedAt = now;
    await updateUserRow(tx, after);
    await recordUserUpdated(tx, before, after, actor);
    if (after.disabled && !before.disabled) await endUserSessions(tx, after.id, actor, now);
    return after;
  });
}

/** Ends every session of the user (DELETE …/users/{id}/sessions): each audited as `session.deleted`. */
export async function endSessionsOfUser(
  deps: DirectoryDeps,
  org: Org,
  id: string,
  actor: Actor,
): Promise<void> {
  await deps.unitOfWork.run(async (tx) => {
    const user = await requireOrgUser(tx, org, id);
    await endUserSessions(tx, user.id, actor, clock.now());
  });
}

/**
 * Deletes the user: their sessions end (`session.deleted` each), the tenants no one else belongs
 * to go with them (`tenant.deleted` each), then `user.deleted` with the user's snapshot.
 */
export async function deleteUser(deps: DirectoryDeps, org: Org, id: string, actor: Actor): Promise<void> {
  await deps.unitOfWork.run(async (tx) => removeUser(tx, org, await requireOrgUser(tx, org, id), actor));
}

/**
 * Deletes `user` of `org` in `tx` as deleteUser does; `note` is added to the `user.deleted` entry's
 * data (a SCIM directory's id).
 */
export async function removeUser(
  tx: Handle,
  org: Org,
  user: User,
  actor: Actor,
  note: Record<string, unknown> = {},
): Promise<void> {
  const now = clock.now();
  await endUserSessions(tx, user.id, actor, now);
  for (const tenant of await tenantsOnlyOf(tx, user.id)) {
    await deleteTenant(tx, tenant.id);
    await tenantAudit.deleted(tx, { orgId: org.id, actor, at: now }, tenant);
  }
  if (!(await deleteUserRow(tx, user.id))) fail('user.not_found', 'no such user');
  await recordAudit(tx, {
    orgId: org.id,
    entity: 'user',
    verb: 'deleted',
    actor,
    at: now,
    data: { ...userSnapshot(user), ...note },
  });
}
