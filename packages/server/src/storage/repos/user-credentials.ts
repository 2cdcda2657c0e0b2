import type { Db } from '../db.js';
import { emailKey } from './users.js';

/** Stores a new password hash (reset or change). */
export async function setPasswordHash(db: Db, userId: string, passwordHash: string, now: number) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** A new address, unverified until a link mailed to it is followed. */
export async function setEmail(db: Db, userId: string, email: string, now: number) {
  await db
    .updateTable('users')
    .set({ email, email_key: emailKey(email), email_verified: 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Marks the address verified, if it is still `sentTo` (case-insensitive); false when it is not. */
export async function markEmailVerified(db: Db, userId: string, sentTo: string, now: number) {
  const result = await db
    .updateTable('users')
    .set({ email_verified: 1, updated_at: now })
    .where('id', '=', userId)
    .where('email_key', '=', emailKey(sentTo))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Signs the user out of every browser but the one whose login cookie hashes to `keepId`. */
export async function deleteOtherBrowserSessions(db: Db, userId: string, keepId: string | null) {
  let query = db.deleteFrom('browser_sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('token_hash', '!=', keepId);
  await query.execute();
}
