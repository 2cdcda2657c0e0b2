import type { BrowserSessionRecord } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { BrowserSessionsTable } from '../schema.js';

const toSession = (r: BrowserSessionsTable): BrowserSessionRecord => ({
  tokenHash: r.token_hash,
  orgId: r.org_id,
  userId: r.user_id,
  amr: JSON.parse(r.amr) as string[],
  acr: r.acr,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  actorId: r.actor_id,
});

export async function insertBrowserSession(store: Handle, s: BrowserSessionRecord): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('browser_sessions')
    .values({
      token_hash: s.tokenHash,
      org_id: s.orgId,
      user_id: s.userId,
      amr: JSON.stringify(s.amr),
      acr: s.acr,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
      actor_id: s.actorId,
    })
    .execute();
}

/** The live browser session behind a cookie's hash, within one org. */
export async function findBrowserSession(
  store: Handle,
  orgId: string,
  tokenHash: string,
  now: number,
): Promise<BrowserSessionRecord | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('browser_sessions')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('org_id', '=', orgId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? toSession(row) : null;
}

export async function purgeBrowserSessions(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('browser_sessions').where('expires_at', '<', expiredBefore).execute();
}

/** Signs the user out of every browser (their login cookies stop working). */
export async function deleteBrowserSessionsOfUser(store: Handle, userId: string): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('browser_sessions').where('user_id', '=', userId).execute();
}

/** Ends one browser sign-in (its login cookie stops working). */
export async function deleteBrowserSession(store: Handle, tokenHash: string): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('browser_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Signs the user out of every browser but the one whose login cookie hashes to `keepId`. */
export async function deleteOtherBrowserSessions(store: Handle, userId: string, keepId: string | null) {
  const db = opened(store);
  let query = db.deleteFrom('browser_sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('token_hash', '!=', keepId);
  await query.execute();
}
