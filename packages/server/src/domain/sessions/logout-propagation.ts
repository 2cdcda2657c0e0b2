import { newId, newSortableId } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { insertLogoutDeliveries } from '../../storage/repos/logout-deliveries.js';
import {
  backchannelEndpoints,
  recordSessionClient,
  takeSessionClients,
} from '../../storage/repos/session-clients.js';
import type { LogoutEndpoint, OAuthSession } from '../types.js';
import { announceLogouts } from '../webhooks/outbox-signal.js';

/** What a browser sign-in records when it signs into a client. */
export interface SignedInto {
  orgId: string;
  /** The login cookie's hash. */
  browserSession: string;
  userId: string;
  clientId: string;
  /** The client's endpoints now (kept for a metadata-document client, which has no row to read later). */
  backchannelLogout?: LogoutEndpoint | undefined;
  frontchannelLogout?: LogoutEndpoint | undefined;
}

/**
 * The `sid` a browser sign-in gives a client (OIDC Back-Channel Logout 1.0 §2.1, Front-Channel
 * Logout 1.0 §3): made at the client's first sign-in from this browser sign-in, random (not derived
 * from the login cookie or anything secret), then the same on every later sign-in and refresh; each
 * client gets its own, so no client learns the sid another holds.
 */
export function sidFor(tx: Handle, into: SignedInto, now: number): Promise<string> {
  return recordSessionClient(tx, {
    sid: newId('sid'),
    orgId: into.orgId,
    browserSession: into.browserSession,
    userId: into.userId,
    clientId: into.clientId,
    backchannelLogout: into.backchannelLogout,
    frontchannelLogout: into.frontchannelLogout,
    createdAt: now,
  });
}

/** A client the logout page frames (Front-Channel Logout 1.0 §2), with the sid it was given. */
export interface FrontChannelFrame {
  clientId: string;
  sid: string;
  endpoint: LogoutEndpoint;
}

/**
 * Browser sign-ins ended (one by its cookie hash, every one of a user, or every one but one): for
 * each client they signed into that registered a back-channel logout URI, a logout token is queued
 * (sent by the delivery worker, with the webhooks' retries and address policy), in the caller's
 * transaction, so it is sent exactly when the ending commits. The record of those clients is
 * forgotten with it. Returns the clients to frame for front-channel logout (the browser's own sign-out shows
 * them).
 *
 * `sessions`: the OAuth sessions ended with them. A browser sign-in's record of its clients lasts
 * only as long as the sign-in (12 hours), while a session it opened (a device's, an app's with a
 * refresh token) lives on for up to 90 days: such a session's client, when it registered a
 * back-channel logout URI, is told too, with the sid its ID tokens carried (docs/decisions.md).
 * A client is told once per sid.
 */
export async function propagateLogout(
  tx: Handle,
  ended: { browserSession: string } | { userId: string; except?: string | null },
  now: number,
  sessions: readonly OAuthSession[] = [],
): Promise<FrontChannelFrame[]> {
  // Taken (deleted) first: a second ending racing this one finds nothing to tell anyone about.
  const clients = await takeSessionClients(tx, ended);
  const told = new Set(clients.map((c) => `${c.clientId} ${c.sid}`));
  const back = clients.flatMap((c) =>
    c.backchannelLogout === undefined
      ? []
      : [{ orgId: c.orgId, clientId: c.clientId, url: c.backchannelLogout.uri, sub: c.userId, sid: c.sid }],
  );
  const outlived = sessions.filter((s) => !told.has(`${s.clientId} ${s.sid ?? s.id}`));
  if (outlived.length > 0) {
    const endpoints = await backchannelEndpoints(
      tx,
      outlived.map((s) => s.clientId),
    );
    for (const s of outlived) {
      const sid = s.sid ?? s.id;
      const endpoint = endpoints.get(s.clientId);
      if (endpoint === undefined || told.has(`${s.clientId} ${sid}`)) continue;
      told.add(`${s.clientId} ${sid}`);
      back.push({ orgId: s.orgId, clientId: s.clientId, url: endpoint.uri, sub: s.userId, sid });
    }
  }
  await insertLogoutDeliveries(
    tx,
    back.map((b) => ({ id: newSortableId('lgd', now), ...b, now })),
  );
  if (back.length > 0) await announceLogouts(tx);
  return clients.flatMap((c) =>
    c.frontchannelLogout ? [{ clientId: c.clientId, sid: c.sid, endpoint: c.frontchannelLogout }] : [],
  );
}
