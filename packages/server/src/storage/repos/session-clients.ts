import type { LogoutEndpoint, SessionClient } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';

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
  await db
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
    .execute();
  const stored = await db
    .selectFrom('session_clients')
    .select('sid')
    .where('browser_session', '=', row.browserSession)
    .where('client_id', '=', row.clientId)
    .executeTakeFirstOrThrow();
  return stored.sid;
}

const endpointOf = (uri: string | null, required: number | null): LogoutEndpoint | undefined =>
  uri === null ? undefined : { uri, sessionRequired: required === 1 };

/**
 * The clients the browser sign-ins named signed into: one sign-in (its cookie hash), every one of a
 * user, or every one of a user but one. Each with its logout endpoints as the client has them now
 * (a client deleted since has none); a metadata document's client (no row in clients) with those
 * it had when it signed in.
 */
export async function sessionClientsOf(
  store: Handle,
  of: { browserSession: string } | { userId: string; except?: string | null },
): Promise<SessionClient[]> {
  const db = opened(store);
  let query = db
    .selectFrom('session_clients as s')
    .leftJoin('clients as c', 'c.id', 's.client_id')
    .select([
      's.sid',
      's.org_id',
      's.user_id',
      's.client_id',
      'c.id as row_id',
      'c.backchannel_logout_uri as c_back',
      'c.backchannel_logout_session_required as c_back_required',
      'c.frontchannel_logout_uri as c_front',
      'c.frontchannel_logout_session_required as c_front_required',
      's.backchannel_logout_uri as s_back',
      's.backchannel_logout_session_required as s_back_required',
      's.frontchannel_logout_uri as s_front',
      's.frontchannel_logout_session_required as s_front_required',
    ]);
  if ('browserSession' in of) query = query.where('s.browser_session', '=', of.browserSession);
  else {
    query = query.where('s.user_id', '=', of.userId);
    if (of.except) query = query.where('s.browser_session', '!=', of.except);
  }
  const rows = await query.orderBy('s.created_at').orderBy('s.sid').execute();
  return rows.map((r) => {
    // A client with a row is read as it is now; an https client id without one is a metadata document's.
    const fromRow = r.row_id !== null;
    const document = !fromRow && r.client_id.startsWith('https://');
    const back = fromRow
      ? endpointOf(r.c_back, r.c_back_required)
      : document
        ? endpointOf(r.s_back, r.s_back_required)
        : undefined;
    const front = fromRow
      ? endpointOf(r.c_front, r.c_front_required)
      : document
        ? endpointOf(r.s_front, r.s_front_required)
        : undefined;
    return {
      sid: r.sid,
      orgId: r.org_id,
      userId: r.user_id,
      clientId: r.client_id,
      ...(back ? { backchannelLogout: back } : {}),
      ...(front ? { frontchannelLogout: front } : {}),
    };
  });
}

/** Forgets these sign-ins' clients (their logout was enqueued). */
export async function deleteSessionClients(store: Handle, sids: readonly string[]): Promise<void> {
  if (sids.length === 0) return;
  const db = opened(store);
  await db.deleteFrom('session_clients').where('sid', 'in', sids).execute();
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

/** Forgets the sign-ins of an org's client (see deleteClientRow). */
export async function deleteClientSessionClients(
  store: Handle,
  orgId: string,
  clientId: string,
): Promise<void> {
  const db = opened(store);
  await db
    .deleteFrom('session_clients')
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .execute();
}
