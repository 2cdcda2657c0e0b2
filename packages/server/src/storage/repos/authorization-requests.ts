import type {
  AuthorizationRequest,
  ClaimsRequest,
  Locale,
  ResourceGrant,
  ResponseMode,
} from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { AuthorizationRequestsTable } from '../schema.js';
import { orgClientRows, orgRowById } from './org-rows.js';

const toAuthorizationRequest = (r: AuthorizationRequestsTable): AuthorizationRequest => ({
  id: r.id,
  orgId: r.org_id,
  clientId: r.client_id,
  redirectUri: r.redirect_uri,
  redirectUriGiven: r.redirect_uri_given === 1,
  state: r.state,
  codeChallenge: r.code_challenge,
  scope: r.scope,
  resources: r.resources === null ? [] : (JSON.parse(r.resources) as string[]),
  grant: r.resource_grant === null ? null : (JSON.parse(r.resource_grant) as ResourceGrant[]),
  nonce: r.nonce,
  prompt: r.prompt === null ? [] : r.prompt.split(' '),
  maxAge: r.max_age,
  loginHint: r.login_hint,
  uiLocales: r.ui_locales === null ? [] : (r.ui_locales.split(' ') as Locale[]),
  responseMode: r.response_mode as ResponseMode,
  claims: r.claims === null ? null : (JSON.parse(r.claims) as ClaimsRequest),
  dpopJkt: r.dpop_jkt,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  completedAt: r.completed_at,
});

export async function insertAuthorizationRequest(
  store: Handle,
  request: AuthorizationRequest,
): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('authorization_requests')
    .values({
      id: request.id,
      org_id: request.orgId,
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      redirect_uri_given: request.redirectUriGiven ? 1 : 0,
      state: request.state,
      code_challenge: request.codeChallenge,
      scope: request.scope,
      resources: request.resources.length === 0 ? null : JSON.stringify(request.resources),
      resource_grant: request.grant === null ? null : JSON.stringify(request.grant),
      nonce: request.nonce,
      prompt: request.prompt.length === 0 ? null : request.prompt.join(' '),
      max_age: request.maxAge,
      login_hint: request.loginHint,
      ui_locales: request.uiLocales.length === 0 ? null : request.uiLocales.join(' '),
      response_mode: request.responseMode,
      claims: request.claims === null ? null : JSON.stringify(request.claims),
      dpop_jkt: request.dpopJkt,
      created_at: request.createdAt,
      expires_at: request.expiresAt,
      completed_at: request.completedAt,
    })
    .execute();
}

/** A pending request: in this org, not expired, not completed. */
export async function findPendingAuthorizationRequest(
  store: Handle,
  orgId: string,
  id: string,
  now: number,
): Promise<AuthorizationRequest | null> {
  const db = opened(store);
  const row = await orgRowById(db.selectFrom('authorization_requests').selectAll(), orgId, id)
    .where('expires_at', '>', now)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
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
  return row?.resource_grant == null ? null : (JSON.parse(row.resource_grant) as ResourceGrant[]);
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
  return { grant: row.resource_grant == null ? null : (JSON.parse(row.resource_grant) as ResourceGrant[]) };
}

export async function purgeAuthorizationRequests(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('authorization_requests').where('expires_at', '<', expiredBefore).execute();
}

/** Deletes the authorization requests of an org's client (part of deleting it: see deleteClientRow). */
export async function deleteClientAuthorizationRequests(
  store: Handle,
  orgId: string,
  clientId: string,
): Promise<void> {
  const db = opened(store);
  await orgClientRows(db.deleteFrom('authorization_requests'), orgId, clientId).execute();
}
