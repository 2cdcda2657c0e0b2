import type { BrowserSessionRecord } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { BrowserSessionsTable } from '../schema.js';
import { columnMap, json, lifespanColumns } from './column-map.js';
import { purgeExpired } from './expiry.js';
import { tableOf } from './keyed-rows.js';
import { liveOrgRowByHash } from './org-rows.js';
import { insertOf } from './table-records.js';

const sessionColumns = columnMap<BrowserSessionsTable, BrowserSessionRecord>()({
  token_hash: 'tokenHash',
  org_id: 'orgId',
  user_id: 'userId',
  amr: ['amr', json<string[]>()],
  acr: 'acr',
  ...lifespanColumns,
  actor_id: 'actorId',
});
const toSession = sessionColumns.toRecord;
const sessions = tableOf('browser_sessions');

export const insertBrowserSession = insertOf('browser_sessions', sessionColumns);

/** The live browser session behind a cookie's hash, within one org. */
export async function findBrowserSession(
  store: Handle,
  orgId: string,
  tokenHash: string,
  now: number,
): Promise<BrowserSessionRecord | null> {
  const db = opened(store);
  const row = await liveOrgRowByHash(
    db.selectFrom('browser_sessions').selectAll(),
    'token_hash',
    tokenHash,
    orgId,
    now,
  ).executeTakeFirst();
  return row ? toSession(row) : null;
}

export async function purgeBrowserSessions(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await purgeExpired(db.deleteFrom('browser_sessions'), expiredBefore);
}

/** Signs the user out of every browser (their login cookies stop working). */
export async function deleteBrowserSessionsOfUser(store: Handle, userId: string): Promise<void> {
  await sessions.deleteWhere(store, { user_id: userId });
}

/** Ends one browser sign-in (its login cookie stops working). */
export async function deleteBrowserSession(store: Handle, tokenHash: string): Promise<void> {
  await sessions.deleteWhere(store, { token_hash: tokenHash });
}

/** Signs the user out of every browser but the one whose login cookie hashes to `keepId`. */
export async function deleteOtherBrowserSessions(store: Handle, userId: string, keepId: string | null) {
  const db = opened(store);
  let query = db.deleteFrom('browser_sessions').where('user_id', '=', userId);
  if (keepId !== null) query = query.where('token_hash', '!=', keepId);
  await query.execute();
}
