import { newSecret, sha256 } from '../../crypto/random.js';
import { profileKeys } from '../../storage/repos/one-time-keys.js';
import { findUserById, updateUser } from '../../storage/repos/users.js';
import { recordUserUpdated } from '../audit/audit.js';
import { clock } from '../clock.js';
import { fail } from '../errors.js';
import { PROFILE_KEY_TTL_MS } from '../tokens-policy.js';
import type { Org, User } from '../types.js';
import type { DirectoryDeps } from './deps.js';
import {
  applyStandardClaims,
  checkPicture,
  type StandardClaimChanges,
  sameStandardClaims,
} from './standard-claims.js';
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
  return (
    (await findUserById(deps.store, userId)) ?? fail('user.token.user_gone', "we don't know who you are")
  );
}

/** POST /profile/session: a single-use key that opens the hosted profile page within 5 minutes. */
export async function createProfileKey(deps: DirectoryDeps, org: Org, userId: string): Promise<string> {
  const now = clock.now();
  const key = newSecret('tpk_');
  await profileKeys.insert(deps.store, {
    keyHash: sha256(key),
    orgId: org.id,
    userId,
    createdAt: now,
    expiresAt: now + PROFILE_KEY_TTL_MS,
    usedAt: null,
  });
  await profileKeys.purge(deps.store, now);
  return key;
}

/** The user a profile key opens the page for, or null when it is unknown, used or expired. */
export async function redeemProfileKey(deps: DirectoryDeps, org: Org, key: string): Promise<string | null> {
  const opened = await profileKeys.consume(deps.store, org.id, sha256(key), clock.now());
  return opened?.userId ?? null;
}

const optionalName = (field: string, value: string) =>
  value.trim() === '' ? null : checkName(field, value, 100);

/** What the profile page's form sends: every field a text, empty for none. */
export interface OwnProfileInput {
  firstName: string;
  lastName: string;
  /** Absent: kept. */
  picture?: string;
  /** The other OIDC Core §5.1 claims the person may give (never `phoneNumberVerified`: that is an owner's word). */
  claims: Omit<StandardClaimChanges, 'phoneNumberVerified'>;
}

/**
 * Edits what a person may say about themselves on the profile page: names, picture and the other
 * OIDC Core §5.1 claims (standard-claims.ts's rules; empty clears). A new phone number is
 * unverified. Audited as `user.updated` with previous and changes; nothing is written when
 * nothing changes.
 */
export async function updateOwnProfile(
  deps: DirectoryDeps,
  userId: string,
  input: OwnProfileInput,
): Promise<User> {
  const firstName = optionalName('first name', input.firstName);
  const lastName = optionalName('last name', input.lastName);
  const picture = input.picture === undefined ? undefined : checkPicture(input.picture);
  const { phoneNumberVerified: _, ...claims } = input.claims as StandardClaimChanges;
  return deps.unitOfWork.run(async (tx) => {
    const before = (await findUserById(tx, userId)) ?? fail('user.not_found', 'no such user');
    // The page asks for the address in parts: a `formatted` one given through the API is kept.
    if (claims.address && !('formatted' in claims.address) && before.address?.formatted !== undefined)
      claims.address = { formatted: before.address.formatted, ...claims.address };
    const after: User = {
      ...before,
      ...applyStandardClaims(before, claims),
      firstName,
      lastName,
      picture: picture === undefined ? before.picture : picture,
    };
    const same =
      before.firstName === firstName &&
      before.lastName === lastName &&
      before.picture === after.picture &&
      sameStandardClaims(before, after);
    if (same) return before;
    after.updatedAt = clock.now();
    await updateUser(tx, after);
    await recordUserUpdated(tx, before, after, { kind: 'user', id: userId });
    return after;
  });
}
