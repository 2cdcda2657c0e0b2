import type { PostalAddress, User } from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Db } from '../db.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { UsersTable } from '../schema.js';
import { columnMap, flag, jsonOrNull, orgRowColumns, timestampColumns } from './column-map.js';
import { type Conditions, recordsOf } from './keyed-rows.js';
import { countedWindow, pageIds } from './list-counts.js';
import type { ListWindow } from './list-window.js';
import { oldestFirst } from './org-rows.js';
import { searchPage } from './user-search.js';

export { containing } from './user-search.js';

/** The columns a user is made of (what a join beside another table selects). */
export type UserColumns = Omit<UsersTable, 'email_key' | 'password_hash' | 'origin' | 'origin_connection'>;

/** Who vouched for a user's address when they were made (migration 036); null before it. */
export interface UserOrigin {
  origin: UsersTable['origin'];
  /** The connection that made them on first sign-in (origin `connection`). */
  connectionId: string | null;
}

/** A user's columns, then the OIDC Core §5.1 ones of migration 037 (the user's StandardClaims). */
const userColumns = columnMap<UserColumns, User>()({
  ...orgRowColumns,
  email: 'email',
  first_name: 'firstName',
  last_name: 'lastName',
  picture: 'picture',
  provider: 'provider',
  disabled: ['disabled', flag],
  email_verified: ['emailVerified', flag],
  ...timestampColumns,
  middle_name: 'middleName',
  nickname: 'nickname',
  preferred_username: 'preferredUsername',
  profile: 'profile',
  website: 'website',
  gender: 'gender',
  birthdate: 'birthdate',
  zoneinfo: 'zoneinfo',
  locale: 'locale',
  phone_number: 'phoneNumber',
  phone_number_verified: ['phoneNumberVerified', flag],
  address: ['address', jsonOrNull<PostalAddress>()],
});

/**
 * The user columns a join selects, each as `u_<column>` (oauth-sessions.ts's refresh read): every
 * one of them, in the order declared.
 */
export const USER_COLUMNS = userColumns.names;

export const toUser = userColumns.toRecord;
const userRows = recordsOf('users', toUser);

/** Emails are unique per org regardless of case. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

export async function insertUser(
  store: Handle,
  user: User,
  passwordHash: string | null,
  origin: UserOrigin = { origin: 'owner', connectionId: null },
): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('users')
    .values({
      ...userColumns.toRow(user),
      email_key: emailKey(user.email),
      password_hash: passwordHash,
      origin: origin.origin,
      origin_connection: origin.connectionId,
    })
    .execute();
}

/** Who vouched for the user's address when they were made; null when there is no such user. */
export async function findUserOrigin(store: Handle, userId: string): Promise<UserOrigin | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('users')
    .select(['origin', 'origin_connection'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ? { origin: row.origin, connectionId: row.origin_connection } : null;
}

/** Removes the user's password (the account then signs in by other means only); false when it had none. */
export async function clearPassword(store: Handle, userId: string, now: number): Promise<boolean> {
  const db = opened(store);
  const had = await db
    .updateTable('users')
    .set({ password_hash: null, updated_at: now })
    .where('id', '=', userId)
    .where('password_hash', 'is not', null)
    .executeTakeFirst();
  return Number(had.numUpdatedRows) > 0;
}

// Every password sign-in reads its user by address: compiled once (a prepared statement on PostgreSQL).
const userByEmail = compiledOnce(['orgId', 'emailKey'], (db, v) =>
  db
    .selectFrom('users')
    .select([...USER_COLUMNS, 'password_hash'])
    .where('org_id', '=', v.orgId)
    .where('email_key', '=', v.emailKey),
);

async function userRowByEmail(db: Db, orgId: string, email: string) {
  const [row] = await userByEmail(db, { orgId, emailKey: emailKey(email) });
  return row;
}

export async function findUserByEmail(store: Handle, orgId: string, email: string): Promise<User | null> {
  const db = opened(store);
  const row = await userRowByEmail(db, orgId, email);
  return row ? toUser(row) : null;
}

/** The user of this address in the org and their password hash (null: none set), in one read. */
export async function findUserWithPasswordHash(
  store: Handle,
  orgId: string,
  email: string,
): Promise<{ user: User; passwordHash: string | null } | null> {
  const db = opened(store);
  const row = await userRowByEmail(db, orgId, email);
  return row ? { user: toUser(row), passwordHash: row.password_hash } : null;
}

export const findUserById = (store: Handle, id: string): Promise<User | null> =>
  userRows.recordWhere(store, { id });

export async function findPasswordHash(store: Handle, userId: string): Promise<string | null> {
  return (await userRows.valueWhere(store, 'password_hash', { id: userId })) ?? null;
}

/**
 * One page of an org's users, oldest first, and how many there are. Unfiltered, the page is read from
 * its nearer end (list-window.ts), its ids first from the `(org_id, created_at, id)` index (migration
 * 029) and then only those rows: skipping walks index entries, not rows; the total is the sum of the
 * org's per-day counts, and whole days and hours before the page are skipped by their counts, so the
 * index walk starts at the page's hour (list-counts.ts). A search (`q`) finds its page and a total,
 * exact up to COUNTED_MATCHES and a lower bound past it (`exact` false), as user-search.ts says.
 */
export async function listOrgUsers(
  store: Handle,
  orgId: string,
  filter: { q: string | null; limit: number; offset: number },
): Promise<{ users: User[]; total: number; exact: boolean }> {
  const db = opened(store);
  const found =
    filter.q === null ? await listed(db, orgId, filter) : await searchPage(db, orgId, filter.q, filter);
  if (found.ids === null) return { users: [], total: found.total, exact: found.exact };
  const ids = found.ids;
  const rows = await oldestFirst(
    db
      .selectFrom('users')
      .selectAll()
      .where((eb) => (Array.isArray(ids) ? eb('id', 'in', ids) : eb('id', 'in', ids))),
  ).execute();
  // A search past its counted matches reads one row more, to tell whether another page follows.
  const users = rows.slice(0, filter.limit).map(toUser);
  const total =
    found.exact || rows.length === 0 ? found.total : Math.max(found.total, filter.offset + rows.length);
  return { users, total, exact: found.exact };
}

/** The ids of `window` of all the org's users (a query), by the kept counts. */
async function listed(db: Db, orgId: string, window: ListWindow) {
  const { total, read, seek } = await countedWindow(db, 'users', orgId, window);
  const ids =
    read === null
      ? null
      : pageIds(db.selectFrom('users').select('id').where('org_id', '=', orgId), read, seek);
  return { ids, total, exact: true };
}

/** Stores what an owner may change of a user: names, picture, the other standard claims, whether they are disabled. */
export async function updateUser(store: Handle, user: User): Promise<void> {
  // All but the key, the org, the address (setEmail), the provider, whether verified, and the creation.
  const { id, org_id, email, provider, email_verified, created_at, ...changes } = userColumns.toRow(user);
  await userRows.updateWhere(store, changes, { id });
}

/** Stores a new password hash (reset or change). */
export async function setPasswordHash(store: Handle, userId: string, passwordHash: string, now: number) {
  await userRows.updateWhere(store, { password_hash: passwordHash, updated_at: now }, { id: userId });
}

/** A new address, unverified until a link mailed to it is followed. */
export async function setEmail(store: Handle, userId: string, email: string, now: number) {
  await userRows.updateWhere(
    store,
    { email, email_key: emailKey(email), email_verified: 0, updated_at: now },
    { id: userId },
  );
}

/** Sets the address as a directory vouches for it (SCIM): verified. */
export async function setVouchedEmail(store: Handle, userId: string, email: string, now: number) {
  await userRows.updateWhere(
    store,
    { email, email_key: emailKey(email), email_verified: 1, updated_at: now },
    { id: userId },
  );
}

/** Marks the address verified, if it is still `sentTo` (case-insensitive); false when it is not. */
export async function markEmailVerified(store: Handle, userId: string, sentTo: string, now: number) {
  return verifyEmail(store, userId, sentTo, now, { onlyIfUnverified: false });
}

/**
 * Marks the address verified only if it was not and is still `sentTo`: false when another proof
 * got there first (of two links followed at once, one goes on).
 */
export async function claimEmailVerification(store: Handle, userId: string, sentTo: string, now: number) {
  return verifyEmail(store, userId, sentTo, now, { onlyIfUnverified: true });
}

async function verifyEmail(
  store: Handle,
  userId: string,
  sentTo: string,
  now: number,
  { onlyIfUnverified }: { onlyIfUnverified: boolean },
): Promise<boolean> {
  const stillSentTo: Conditions<UsersTable> = { id: userId, email_key: emailKey(sentTo) };
  const where: Conditions<UsersTable> = onlyIfUnverified
    ? { ...stillSentTo, email_verified: 0 }
    : stillSentTo;
  return (await userRows.updateWhere(store, { email_verified: 1, updated_at: now }, where)) > 0;
}

/** Deletes the user (their sessions, memberships and factors go with them); false when already gone. */
export async function deleteUser(store: Handle, id: string): Promise<boolean> {
  return (await userRows.deleteWhere(store, { id })) > 0;
}
