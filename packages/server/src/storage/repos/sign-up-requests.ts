import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { SignUpRequestsTable } from '../schema.js';
import { columnMap, lifespanColumns } from './column-map.js';
import { purgeNotLiveAt } from './expiry.js';
import { liveOrgRowByHash } from './org-rows.js';

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
  ...lifespanColumns,
});
const toRequest = requestColumns.toRecord;

/** Stores a waiting sign-up, and drops those whose link has expired. */
export async function insertSignUpRequest(store: Handle, r: SignUpRequest): Promise<void> {
  const db = opened(store);
  await purgeNotLiveAt(db.deleteFrom('sign_up_requests'), r.createdAt);
  await db.insertInto('sign_up_requests').values(requestColumns.toRow(r)).execute();
}

/** The org's live waiting sign-up under this token hash, left in place; null when unknown or expired. */
export async function findSignUpRequest(store: Handle, orgId: string, tokenHash: string, now: number) {
  const db = opened(store);
  const row = await liveOrgRowByHash(
    db.selectFrom('sign_up_requests').selectAll(),
    'token_hash',
    tokenHash,
    orgId,
    now,
  ).executeTakeFirst();
  return row ? toRequest(row) : null;
}

/** Atomic single use: the one DELETE returns the live row to exactly one caller. */
export async function consumeSignUpRequest(store: Handle, orgId: string, tokenHash: string, now: number) {
  const db = opened(store);
  const row = await liveOrgRowByHash(db.deleteFrom('sign_up_requests'), 'token_hash', tokenHash, orgId, now)
    .returningAll()
    .executeTakeFirst();
  return row ? toRequest(row) : null;
}
