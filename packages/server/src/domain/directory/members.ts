import type { Db } from '../../storage/db.js';
import { findMembership, upsertMembership } from '../../storage/repos/memberships.js';
import { findConsoleOrg } from '../../storage/repos/orgs.js';
import { findUserByEmail } from '../../storage/repos/users.js';
import { recordAudit } from '../audit/audit.js';
import { fail } from '../errors.js';
import type { Actor, Org, Role, User } from '../types.js';
import { insertUserWithTenant, type NewUser, prepareUser } from './users.js';

export interface ConsoleUserRef {
  email: string;
  /** Required when the console user does not exist yet. */
  password: string | null;
}

/** Finds the console user with this email, or prepares to create one (hashing outside any lock). */
export async function prepareConsoleUser(db: Db, ref: ConsoleUserRef) {
  const consoleOrg = (await findConsoleOrg(db)) ?? fail('server_error', 'the console org is missing');
  const prepared = await prepareUser({ email: ref.email, password: ref.password } satisfies NewUser);
  const existing = await findUserByEmail(db, consoleOrg.id, prepared.input.email);
  if (!existing && ref.password === null) {
    fail('invalid_body', `${prepared.input.email} is not a console user yet: a password is required`);
  }
  return { consoleOrg, prepared, existing };
}

/** Makes a console user a member of `org` with `role`, creating the user first when needed. */
export async function addMember(
  trx: Db,
  org: Org,
  ready: Awaited<ReturnType<typeof prepareConsoleUser>>,
  role: Role,
  actor: Actor,
): Promise<User> {
  let user = await findUserByEmail(trx, ready.consoleOrg.id, ready.prepared.input.email);
  if (!user) user = (await insertUserWithTenant(trx, ready.consoleOrg.id, ready.prepared, actor)).user;
  const now = Date.now();
  const before = await findMembership(trx, org.id, user.id);
  await upsertMembership(trx, { orgId: org.id, userId: user.id, role, createdAt: now });
  const data = { orgId: org.id, userId: user.id, email: user.email, role };
  if (!before) {
    await recordAudit(trx, { orgId: org.id, entity: 'membership', verb: 'created', actor, at: now, data });
  } else if (before.role !== role) {
    await recordAudit(trx, {
      orgId: org.id,
      entity: 'membership',
      verb: 'updated',
      actor,
      at: now,
      data,
      previous: { ...data, role: before.role },
    });
  }
  return user;
}
