import { hashPassword } from '../../crypto/passwords.js';
import { newId } from '../../crypto/random.js';
import type { Db } from '../../storage/db.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { insertTenant } from '../../storage/repos/tenants.js';
import { addTenantMember, findUserByEmail, insertUser } from '../../storage/repos/users.js';
import { recordAudit } from '../audit/audit.js';
import { fail } from '../errors.js';
import { tenantSnapshot, userSnapshot } from '../audit/snapshots.js';
import type { Actor, Tenant, User } from '../types.js';
import { checkEmail, checkName, checkPassword } from './validate.js';

export interface NewUser {
  email: string;
  password: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

export interface CreatedUser {
  user: User;
  tenant: Tenant;
}

/** Checks and hashes outside the transaction: argon2 is slow and must not hold a write lock. */
export async function prepareUser(input: NewUser): Promise<{ input: NewUser; passwordHash: string | null }> {
  const email = checkEmail(input.email);
  const password = input.password === null ? null : checkPassword(input.password);
  return {
    input: {
      email,
      password: null,
      firstName: input.firstName ? checkName('first name', input.firstName, 100) : null,
      lastName: input.lastName ? checkName('last name', input.lastName, 100) : null,
    },
    passwordHash: password === null ? null : await hashPassword(password),
  };
}

/** Creates a user and the personal tenant every user has (DESIGN §5), audited, in `trx`. */
export async function insertUserWithTenant(
  trx: Db,
  orgId: string,
  prepared: Awaited<ReturnType<typeof prepareUser>>,
  actor: Actor,
): Promise<CreatedUser> {
  const { input, passwordHash } = prepared;
  if (await findUserByEmail(trx, orgId, input.email))
    fail('conflict', `a user with email ${input.email} exists`);
  const now = Date.now();
  const user: User = {
    id: newId('usr'),
    orgId,
    email: input.email,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    picture: null,
    provider: 'password',
    createdAt: now,
    updatedAt: now,
  };
  const tenant: Tenant = {
    id: newId('tnt'),
    orgId,
    name: 'Personal',
    logo: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await insertUser(trx, user, passwordHash);
  } catch (error) {
    if (isUniqueViolation(error)) fail('conflict', `a user with email ${input.email} exists`);
    throw error;
  }
  await insertTenant(trx, tenant);
  await addTenantMember(trx, tenant.id, user.id, 'owner', now);
  await recordAudit(trx, {
    orgId,
    entity: 'user',
    verb: 'created',
    actor,
    at: now,
    data: userSnapshot(user),
  });
  await recordAudit(trx, {
    orgId,
    entity: 'tenant',
    verb: 'created',
    actor,
    at: now,
    data: { ...tenantSnapshot(tenant), ownerId: user.id },
  });
  return { user, tenant };
}
