import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { SignUpRequestsTable } from '../schema.js';
import { columnMap } from './column-map.js';

/** A `domains`-policy sign-up waiting for its mailed link (migration 036). */
export interface SignUpRequest {
  tokenHash: string;
  orgId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  createdAt: number;
  expiresAt: number;
}

const requestColumns = columnMap<SignUpRequestsTable, SignUpRequest>()({
  token_hash: 'tokenHash',
  org_id: 'orgId',
  email: 'email',
  first_name: 'firstName',
  last_name: 'lastName',
  created_at: 'createdAt',
  expires_at: 'expiresAt',
});
const toRequest = requestColumns.toRecord;

/** Stores a waiting sign-up, and drops those whose link has expired. */
export async function insertSignUpRequest(store: Handle, r: SignUpRequest): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('sign_up_requests').where('expires_at', '<=', r.createdAt).execute();
  await db.insertInto('sign_up_requests').values(requestColumns.toRow(r)).execute();
}

/** The org's live waiting sign-up under this token hash, left in place; null when unknown or expired. */
export async function findSignUpRequest(store: Handle, orgId: string, tokenHash: string, now: number) {
  const db = opened(store);
  const row = await db
    .selectFrom('sign_up_requests')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('org_id', '=', orgId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? toRequest(row) : null;
}

/** Atomic single use: the one DELETE returns the live row to exactly one caller. */
export async function consumeSignUpRequest(store: Handle, orgId: string, tokenHash: string, now: number) {
  const db = opened(store);
  const row = await db
    .deleteFrom('sign_up_requests')
    .where('token_hash', '=', tokenHash)
    .where('org_id', '=', orgId)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
  return row ? toRequest(row) : null;
}
