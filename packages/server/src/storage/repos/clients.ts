import type { Client, GrantType, MachineClient, PublicKeySet } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ClientsTable } from '../schema.js';
import { deleteClientAuthorizationCodes } from './authorization-codes.js';
import { deleteClientAuthorizationRequests } from './authorization-requests.js';
import { deleteClientConsents } from './consents.js';
import { tableOf } from './keyed-rows.js';
import { countedWindow, pageIds } from './list-counts.js';
import { deleteClientLogoutDeliveries } from './logout-deliveries.js';
import { deleteClientOAuthSessions } from './oauth-sessions.js';
import { oldestFirst, orgRowById } from './org-rows.js';

const toClient = (r: ClientsTable): Client => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  kind: r.kind,
  redirectUris: JSON.parse(r.redirect_uris) as string[],
  postLogoutRedirectUris: JSON.parse(r.post_logout_redirect_uris) as string[],
  grantTypes: JSON.parse(r.grant_types) as GrantType[],
  firstParty: r.first_party === 1,
  secretIssuedAt: r.secret_issued_at,
  ...(r.jwks === null ? {} : { jwks: JSON.parse(r.jwks) as PublicKeySet }),
  ...(r.jwks_uri === null ? {} : { jwksUri: r.jwks_uri }),
  ...(r.request_object_signing_alg === null ? {} : { requestObjectSigningAlg: r.request_object_signing_alg }),
  allowedOrigins: r.allowed_origins === null ? null : (JSON.parse(r.allowed_origins) as string[]),
  ...(r.userinfo_signed_response_alg === 'RS256' ? { userinfoSignedResponseAlg: 'RS256' as const } : {}),
  ...(r.backchannel_logout_uri === null
    ? {}
    : {
        backchannelLogout: {
          uri: r.backchannel_logout_uri,
          sessionRequired: r.backchannel_logout_session_required === 1,
        },
      }),
  ...(r.frontchannel_logout_uri === null
    ? {}
    : {
        frontchannelLogout: {
          uri: r.frontchannel_logout_uri,
          sessionRequired: r.frontchannel_logout_session_required === 1,
        },
      }),
  ...(r.require_pushed_authorization_requests === 1 ? { requirePushedRequests: true as const } : {}),
  ...(r.dpop_bound_access_tokens === 1 ? { dpopBoundAccessTokens: true as const } : {}),
  ...(r.dpop_nonce_required === 1 ? { dpopNonceRequired: true as const } : {}),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const clientRows = tableOf('clients');

const jwksColumn = (c: Client): string | null => (c.jwks === undefined ? null : JSON.stringify(c.jwks));
/** The 0/1 columns of the flags held only when true (domain/client-flags.ts). */
const flagColumns = (c: Client) => ({
  require_pushed_authorization_requests: c.requirePushedRequests === true ? 1 : 0,
  dpop_bound_access_tokens: c.dpopBoundAccessTokens === true ? 1 : 0,
  dpop_nonce_required: c.dpopNonceRequired === true ? 1 : 0,
});

/** The four logout columns of a client (migration 044). */
const logoutColumns = (c: Client) => ({
  backchannel_logout_uri: c.backchannelLogout?.uri ?? null,
  backchannel_logout_session_required: c.backchannelLogout?.sessionRequired === true ? 1 : 0,
  frontchannel_logout_uri: c.frontchannelLogout?.uri ?? null,
  frontchannel_logout_session_required: c.frontchannelLogout?.sessionRequired === true ? 1 : 0,
});
const originsColumn = (c: Client): string | null =>
  c.allowedOrigins === null ? null : JSON.stringify(c.allowedOrigins);

/** The columns an update may change (updateClientRow), which an insert writes too. */
const changeableColumns = (c: Client) => ({
  name: c.name,
  redirect_uris: JSON.stringify(c.redirectUris),
  post_logout_redirect_uris: JSON.stringify(c.postLogoutRedirectUris),
  grant_types: JSON.stringify(c.grantTypes),
  jwks: jwksColumn(c),
  jwks_uri: c.jwksUri ?? null,
  request_object_signing_alg: c.requestObjectSigningAlg ?? null,
  allowed_origins: originsColumn(c),
  userinfo_signed_response_alg: c.userinfoSignedResponseAlg ?? null,
  ...logoutColumns(c),
  ...flagColumns(c),
});

export async function insertClient(store: Handle, c: Client, secretHash: string | null): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('clients')
    .values({
      id: c.id,
      org_id: c.orgId,
      kind: c.kind,
      secret_hash: secretHash,
      first_party: c.firstParty ? 1 : 0,
      secret_issued_at: c.secretIssuedAt,
      ...changeableColumns(c),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
    })
    .execute();
}

/** The client and its stored secret hash, within one org. */
export async function findClientWithSecret(
  store: Handle,
  orgId: string,
  id: string,
): Promise<{ client: Client; secretHash: string | null } | null> {
  const db = opened(store);
  const row = await orgRowById(db.selectFrom('clients').selectAll(), orgId, id).executeTakeFirst();
  return row ? { client: toClient(row), secretHash: row.secret_hash } : null;
}

/** The client of this org, or null. */
export async function findClient(store: Handle, orgId: string, id: string): Promise<Client | null> {
  const db = opened(store);
  return (await findClientWithSecret(db, orgId, id))?.client ?? null;
}

/** Those of `ids` that are clients of this org, by id (one query for a page of them). */
export async function findClients(
  store: Handle,
  orgId: string,
  ids: readonly string[],
): Promise<Map<string, Client>> {
  if (ids.length === 0) return new Map();
  const rows = await clientRows.rowsWhere(store, { org_id: orgId, id: ids });
  return new Map(rows.map((r) => [r.id, toClient(r)]));
}

/**
 * One page of an org's clients, oldest first, and how many it has: the total from the org's per-day
 * counts, the page from its nearer end, starting at its hour (list-counts.ts), ids first from
 * the (org_id, created_at, id) index of migration 029.
 */
export async function pageClients(
  store: Handle,
  orgId: string,
  window: { offset: number; limit: number },
): Promise<{ entries: Client[]; total: number }> {
  const db = opened(store);
  const { total, read, seek } = await countedWindow(db, 'clients', orgId, window);
  if (read === null) return { entries: [], total };
  const page = pageIds(db.selectFrom('clients').select('id').where('org_id', '=', orgId), read, seek);
  const rows = await oldestFirst(db.selectFrom('clients').selectAll().where('id', 'in', page)).execute();
  return { entries: rows.map(toClient), total };
}

/** Stores what an update may change: name, redirect URIs of both kinds, grant types, public keys (or their URL), the request objects' algorithm, allowed origins, the DPoP settings. */
export async function updateClientRow(store: Handle, c: Client): Promise<void> {
  const db = opened(store);
  await orgRowById(
    db.updateTable('clients').set({ ...changeableColumns(c), updated_at: c.updatedAt }),
    c.orgId,
    c.id,
  ).execute();
}

/** Replaces a confidential client's secret hash: the old secret stops matching at commit. */
export async function replaceClientSecret(store: Handle, c: Client, secretHash: string): Promise<void> {
  const db = opened(store);
  await orgRowById(
    db
      .updateTable('clients')
      .set({ secret_hash: secretHash, secret_issued_at: c.secretIssuedAt, updated_at: c.updatedAt }),
    c.orgId,
    c.id,
  )
    .where('kind', '=', 'confidential')
    .execute();
}

/**
 * Deletes the org's client and returns it, or null. Its promotions go with it (foreign keys, on
 * delete cascade); its authorization requests, codes, consents and sessions (their refresh tokens
 * by cascade) are deleted here, since their `client_id` also names metadata-document clients,
 * which have no row to reference (migration 017). Run it in a transaction.
 */
export async function deleteClientRow(store: Handle, orgId: string, id: string): Promise<Client | null> {
  const db = opened(store);
  await deleteClientAuthorizationCodes(db, orgId, id);
  await deleteClientAuthorizationRequests(db, orgId, id);
  await deleteClientConsents(db, orgId, id);
  await deleteClientOAuthSessions(db, orgId, id);
  // A deleted client is told of no more sign-outs: its queued logout tokens go (its sign-ins' sids:
  // deleteClient, in the same transaction).
  await deleteClientLogoutDeliveries(db, orgId, id);
  const row = await orgRowById(db.deleteFrom('clients'), orgId, id).returningAll().executeTakeFirst();
  return row ? toClient(row) : null;
}

/**
 * The client, its secret hash and its org's active signing key id in one query: the
 * client_credentials grant needs all three, and on PostgreSQL every query is a round trip.
 */
export async function findClientWithActiveKid(
  store: Handle,
  orgId: string,
  id: string,
): Promise<MachineClient | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('clients')
    .leftJoin('signing_keys', (join) =>
      join
        .onRef('signing_keys.org_id', '=', 'clients.org_id')
        .on('signing_keys.status', '=', 'active')
        // Access tokens are RS256 whatever the org's ID tokens are signed with.
        .on('signing_keys.alg', '=', 'RS256'),
    )
    .selectAll('clients')
    .select('signing_keys.kid as active_kid')
    .where('clients.id', '=', id)
    .where('clients.org_id', '=', orgId)
    .executeTakeFirst();
  return row ? { client: toClient(row), secretHash: row.secret_hash, activeKid: row.active_kid } : null;
}

/** The redirect URIs and allowed origins of every client of an org: what a CORS preflight checks. */
export async function orgClientOrigins(
  store: Handle,
  orgId: string,
): Promise<Pick<Client, 'redirectUris' | 'allowedOrigins'>[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('clients')
    .select(['redirect_uris', 'allowed_origins'])
    .where('org_id', '=', orgId)
    .execute();
  return rows.map((r) => ({
    redirectUris: JSON.parse(r.redirect_uris) as string[],
    allowedOrigins: r.allowed_origins === null ? null : (JSON.parse(r.allowed_origins) as string[]),
  }));
}

/** The logout columns of these clients (those that exist), for the sign-ins that end (session-clients.ts). */
export async function clientLogoutColumns(store: Handle, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const db = opened(store);
  return db
    .selectFrom('clients')
    .select([
      'id',
      'backchannel_logout_uri',
      'backchannel_logout_session_required',
      'frontchannel_logout_uri',
      'frontchannel_logout_session_required',
    ])
    .where('id', 'in', ids)
    .execute();
}
