import type { Handle } from '../handle.js';
import { opened } from '../opened.js';

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

const toRequest = (r: {
  token_hash: string;
  org_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  created_at: number | string;
  expires_at: number | string;
}): SignUpRequest => ({
  tokenHash: r.token_hash,
  orgId: r.org_id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
});

/** Stores a waiting sign-up, and drops those whose link has expired. */
export async function insertSignUpRequest(store: Handle, r: SignUpRequest): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('sign_up_requests').where('expires_at', '<=', r.createdAt).execute();
  await db
    .insertInto('sign_up_requests')
    .values({
      token_hash: r.tokenHash,
      org_id: r.orgId,
      email: r.email,
      first_name: r.firstName,
      last_name: r.lastName,
      created_at: r.createdAt,
      expires_at: r.expiresAt,
    })
    .execute();
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
