import type {
  Connection,
  ConnectionBase,
  FederationRequest,
  IdpSettings,
  OidcSettings,
} from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ConnectionsTable, FederationRequestsTable } from '../schema.js';
import { columnMap, lifespanColumns } from './column-map.js';
import { purgeNotLiveAt } from './expiry.js';
import { insertedAnew } from './inserted-anew.js';
import { after, recordsOf, tableOf } from './keyed-rows.js';
import type { ListWindow } from './list-window.js';
import { orgRowById, orgRowsOldestFirst, pageOrgRows } from './org-rows.js';
import { insertOf } from './table-records.js';

const requestColumns = columnMap<FederationRequestsTable, FederationRequest>()({
  key_hash: 'keyHash',
  connection_id: 'connectionId',
  request_id: 'requestId',
  sealed_data: 'sealedData',
  ...lifespanColumns,
});
const toRequest = requestColumns.toRecord;
const requests = recordsOf('federation_requests', toRequest);
const identities = tableOf('federated_identities');

function toConnection(row: ConnectionsTable): Connection {
  const base: ConnectionBase = {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    domains: JSON.parse(row.domains) as string[],
    jit: row.jit === 1,
    jitAnyDomain: row.jit_any_domain === 1,
    defaultRoles: JSON.parse(row.default_roles) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  const settings = JSON.parse(row.settings) as Record<string, unknown>;
  return row.type === 'oidc'
    ? { ...base, type: 'oidc', oidc: settings as unknown as OidcSettings }
    : { ...base, type: 'saml', saml: settings as unknown as IdpSettings };
}

/** The row of a connection; the OIDC client secret comes sealed (null for SAML). */
function toRow(c: Connection, sealedSecret: string | null): ConnectionsTable {
  return {
    id: c.id,
    org_id: c.orgId,
    type: c.type,
    name: c.name,
    domains: JSON.stringify(c.domains),
    jit: c.jit ? 1 : 0,
    jit_any_domain: c.jitAnyDomain ? 1 : 0,
    default_roles: JSON.stringify(c.defaultRoles),
    settings: JSON.stringify(c.type === 'oidc' ? c.oidc : c.saml),
    sealed_secret: sealedSecret,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}

/** Stores a connection with its OIDC client secret, sealed by the caller (null for SAML). */
export async function insertConnection(
  store: Handle,
  c: Connection,
  sealedSecret: string | null,
): Promise<void> {
  const db = opened(store);
  await db.insertInto('connections').values(toRow(c, sealedSecret)).execute();
}

/** The org's connections, oldest first. */
export async function listConnections(store: Handle, orgId: string): Promise<Connection[]> {
  const db = opened(store);
  const rows = await orgRowsOldestFirst(db.selectFrom('connections').selectAll(), orgId).execute();
  return rows.map(toConnection);
}

/** One page of the org's connections, oldest first (read from its nearer end), and how many there are. */
export async function pageConnections(
  store: Handle,
  orgId: string,
  window: ListWindow,
): Promise<{ rows: Connection[]; total: number }> {
  const db = opened(store);
  const { rows, total } = await pageOrgRows(db.selectFrom('connections').selectAll(), orgId, window);
  return { rows: rows.map(toConnection), total };
}

/** The org's connection with this id and its sealed OIDC client secret, or null (another org's is never found). */
export async function findConnectionWithSecret(
  store: Handle,
  orgId: string,
  id: string,
): Promise<{ connection: Connection; sealedSecret: string | null } | null> {
  const db = opened(store);
  const row = await orgRowById(db.selectFrom('connections').selectAll(), orgId, id).executeTakeFirst();
  return row ? { connection: toConnection(row), sealedSecret: row.sealed_secret } : null;
}

/** The org's connection with this id, or null (another org's is never found). */
export async function findConnection(store: Handle, orgId: string, id: string): Promise<Connection | null> {
  const db = opened(store);
  return (await findConnectionWithSecret(db, orgId, id))?.connection ?? null;
}

/** Stores what an update may change (all but id, org and creation), the secret sealed by the caller. */
export async function updateConnectionRow(
  store: Handle,
  c: Connection,
  sealedSecret: string | null,
): Promise<void> {
  const db = opened(store);
  const { id, org_id, created_at, ...changes } = toRow(c, sealedSecret);
  await orgRowById(db.updateTable('connections').set(changes), org_id, id).execute();
}

export async function deleteConnectionRow(store: Handle, orgId: string, id: string): Promise<boolean> {
  const db = opened(store);
  const result = await orgRowById(db.deleteFrom('connections'), orgId, id).executeTakeFirst();
  return result.numDeletedRows === 1n;
}

/** The user linked to (connection, subject), or null. */
export async function findFederatedUserId(
  store: Handle,
  connectionId: string,
  subject: string,
): Promise<string | null> {
  return (await identities.valueWhere(store, 'user_id', { connection_id: connectionId, subject })) ?? null;
}

/** Links (connection, subject) to a user; false when it was linked already (a concurrent sign-in). */
export async function insertFederatedIdentity(
  store: Handle,
  link: { connectionId: string; subject: string; userId: string; createdAt: number },
): Promise<boolean> {
  const db = opened(store);
  return insertedAnew(
    db
      .insertInto('federated_identities')
      .values({
        connection_id: link.connectionId,
        subject: link.subject,
        user_id: link.userId,
        created_at: link.createdAt,
      })
      .onConflict((oc) => oc.columns(['connection_id', 'subject']).doNothing()),
  );
}

export const insertFederationRequest = insertOf('federation_requests', requestColumns);

/** A live request of this connection, or null. */
export const findFederationRequest = (
  store: Handle,
  connectionId: string,
  keyHash: string,
  now: number,
): Promise<FederationRequest | null> =>
  requests.recordWhere(store, {
    key_hash: keyHash,
    connection_id: connectionId,
    expires_at: after(now),
  });

/** Atomic single use: the one DELETE returns the live row to exactly one caller. */
export const consumeFederationRequest = (
  store: Handle,
  connectionId: string,
  keyHash: string,
  now: number,
): Promise<FederationRequest | null> =>
  requests.deletedRecordWhere(store, {
    key_hash: keyHash,
    connection_id: connectionId,
    expires_at: after(now),
  });

export async function purgeFederationRequests(store: Handle, now: number): Promise<void> {
  const db = opened(store);
  await purgeNotLiveAt(db.deleteFrom('federation_requests'), now);
  await purgeNotLiveAt(db.deleteFrom('saml_assertion_ids'), now);
}

/** Records an accepted assertion id; false when it was accepted before (a replay). */
export async function rememberAssertionId(
  store: Handle,
  seen: { connectionId: string; assertionId: string; expiresAt: number },
): Promise<boolean> {
  const db = opened(store);
  return insertedAnew(
    db
      .insertInto('saml_assertion_ids')
      .values({
        connection_id: seen.connectionId,
        assertion_id: seen.assertionId,
        expires_at: seen.expiresAt,
      })
      .onConflict((oc) => oc.columns(['connection_id', 'assertion_id']).doNothing()),
  );
}
