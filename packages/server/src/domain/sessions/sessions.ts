import { newId } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import { deleteBrowserSessionsOfUser } from '../../storage/repos/browser-sessions.js';
import {
  findOAuthSession,
  insertOAuthSession,
  liveSessionIds,
  revokeOAuthSession,
  setOAuthSessionTenant,
} from '../../storage/repos/oauth-sessions.js';
import { findUserTenant, listUserTenants } from '../../storage/repos/tenant-members.js';
import { type AuditInput, recordAudit } from '../audit/audit.js';
import { fieldsOf, isoTimesOf } from '../audit/snapshot-fields.js';
import { auditTrail } from '../audit/trail.js';
import { fail } from '../errors.js';
import { OAUTH_SESSION_TTL_MS } from '../tokens-policy.js';
import type { Actor, ClaimsRequest, LogoutEndpoint, OAuthSession, Org, ResourceGrant } from '../types.js';
import { propagateLogout, sidFor } from './logout-propagation.js';

export type { OAuthSession };

export const sessionSnapshot = (s: OAuthSession) => ({
  ...fieldsOf(s, ['id', 'userId', 'clientId', 'tenantId', 'amr', 'acr']),
  ...isoTimesOf(s, ['createdAt', 'expiresAt', 'revokedAt']),
  ...(s.actorId === null ? {} : { actorId: s.actorId }),
});

const audit = auditTrail('session', sessionSnapshot);

/** The tenant a new session acts in: the user's oldest membership (their personal tenant). */
export async function defaultTenantId(tx: Handle, userId: string): Promise<string | null> {
  return (await listUserTenants(tx, userId))[0]?.tenant.id ?? null;
}

export interface NewSession {
  userId: string;
  clientId: string;
  amr: string[];
  acr: string;
  scope: string;
  /** Impersonation: the acting owner, and the instant the session must end (at most 90 days anyway). */
  actorId?: string | null;
  notAfter?: number;
  /** When the person signed in; now when not given. */
  authTime?: number;
  /** The browser sign-in (login cookie hash) it is opened from: signing out of that browser ends it. */
  browserSession?: string | null;
  /** The resources granted, with their scopes (DESIGN §15); none when not given. */
  resources?: ResourceGrant[];
  /** The authorization request's OIDC `claims` parameter; none when not given. */
  claims?: ClaimsRequest | null;
  /** The client's logout endpoints (recorded with the browser sign-in, for a metadata-document client). */
  backchannelLogout?: LogoutEndpoint | undefined;
  frontchannelLogout?: LogoutEndpoint | undefined;
}

/** Opens a session; console sessions have no tenant (their tokens carry no `tnt`). */
export async function openSession(
  tx: Handle,
  org: Org,
  input: NewSession,
  now: number,
): Promise<OAuthSession> {
  const tenantId = org.isConsole ? null : await defaultTenantId(tx, input.userId);
  if (!org.isConsole && tenantId === null) fail('session.open.no_tenant', 'the user has no tenant');
  const { browserSession = null, backchannelLogout, frontchannelLogout } = input;
  // Opened from a browser sign-in: its ID tokens carry the sid that sign-in gives this client.
  const sid =
    browserSession === null
      ? null
      : await sidFor(
          tx,
          {
            orgId: org.id,
            browserSession,
            userId: input.userId,
            clientId: input.clientId,
            backchannelLogout,
            frontchannelLogout,
          },
          now,
        );
  const session = sessionToOpen(org, input, tenantId, sid, now);
  await insertOAuthSession(tx, session, browserSession);
  await recordAudit(tx, sessionCreated(session));
  return session;
}

/** The session openSession stores, its tenant and sid decided. */
export function sessionToOpen(
  org: Org,
  input: NewSession,
  tenantId: string | null,
  sid: string | null,
  now: number,
): OAuthSession {
  const {
    actorId = null,
    notAfter,
    authTime = now,
    browserSession: _browserSession,
    resources = [],
    claims = null,
    backchannelLogout: _backchannelLogout,
    frontchannelLogout: _frontchannelLogout,
    ...rest
  } = input;
  return {
    id: newId('sid'),
    orgId: org.id,
    ...rest,
    tenantId,
    createdAt: now,
    expiresAt: Math.min(now + OAUTH_SESSION_TTL_MS, notAfter ?? Number.POSITIVE_INFINITY),
    revokedAt: null,
    actorId,
    authTime,
    resources,
    claims,
    ...(sid === null ? {} : { sid }),
  };
}

/** The `session.created` entry of a session just opened (by the person, or the owner acting for them). */
export function sessionCreated(session: OAuthSession): AuditInput {
  const actor: Actor = { kind: 'user', id: session.actorId ?? session.userId };
  return {
    orgId: session.orgId,
    entity: 'session',
    verb: 'created',
    actor,
    at: session.createdAt,
    data: sessionSnapshot(session),
  };
}

/** Whether a session is neither revoked nor past its absolute lifetime. */
export const isLive = (session: OAuthSession, now: number): boolean =>
  session.revokedAt === null && session.expiresAt > now;

/** The session if it is neither revoked nor past its absolute lifetime. */
export async function liveSession(db: Handle, id: string, now: number): Promise<OAuthSession | null> {
  const session = await findOAuthSession(db, id);
  return session && isLive(session, now) ? session : null;
}

/**
 * Ends a session (and with it every refresh and access token it issued); audited once. Returns the
 * session it ended, or null when it had ended already.
 */
export async function revokeSession(
  tx: Handle,
  sessionId: string,
  actor: Actor,
  now: number,
): Promise<OAuthSession | null> {
  const revoked = await revokeOAuthSession(tx, sessionId, now);
  if (!revoked) return null;
  await audit.deleted(tx, { orgId: revoked.orgId, actor, at: now }, revoked);
  return revoked;
}

/** Ends the sessions `ids` (each audited); the ones this call ended. */
export async function revokeSessions(
  tx: Handle,
  ids: readonly string[],
  actor: Actor,
  now: number,
): Promise<OAuthSession[]> {
  const ended: OAuthSession[] = [];
  for (const id of ids) {
    const revoked = await revokeSession(tx, id, actor, now);
    if (revoked) ended.push(revoked);
  }
  return ended;
}

/**
 * Ends every session of the user: each live OAuth session is revoked (audited as its
 * `session.deleted`; its refresh and access tokens stop working) and every login cookie of the
 * hosted pages is dropped, so no browser goes on signing them in; every client those browser
 * sign-ins signed into that registered a back-channel logout URI is sent a logout token
 * (logout-propagation.ts), and so is the client of every OAuth session that outlived its browser
 * sign-in's record (a device's). Returns how many OAuth sessions ended.
 */
export async function endUserSessions(
  tx: Handle,
  userId: string,
  actor: Actor,
  now: number,
): Promise<number> {
  const ids = await liveSessionIds(tx, { userId }, now);
  const ended = await revokeSessions(tx, ids, actor, now);
  await propagateLogout(tx, { userId }, now, ended);
  await deleteBrowserSessionsOfUser(tx, userId);
  return ids.length;
}

/**
 * Ends every live session of a client (each audited as its `session.deleted`): their refresh and
 * access tokens stop working. Returns how many ended.
 */
export async function endClientSessions(
  tx: Handle,
  clientId: string,
  actor: Actor,
  now: number,
): Promise<number> {
  const ids = await liveSessionIds(tx, { clientId }, now);
  for (const id of ids) await revokeSession(tx, id, actor, now);
  return ids.length;
}

/** Moves the session to another tenant of the user, audited as an update. */
export async function moveSession(
  tx: Handle,
  session: OAuthSession,
  tenantId: string,
  actor: Actor,
  now: number,
): Promise<OAuthSession> {
  if (session.tenantId === tenantId) return session;
  await setOAuthSessionTenant(tx, session.id, tenantId);
  const moved = { ...session, tenantId };
  await audit.updated(tx, { orgId: session.orgId, actor, at: now }, session, moved);
  return moved;
}

/**
 * The tenant a refresh acts in: the session's, or when the user left it (or it was deleted) the
 * user's default one, so a deleted tenant does not sign everyone out. `inTenant`: whether the
 * user is a member of the session's tenant, when the caller read it with the session.
 */
export async function currentTenant(
  tx: Handle,
  org: Org,
  session: OAuthSession,
  now: number,
  inTenant?: boolean,
) {
  if (org.isConsole) return session;
  if (
    session.tenantId !== null &&
    (inTenant ?? (await findUserTenant(tx, session.userId, session.tenantId)) !== null)
  )
    return session;
  const fallback = await defaultTenantId(tx, session.userId);
  if (fallback === null) return null;
  return moveSession(tx, session, fallback, { kind: 'system' }, now);
}
