import type { Db } from '../db.js';
import type { ImpersonationsTable } from '../schema.js';

export type ImpersonationRow = ImpersonationsTable;

export async function insertImpersonation(db: Db, row: ImpersonationRow): Promise<void> {
  await db.insertInto('impersonations').values(row).execute();
}

/** Single use: exactly one caller receives a live link's row; every later caller gets null. */
export async function consumeImpersonation(
  db: Db,
  orgId: string,
  keyHash: string,
  now: number,
): Promise<ImpersonationRow | null> {
  const row = await db
    .updateTable('impersonations')
    .set({ used_at: now })
    .where('key_hash', '=', keyHash)
    .where('org_id', '=', orgId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** Links past their expiry are of no use to anyone; the audit log keeps the record. */
export async function purgeImpersonations(db: Db, expiredBefore: number): Promise<void> {
  await db.deleteFrom('impersonations').where('expires_at', '<', expiredBefore).execute();
}
