import type { PasskeyChallenge, PasskeyCredential, PasskeyPurpose } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { PasskeyChallengesTable, PasskeysTable } from '../schema.js';
import { columnMap, flag, json, lifespanColumns, orgRowColumns } from './column-map.js';
import { purgeNotLiveAt } from './expiry.js';
import { insertedAnew } from './inserted-anew.js';
import { recordsOf } from './keyed-rows.js';
import { liveOrgRowByHash } from './org-rows.js';
import { insertOf } from './table-records.js';

const passkeyColumns = columnMap<PasskeysTable, PasskeyCredential>()({
  ...orgRowColumns,
  user_id: 'userId',
  credential_id: 'credentialId',
  public_key: 'publicKey',
  sign_count: 'signCount',
  transports: ['transports', json<string[]>()],
  aaguid: 'aaguid',
  device_type: 'deviceType',
  backed_up: ['backedUp', flag],
  name: 'name',
  created_at: 'createdAt',
  last_used_at: 'lastUsedAt',
});
const toPasskey = passkeyColumns.toRecord;
const passkeys = recordsOf('passkeys', toPasskey);

const challengeColumns = columnMap<PasskeyChallengesTable, PasskeyChallenge>()({
  challenge_hash: 'challengeHash',
  org_id: 'orgId',
  purpose: 'purpose',
  user_id: 'userId',
  browser_hash: 'browserHash',
  ...lifespanColumns,
});
const toChallenge = challengeColumns.toRecord;

/** Stores a new passkey; false when the org already has this credential id. */
export async function insertPasskey(store: Handle, p: PasskeyCredential): Promise<boolean> {
  const db = opened(store);
  return insertedAnew(
    db
      .insertInto('passkeys')
      .values(passkeyColumns.toRow(p))
      .onConflict((oc) => oc.columns(['org_id', 'credential_id']).doNothing()),
  );
}

/** The user's passkeys, oldest first. */
export const listPasskeys = (store: Handle, userId: string): Promise<PasskeyCredential[]> =>
  passkeys.recordsOldestFirst(store, { user_id: userId });

/** The passkey of this org with this credential id, or null (another org's is never found). */
export const findPasskeyByCredential = (
  store: Handle,
  orgId: string,
  credentialId: string,
): Promise<PasskeyCredential | null> =>
  passkeys.recordWhere(store, { org_id: orgId, credential_id: credentialId });

/**
 * Records a use: the new counter, the backup state and the time. Guarded by the counter read
 * before verification, so of two concurrent uses of one assertion only one is recorded.
 */
export async function recordPasskeyUse(
  store: Handle,
  id: string,
  use: { previousCount: number; signCount: number; backedUp: boolean; at: number },
): Promise<boolean> {
  const changed = await passkeys.updateWhere(
    store,
    { sign_count: use.signCount, backed_up: use.backedUp ? 1 : 0, last_used_at: use.at },
    { id, sign_count: use.previousCount },
  );
  return changed === 1;
}

/** Deletes every passkey of the user; returns them (for the audit). */
export const deleteUserPasskeys = (store: Handle, userId: string): Promise<PasskeyCredential[]> =>
  passkeys.deletedRecordsWhere(store, { user_id: userId });

/** Deletes one passkey of the user; returns it, or null when the user has none by that id. */
export const deletePasskey = (store: Handle, userId: string, id: string): Promise<PasskeyCredential | null> =>
  passkeys.deletedRecordWhere(store, { id, user_id: userId });

export const insertPasskeyChallenge = insertOf('passkey_challenges', challengeColumns);

/**
 * Atomic single use: the one DELETE returns the row to exactly one caller, and only for a live
 * challenge of this org, purpose and browser; anything else gives null.
 */
export async function consumePasskeyChallenge(
  store: Handle,
  where: { challengeHash: string; orgId: string; purpose: PasskeyPurpose; browserHash: string; now: number },
): Promise<PasskeyChallenge | null> {
  const db = opened(store);
  const row = await liveOrgRowByHash(
    db.deleteFrom('passkey_challenges'),
    'challenge_hash',
    where.challengeHash,
    where.orgId,
    where.now,
  )
    .where('purpose', '=', where.purpose)
    .where('browser_hash', '=', where.browserHash)
    .returningAll()
    .executeTakeFirst();
  return row ? toChallenge(row) : null;
}

export async function purgePasskeyChallenges(store: Handle, now: number): Promise<void> {
  const db = opened(store);
  await purgeNotLiveAt(db.deleteFrom('passkey_challenges'), now);
}
