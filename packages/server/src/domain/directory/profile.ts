import { newSecret, sha256 } from '../../crypto/random.js';
import { profileKeys } from '../../storage/repos/one-time-keys.js';
import { findUserById, updateUserNames } from '../../storage/repos/users.js';
import { recordUserUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { PROFILE_KEY_TTL_MS } from '../tokens-policy.js';
import type { Org, User } from '../types.js';
import type { DirectoryDeps } from './deps.js';
import { checkName } from './validate.js';

/** The User record of the spec's "Client SDK record shapes": exactly these fields. */
export const userRecord = (u: User) => ({
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  picture: u.picture,
  provider: u.provider,
});

export async function requireUser(deps: DirectoryDeps, userId: string): Promise<User> {
  return (await findUserById(deps.db, userId)) ?? fail('unauthorized', "we don't know who you are");
}

/** POST /profile/session: a single-use key that opens the hosted profile page within 5 minutes. */
export async function createProfileKey(deps: DirectoryDeps, org: Org, userId: string): Promise<string> {
  const now = clock.now();
  const key = newSecret('tpk_');
  await profileKeys.insert(deps.db, {
    keyHash: sha256(key),
    orgId: org.id,
    userId,
    createdAt: now,
    expiresAt: now + PROFILE_KEY_TTL_MS,
    usedAt: null,
  });
  await profileKeys.purge(deps.db, now);
  return key;
}

/** The user a profile key opens the page for, or null when it is unknown, used or expired. */
export async function redeemProfileKey(deps: DirectoryDeps, org: Org, key: string): Promise<string | null> {
  const opened = await profileKeys.consume(deps.db, org.id, sha256(key), clock.now());
  return opened?.userId ?? null;
}

const optionalName = (field: string, value: string) =>
  value.trim() === '' ? null : checkName(field, value, 100);

/** Edits first and last name (empty clears), audited as `user.updated` with previous and changes. */
export async function updateNames(
  deps: DirectoryDeps,
  userId: string,
  input: { firstName: string; lastName: string },
): Promise<User> {
  const names = {
    firstName: optionalName('first name', input.firstName),
    lastName: optionalName('last name', input.lastName),
  };
  return deps.db.transaction().execute(async (trx) => {
    const before = (await findUserById(trx, userId)) ?? fail('not_found', 'no such user');
    if (before.firstName === names.firstName && before.lastName === names.lastName) return before;
    const now = clock.now();
    await updateUserNames(trx, userId, names, now);
    const after: User = { ...before, ...names, updatedAt: now };
    await recordUserUpdated(trx, before, after, { kind: 'user', id: userId });
    return after;
  });
}
