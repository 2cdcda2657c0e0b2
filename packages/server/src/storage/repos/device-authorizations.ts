import type { DeviceAuthorization } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { DeviceAuthorizationsTable } from '../schema.js';
import { orgRowById } from './org-rows.js';

const toDeviceAuthorization = (r: DeviceAuthorizationsTable): DeviceAuthorization => ({
  id: r.id,
  orgId: r.org_id,
  clientId: r.client_id,
  userCode: r.user_code,
  scope: r.scope,
  resources: r.resources === null ? [] : (JSON.parse(r.resources) as string[]),
  status: r.status as DeviceAuthorization['status'],
  userId: r.user_id,
  sessionId: r.session_id,
  intervalS: r.interval_s,
  lastPolledAt: r.last_polled_at,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  decidedAt: r.decided_at,
  redeemedAt: r.redeemed_at,
});

export async function insertDeviceAuthorization(
  store: Handle,
  device: DeviceAuthorization,
  deviceCodeHash: string,
): Promise<void> {
  await opened(store)
    .insertInto('device_authorizations')
    .values({
      id: device.id,
      org_id: device.orgId,
      client_id: device.clientId,
      device_code_hash: deviceCodeHash,
      user_code: device.userCode,
      scope: device.scope,
      resources: device.resources.length === 0 ? null : JSON.stringify(device.resources),
      status: device.status,
      user_id: device.userId,
      session_id: device.sessionId,
      interval_s: device.intervalS,
      last_polled_at: device.lastPolledAt,
      created_at: device.createdAt,
      expires_at: device.expiresAt,
      decided_at: device.decidedAt,
      redeemed_at: device.redeemedAt,
    })
    .execute();
}

/** Whether a live (unexpired) authorization of this org has this user code, whatever its status. */
export async function userCodeInUse(store: Handle, orgId: string, userCode: string, now: number) {
  const row = await opened(store)
    .selectFrom('device_authorizations')
    .select('id')
    .where('org_id', '=', orgId)
    .where('user_code', '=', userCode)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** The pending, unexpired authorization of this org with this user code, or null. */
export async function findPendingByUserCode(
  store: Handle,
  orgId: string,
  userCode: string,
  now: number,
): Promise<DeviceAuthorization | null> {
  const row = await opened(store)
    .selectFrom('device_authorizations')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('user_code', '=', userCode)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? toDeviceAuthorization(row) : null;
}

/** The pending, unexpired authorization of this org with this id, or null. */
export async function findPendingDeviceAuthorization(
  store: Handle,
  orgId: string,
  id: string,
  now: number,
): Promise<DeviceAuthorization | null> {
  const row = await orgRowById(opened(store).selectFrom('device_authorizations').selectAll(), orgId, id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ? toDeviceAuthorization(row) : null;
}

/** The authorization of this org whose device code has this hash, whatever its state, or null. */
export async function findByDeviceCode(
  store: Handle,
  orgId: string,
  deviceCodeHash: string,
): Promise<DeviceAuthorization | null> {
  const row = await opened(store)
    .selectFrom('device_authorizations')
    .selectAll()
    .where('device_code_hash', '=', deviceCodeHash)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ? toDeviceAuthorization(row) : null;
}

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
  const result = await opened(store)
    .updateTable('device_authorizations')
    .set({
      status: decision.status,
      user_id: decision.userId,
      session_id: decision.status === 'approved' ? decision.sessionId : null,
      decided_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a poll of a pending authorization: when, and the interval from now on. */
export async function recordDevicePoll(
  store: Handle,
  id: string,
  now: number,
  intervalS: number,
): Promise<void> {
  await opened(store)
    .updateTable('device_authorizations')
    .set({ last_polled_at: now, interval_s: intervalS })
    .where('id', '=', id)
    .execute();
}

/**
 * Single use: the one UPDATE that sets `redeemed_at` on an approved authorization, so of two polls
 * at once exactly one receives the tokens. False when it was redeemed already.
 */
export async function redeemDeviceAuthorization(store: Handle, id: string, now: number): Promise<boolean> {
  const result = await opened(store)
    .updateTable('device_authorizations')
    .set({ redeemed_at: now })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .where('redeemed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Deletes the authorizations that expired before `before`. */
export async function purgeDeviceAuthorizations(store: Handle, before: number): Promise<void> {
  await opened(store).deleteFrom('device_authorizations').where('expires_at', '<', before).execute();
}
