import type { TotpFactor } from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { TotpFactorsTable } from '../schema.js';
import { columnMap } from './column-map.js';
import { insertedAnew } from './inserted-anew.js';
import { tableOf } from './keyed-rows.js';

const factorColumns = columnMap<TotpFactorsTable, TotpFactor>()({
  user_id: 'userId',
  org_id: 'orgId',
  secret: 'sealedSecret',
  confirmed_at: 'confirmedAt',
  last_step: 'lastStep',
  created_at: 'createdAt',
});
const toFactor = factorColumns.toRecord;
const factors = tableOf('totp_factors');
const recoveryCodes = tableOf('recovery_codes');
const policies = tableOf('org_sign_in_policies');

// Read by every password sign-in (is a second factor due?): compiled once.
const factorOf = compiledOnce(['userId'], (db, v) =>
  db.selectFrom('totp_factors').select(factorColumns.names).where('user_id', '=', v.userId),
);

export async function findTotpFactor(store: Handle, userId: string): Promise<TotpFactor | null> {
  const [row] = await factorOf(opened(store), { userId });
  return row ? toFactor(row) : null;
}

/** Starts (or restarts) an enrolment: an unconfirmed factor replaces an unconfirmed one only. */
export async function putPendingTotpFactor(store: Handle, f: TotpFactor): Promise<boolean> {
  const db = opened(store);
  await factors.deleteWhere(db, { user_id: f.userId, confirmed_at: null });
  return insertedAnew(
    db
      .insertInto('totp_factors')
      .values(factorColumns.toRow(f))
      .onConflict((oc) => oc.column('user_id').doNothing()),
  );
}

/**
 * Records that a code of `step` was accepted — only when no code of that step or a later one
 * was (one atomic UPDATE, so two concurrent uses of a code cannot both win). Confirms the
 * factor on its first code.
 */
export async function acceptTotpStep(
  store: Handle,
  userId: string,
  step: number,
  now: number,
): Promise<boolean> {
  const db = opened(store);
  const result = await db
    .updateTable('totp_factors')
    .set((eb) => ({
      last_step: step,
      confirmed_at: eb.fn.coalesce('confirmed_at', eb.val(now)),
    }))
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function deleteTotpFactor(store: Handle, userId: string): Promise<void> {
  await factors.deleteWhere(store, { user_id: userId });
  await recoveryCodes.deleteWhere(store, { user_id: userId });
}

export async function replaceRecoveryCodes(store: Handle, userId: string, hashes: string[], now: number) {
  await recoveryCodes.replaceWhere(
    store,
    { user_id: userId },
    hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now, used_at: null })),
  );
}

/** Single use: true for exactly one caller presenting an unused code. */
export async function consumeRecoveryCode(
  store: Handle,
  userId: string,
  hash: string,
  now: number,
): Promise<boolean> {
  const used = await recoveryCodes.updateWhere(
    store,
    { used_at: now },
    { user_id: userId, code_hash: hash, used_at: null },
  );
  return used === 1;
}

export async function countUnusedRecoveryCodes(store: Handle, userId: string): Promise<number> {
  return recoveryCodes.countWhere(store, { user_id: userId, used_at: null });
}

/** The org's policy (its own table: the Org record does not carry it); no row means optional. */
export async function findRequireMfa(store: Handle, orgId: string): Promise<boolean> {
  return (await policies.valueWhere(store, 'require_mfa', { org_id: orgId })) === 1;
}

export async function setRequireMfa(
  store: Handle,
  orgId: string,
  value: boolean,
  now: number,
): Promise<void> {
  const db = opened(store);
  const require_mfa = value ? 1 : 0;
  await db
    .insertInto('org_sign_in_policies')
    .values({ org_id: orgId, require_mfa, updated_at: now })
    .onConflict((oc) => oc.column('org_id').doUpdateSet({ require_mfa, updated_at: now }))
    .execute();
}
