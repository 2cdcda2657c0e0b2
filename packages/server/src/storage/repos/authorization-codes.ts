import type { Db } from '../db.js';
import type { AuthorizationCodesTable } from '../schema.js';

export type AuthorizationCodeRow = AuthorizationCodesTable;

export async function insertAuthorizationCode(db: Db, row: AuthorizationCodeRow): Promise<void> {
  await db.insertInto('authorization_codes').values(row).execute();
}

/**
 * Atomic single use: the one UPDATE that flips `used_at` from null returns the row, so of two
 * concurrent exchanges exactly one receives it (SQLite serialises writers; PostgreSQL re-checks
 * the WHERE clause after the first writer commits). Another client's code is not consumed.
 */
export async function consumeAuthorizationCode(
  db: Db,
  orgId: string,
  clientId: string,
  codeHash: string,
  now: number,
): Promise<AuthorizationCodeRow | null> {
  const row = await db
    .updateTable('authorization_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function findAuthorizationCode(
  db: Db,
  orgId: string,
  codeHash: string,
): Promise<AuthorizationCodeRow | null> {
  const row = await db
    .selectFrom('authorization_codes')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ?? null;
}

/** Codes are kept a while past expiry so a late replay is still recognised as reuse. */
export async function purgeAuthorizationCodes(db: Db, expiredBefore: number): Promise<void> {
  await db.deleteFrom('authorization_codes').where('expires_at', '<', expiredBefore).execute();
}

/** Deletes the authorization codes of an org's client (part of deleting it: see deleteClientRow). */
export async function deleteClientAuthorizationCodes(db: Db, orgId: string, clientId: string): Promise<void> {
  await db
    .deleteFrom('authorization_codes')
    .where('client_id', '=', clientId)
    .where('org_id', '=', orgId)
    .execute();
}
