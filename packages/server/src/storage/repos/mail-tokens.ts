import type { Db } from '../db.js';
import type { MailTokensTable } from '../schema.js';

export type MailTokenRow = MailTokensTable;
export type MailPurpose = MailTokensTable['purpose'];

export async function insertMailToken(db: Db, row: MailTokenRow): Promise<void> {
  await db.insertInto('mail_tokens').values(row).execute();
}

/** A live (unused, unexpired) link of this org and purpose by its hash, without using it. */
export async function findLiveMailToken(
  db: Db,
  orgId: string,
  purpose: MailPurpose,
  tokenHash: string,
  now: number,
): Promise<MailTokenRow | null> {
  const row = await db
    .selectFrom('mail_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('org_id', '=', orgId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Atomic single use: the one UPDATE that sets `used_at` returns the row, so exactly one caller
 * gets a live link's row; an unknown, used or expired link (or another org's or purpose's) gives null.
 */
export async function consumeMailToken(
  db: Db,
  orgId: string,
  purpose: MailPurpose,
  tokenHash: string,
  now: number,
): Promise<MailTokenRow | null> {
  const row = await db
    .updateTable('mail_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('org_id', '=', orgId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** Marks every live link of the user for `purpose` used: a newer one, or a done reset, retires them. */
export async function retireMailTokens(db: Db, userId: string, purpose: MailPurpose, now: number) {
  await db
    .updateTable('mail_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

export async function purgeMailTokens(db: Db, expiredBefore: number): Promise<void> {
  await db.deleteFrom('mail_tokens').where('expires_at', '<', expiredBefore).execute();
}
