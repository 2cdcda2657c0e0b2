import type { Kysely } from 'kysely';
import { addedColumns, addFlag } from './table-parts.js';

/** The OIDC Core §5.1 claims a user gains, each its own column (the address as its JSON object). */
const USER_TEXT_COLUMNS = [
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone_number',
  'address',
] as const;

/**
 * The standard claims (OIDC Core §5.1, issue 44): the users' columns for the claims Tessera did not
 * store (`given_name`, `family_name`, `picture` and `updated_at` are first_name, last_name, picture
 * and updated_at already), `phone_number_verified` 0 until an owner vouches for the number; the
 * `claims` request parameter (§5.5) as its normalized JSON on the authorization request and on the
 * session it opens (what userinfo and refreshed ID tokens answer); and a client's
 * `userinfo_signed_response_alg` (null: userinfo answers JSON). Every new column is null or 0 on
 * rows written before, which is what they meant.
 */
const userClaims = addedColumns({ users: Object.fromEntries(USER_TEXT_COLUMNS.map((c) => [c, 'text'])) });
const requestedClaims = addedColumns({
  authorization_requests: { claims: 'text' },
  oauth_sessions: { claims: 'text' },
  clients: { userinfo_signed_response_alg: 'text' },
});

export async function up(db: Kysely<unknown>): Promise<void> {
  await userClaims.up(db);
  await addFlag(db, 'users', 'phone_number_verified');
  await requestedClaims.up(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await requestedClaims.down(db);
  await db.schema.alterTable('users').dropColumn('phone_number_verified').execute();
  await userClaims.down(db);
}
