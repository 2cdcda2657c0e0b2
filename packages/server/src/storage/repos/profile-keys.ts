import type { Db } from '../db.js';
import type { ProfileKeysTable } from '../schema.js';

export type ProfileKeyRow = ProfileKeysTable;

export async function insertProfileKey(db: Db, row: ProfileKeyRow): Promise<void> {
  await db.insertInto('profile_keys').values(row).execute();
}

/** Single use: exactly one caller receives a live key's row. */
export async function consumeProfileKey(
  db: Db,
  orgId: string,
  keyHash: string,
  now: number,
): Promise<ProfileKeyRow | null> {
  const row = await db
    .updateTable('profile_keys')
    .set({ used_at: now })
    .where('key_hash', '=', keyHash)
    .where('org_id', '=', orgId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function purgeProfileKeys(db: Db, expiredBefore: number): Promise<void> {
  await db.deleteFrom('profile_keys').where('expires_at', '<', expiredBefore).execute();
}
