import type { Db } from '../db.js';
import type { AuthorizationRequestsTable } from '../schema.js';

export type AuthorizationRequestRow = AuthorizationRequestsTable;

export async function insertAuthorizationRequest(db: Db, row: AuthorizationRequestRow): Promise<void> {
  await db.insertInto('authorization_requests').values(row).execute();
}

/** A pending request: in this org, not expired, not completed. */
export async function findPendingAuthorizationRequest(
  db: Db,
  orgId: string,
  id: string,
  now: number,
): Promise<AuthorizationRequestRow | null> {
  const row = await db
    .selectFrom('authorization_requests')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('expires_at', '>', now)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Marks the request completed. Exactly one caller gets `true`: a consent form submitted twice
 * yields one authorization code, not two.
 */
export async function completeAuthorizationRequest(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('authorization_requests')
    .set({ completed_at: now })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function purgeAuthorizationRequests(db: Db, expiredBefore: number): Promise<void> {
  await db.deleteFrom('authorization_requests').where('expires_at', '<', expiredBefore).execute();
}
