import type { DeviceAuthorization } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { DeviceAuthorizationsTable } from '../schema.js';
import { columnMap, lifespanColumns, listOrNull, orgRowColumns, textOf } from './column-map.js';
import { purgeExpired } from './expiry.js';
import { after, recordsOf } from './keyed-rows.js';

/** Every column but the device code's hash, which only finds the row (findByDeviceCode). */
const deviceColumns = columnMap<Omit<DeviceAuthorizationsTable, 'device_code_hash'>, DeviceAuthorization>()({
  ...orgRowColumns,
  client_id: 'clientId',
  user_code: 'userCode',
  scope: 'scope',
  resources: ['resources', listOrNull<string>()],
  status: ['status', textOf<DeviceAuthorization['status']>()],
  user_id: 'userId',
  session_id: 'sessionId',
  interval_s: 'intervalS',
  last_polled_at: 'lastPolledAt',
  ...lifespanColumns,
  decided_at: 'decidedAt',
  redeemed_at: 'redeemedAt',
});
const toDeviceAuthorization = deviceColumns.toRecord;
const authorizations = recordsOf('device_authorizations', toDeviceAuthorization);

export async function insertDeviceAuthorization(
  store: Handle,
  device: DeviceAuthorization,
  deviceCodeHash: string,
): Promise<void> {
  await opened(store)
    .insertInto('device_authorizations')
    .values({ ...deviceColumns.toRow(device), device_code_hash: deviceCodeHash })
    .execute();
}

/** Whether a live (unexpired) authorization of this org has this user code, whatever its status. */
export async function userCodeInUse(store: Handle, orgId: string, userCode: string, now: number) {
  const live = await authorizations.valueWhere(store, 'id', {
    org_id: orgId,
    user_code: userCode,
    expires_at: after(now),
  });
  return live !== undefined;
}

/** The pending, unexpired authorization of this org with this user code, or null. */
export const findPendingByUserCode = (
  store: Handle,
  orgId: string,
  userCode: string,
  now: number,
): Promise<DeviceAuthorization | null> =>
  authorizations.recordWhere(store, {
    org_id: orgId,
    user_code: userCode,
    status: 'pending',
    expires_at: after(now),
  });

/** The pending, unexpired authorization of this org with this id, or null. */
export const findPendingDeviceAuthorization = (
  store: Handle,
  orgId: string,
  id: string,
  now: number,
): Promise<DeviceAuthorization | null> =>
  authorizations.recordWhere(store, {
    id,
    org_id: orgId,
    status: 'pending',
    expires_at: after(now),
  });

/** The authorization of this org whose device code has this hash, whatever its state, or null. */
export const findByDeviceCode = (
  store: Handle,
  orgId: string,
  deviceCodeHash: string,
): Promise<DeviceAuthorization | null> =>
  authorizations.recordWhere(store, { device_code_hash: deviceCodeHash, org_id: orgId });

/**
 * Decides a pending, unexpired authorization (`approved` with its user and session, or `denied`):
 * the one UPDATE that moves it out of `pending`, so of two decisions at once exactly one counts.
 * False when it was no longer pending (decided already, or expired).
 */
export async function decideDeviceAuthorization(
  store: Handle,
  id: string,
  decision: { status: 'approved'; userId: string; sessionId: string } | { status: 'denied'; userId: string },
  now: number,
): Promise<boolean> {
  const changed = await authorizations.updateWhere(
    store,
    {
      status: decision.status,
      user_id: decision.userId,
      session_id: decision.status === 'approved' ? decision.sessionId : null,
      decided_at: now,
    },
    { id, status: 'pending', expires_at: after(now) },
  );
  return changed === 1;
}

/** Records a poll of a pending authorization: when, and the interval from now on. */
export async function recordDevicePoll(
  store: Handle,
  id: string,
  now: number,
  intervalS: number,
): Promise<void> {
  await authorizations.updateWhere(store, { last_polled_at: now, interval_s: intervalS }, { id });
}

/**
 * Single use: the one UPDATE that sets `redeemed_at` on an approved authorization, so of two polls
 * at once exactly one receives the tokens. False when it was redeemed already.
 */
export async function redeemDeviceAuthorization(store: Handle, id: string, now: number): Promise<boolean> {
  const changed = await authorizations.updateWhere(
    store,
    { redeemed_at: now },
    { id, status: 'approved', redeemed_at: null },
  );
  return changed === 1;
}

/** Deletes the authorizations that expired before `before`. */
export async function purgeDeviceAuthorizations(store: Handle, before: number): Promise<void> {
  await purgeExpired(opened(store).deleteFrom('device_authorizations'), before);
}
