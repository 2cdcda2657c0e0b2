import type { LogoutEndpoint, SessionClient } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { clientLogoutColumns } from './clients.js';
import { orgClientRowsDeleter } from './table-records.js';

/** What a sign-in records of its client: the sid it was given, its logout endpoints when it signed in. */
export interface SessionClientRow {
  sid: string;
  orgId: string;
  browserSession: string;
  userId: string;
  clientId: string;
  backchannelLogout: LogoutEndpoint | undefined;
  frontchannelLogout: LogoutEndpoint | undefined;
  createdAt: number;
}

/**
 * Records that a browser sign-in signed into a client, once: the row already there keeps its sid
 * (and takes the endpoints given, the client's as it is now). Returns the sid that stands.
 */
export async function recordSessionClient(store: Handle, row: SessionClientRow): Promise<string> {
  const db = opened(store);
  const endpoints = {
    backchannel_logout_uri: row.backchannelLogout?.uri ?? null,
    backchannel_logout_session_required: row.backchannelLogout?.sessionRequired === true ? 1 : 0,
    frontchannel_logout_uri: row.frontchannelLogout?.uri ?? null,
    frontchannel_logout_session_required: row.frontchannelLogout?.sessionRequired === true ? 1 : 0,
  };
  // The upsert returns the row that stands (the one there before keeps its sid): one statement.
  const stored = await db
    .insertInto('session_clients')
    .values({
      sid: row.sid,
      org_id: row.orgId,
      browser_session: row.browserSession,
      user_id: row.userId,
      client_id: row.clientId,
      ...endpoints,
      created_at: row.createdAt,
    })
    .onConflict((oc) => oc.columns(['browser_session', 'client_id']).doUpdateSet(endpoints))
    .returning('sid')
    .executeTakeFirstOrThrow();
  return stored.sid;
}

const endpointOf = (uri: string | null, required: number | null): LogoutEndpoint | undefined =>
  uri === null ? undefined : { uri, sessionRequired: required === 1 };

/**
 * Takes (deletes and returns) what the browser sign-ins named recorded of their clients: one
 * sign-in (its cookie hash), every one of a user, or every one of a user but one. Each with its
 * logout endpoints as the client has them now (a client deleted since has none); a metadata
 * document's client (no row in clients) with those it had when it signed in. Taken in one DELETE, so
 * two endings racing (a double sign-out) tell each client once: the second finds nothing left.
 */
export async function takeSessionClients(
  store: Handle,
  of: { browserSession: string } | { userId: string; except?: string | null },
): Promise<SessionClient[]> {
  const db = opened(store);
  let query = db.deleteFrom('session_clients');
  if ('browserSession' in of) query = query.where('browser_session', '=', of.browserSession);
  else {
    query = query.where('user_id', '=', of.userId);
    if (of.except) query = query.where('browser_session', '!=', of.except);
  }
  const taken = await query.returningAll().execute();
  if (taken.length === 0) return [];
  const rows = await clientLogoutColumns(db, [...new Set(taken.map((t) => t.client_id))]);
  const current = new Map(rows.map((r) => [r.id, r]));
  taken.sort((x, y) => x.created_at - y.created_at || (x.sid < y.sid ? -1 : 1));
  return taken.map((t) => {
    const row = current.get(t.client_id);
    // A client with a row is read as it is now; an https client id without one is a metadata document's.
    const document = row === undefined && t.client_id.startsWith('https://');
    const source = row ?? (document ? t : null);
    const back = source
      ? endpointOf(source.backchannel_logout_uri, source.backchannel_logout_session_required)
      : undefined;
    const front = source
      ? endpointOf(source.frontchannel_logout_uri, source.frontchannel_logout_session_required)
      : undefined;
    return {
      sid: t.sid,
      orgId: t.org_id,
      userId: t.user_id,
      clientId: t.client_id,
      ...(back ? { backchannelLogout: back } : {}),
      ...(front ? { frontchannelLogout: front } : {}),
    };
  });
}

/** The back-channel logout endpoint each client with a row has now (a client without one is absent). */
export async function backchannelEndpoints(
  store: Handle,
  clientIds: readonly string[],
): Promise<Map<string, LogoutEndpoint>> {
  const rows = await clientLogoutColumns(opened(store), [...new Set(clientIds)]);
  const found = new Map<string, LogoutEndpoint>();
  for (const r of rows) {
    const endpoint = endpointOf(r.backchannel_logout_uri, r.backchannel_logout_session_required);
    if (endpoint) found.set(r.id, endpoint);
  }
  return found;
}

/**
 * Forgets what sign-ins recorded before `createdBefore`: a browser sign-in lasts at most its
 * lifetime from its start, so one that signed into a client before that is over by now (expired:
 * no logout follows an expiry).
 */
export async function purgeSessionClients(store: Handle, createdBefore: number): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('session_clients').where('created_at', '<', createdBefore).execute();
}

/** Forgets the sign-ins of an org's client (deleteClient, with the client). */
export const deleteClientSessionClients = orgClientRowsDeleter('session_clients');
