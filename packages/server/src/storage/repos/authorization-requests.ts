import type {
  AuthorizationRequest,
  ClaimsRequest,
  Locale,
  ResourceGrant,
  ResponseMode,
} from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { AuthorizationRequestsTable } from '../schema.js';
import {
  columnMap,
  flag,
  jsonOrNull,
  lifespanColumns,
  listOrNull,
  orgRowColumns,
  textOf,
  wordsOrNull,
} from './column-map.js';
import { purgeExpired } from './expiry.js';
import { orgRowById } from './org-rows.js';
import { orgClientRowsDeleter } from './table-records.js';

/** The resource grant a request holds, as JSON; null: none decided. */
const grantColumn = jsonOrNull<ResourceGrant[]>();

const requestColumns = columnMap<AuthorizationRequestsTable, AuthorizationRequest>()({
  ...orgRowColumns,
  client_id: 'clientId',
  redirect_uri: 'redirectUri',
  redirect_uri_given: ['redirectUriGiven', flag],
  state: 'state',
  code_challenge: 'codeChallenge',
  scope: 'scope',
  resources: ['resources', listOrNull<string>()],
  resource_grant: ['grant', grantColumn],
  nonce: 'nonce',
  prompt: ['prompt', wordsOrNull<string>()],
  max_age: 'maxAge',
  login_hint: 'loginHint',
  ui_locales: ['uiLocales', wordsOrNull<Locale>()],
  response_mode: ['responseMode', textOf<ResponseMode>()],
  claims: ['claims', jsonOrNull<ClaimsRequest>()],
  dpop_jkt: 'dpopJkt',
  ...lifespanColumns,
  completed_at: 'completedAt',
});
const toAuthorizationRequest = requestColumns.toRecord;

// Every sign-in stores its request once and reads it on each page: both compiled once (the insert's
// values bound by column: the row is made by the column map at each call).
const insertRequest = compiledOnce(requestColumns.names, (db, v) =>
  db.insertInto('authorization_requests').values(v),
);
const pendingRequest = compiledOnce(['orgId', 'id', 'now'], (db, v) =>
  orgRowById(db.selectFrom('authorization_requests').select(requestColumns.names), v.orgId, v.id)
    .where('expires_at', '>', v.now)
    .where('completed_at', 'is', null),
);

export async function insertAuthorizationRequest(
  store: Handle,
  request: AuthorizationRequest,
): Promise<void> {
  await insertRequest(opened(store), requestColumns.toRow(request));
}

/** A pending request: in this org, not expired, not completed. */
export async function findPendingAuthorizationRequest(
  store: Handle,
  orgId: string,
  id: string,
  now: number,
): Promise<AuthorizationRequest | null> {
  const [row] = await pendingRequest(opened(store), { orgId, id, now });
  return row ? toAuthorizationRequest(row) : null;
}

/**
 * Stores the resource grant the consent page shows (decided once: an earlier grant is kept); false
 * when it was not stored (another showing decided first, or the request is completed).
 */
export async function recordRequestGrant(
  store: Handle,
  id: string,
  grant: readonly ResourceGrant[],
): Promise<boolean> {
  const db = opened(store);
  const result = await db
    .updateTable('authorization_requests')
    .set({ resource_grant: JSON.stringify(grant) })
    .where('id', '=', id)
    .where('resource_grant', 'is', null)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The resource grant stored with a request (completed or not); null: none decided. */
export async function findRequestGrant(store: Handle, id: string): Promise<ResourceGrant[] | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('authorization_requests')
    .select('resource_grant')
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? null : grantColumn.read(row.resource_grant);
}

/**
 * Marks the request completed. Exactly one caller gets `true`: a consent form submitted twice
 * yields one authorization code, not two.
 */
export async function completeAuthorizationRequest(store: Handle, id: string, now: number): Promise<boolean> {
  return (await completeAuthorizationRequestWithGrant(store, id, now)) !== null;
}

/**
 * completeAuthorizationRequest, returning in the same statement the resource grant the request
 * holds (null: none decided yet), which the code then carries; null when it was completed already.
 */
export async function completeAuthorizationRequestWithGrant(
  store: Handle,
  id: string,
  now: number,
): Promise<{ grant: ResourceGrant[] | null } | null> {
  const db = opened(store);
  const row = await db
    .updateTable('authorization_requests')
    .set({ completed_at: now })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .returning('resource_grant')
    .executeTakeFirst();
  if (row === undefined) return null;
  return { grant: grantColumn.read(row.resource_grant) };
}

export async function purgeAuthorizationRequests(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await purgeExpired(db.deleteFrom('authorization_requests'), expiredBefore);
}

/** Deletes the authorization requests of an org's client (part of deleting it: see deleteClientRow). */
export const deleteClientAuthorizationRequests = orgClientRowsDeleter('authorization_requests');
