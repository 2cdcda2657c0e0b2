import type { Db } from '../db.js';
import type { PasskeyChallengesTable, PasskeysTable } from '../schema.js';

export type PasskeyRow = PasskeysTable;
export type PasskeyChallengeRow = PasskeyChallengesTable;
export type PasskeyPurpose = PasskeyChallengesTable['purpose'];

/** Stores a new passkey; false when the org already has this credential id. */
export async function insertPasskey(db: Db, row: PasskeyRow): Promise<boolean> {
  const result = await db
    .insertInto('passkeys')
    .values(row)
    .onConflict((oc) => oc.columns(['org_id', 'credential_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The user's passkeys, oldest first. */
export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The passkey of this org with this credential id, or null (another org's is never found). */
export async function findPasskeyByCredential(
  db: Db,
  orgId: string,
  credentialId: string,
): Promise<PasskeyRow | null> {
  const row = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Records a use: the new counter, the backup state and the time. Guarded by the counter read
 * before verification, so of two concurrent uses of one assertion only one is recorded.
 */
export async function recordPasskeyUse(
  db: Db,
  id: string,
  use: { previousCount: number; signCount: number; backedUp: boolean; at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ sign_count: use.signCount, backed_up: use.backedUp ? 1 : 0, last_used_at: use.at })
    .where('id', '=', id)
    .where('sign_count', '=', use.previousCount)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Deletes one passkey of the user; returns it, or null when the user has none by that id. */
export async function deletePasskey(db: Db, userId: string, id: string): Promise<PasskeyRow | null> {
  const row = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function insertPasskeyChallenge(db: Db, row: PasskeyChallengeRow): Promise<void> {
  await db.insertInto('passkey_challenges').values(row).execute();
}

/**
 * Atomic single use: the one DELETE returns the row to exactly one caller, and only for a live
 * challenge of this org, purpose and browser; anything else gives null.
 */
export async function consumePasskeyChallenge(
  db: Db,
  where: { challengeHash: string; orgId: string; purpose: PasskeyPurpose; browserHash: string; now: number },
): Promise<PasskeyChallengeRow | null> {
  const row = await db
    .deleteFrom('passkey_challenges')
    .where('challenge_hash', '=', where.challengeHash)
    .where('org_id', '=', where.orgId)
    .where('purpose', '=', where.purpose)
    .where('browser_hash', '=', where.browserHash)
    .where('expires_at', '>', where.now)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function purgePasskeyChallenges(db: Db, now: number): Promise<void> {
  await db.deleteFrom('passkey_challenges').where('expires_at', '<=', now).execute();
}
