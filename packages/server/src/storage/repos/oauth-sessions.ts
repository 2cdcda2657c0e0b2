import { sql } from 'kysely';
import type { ClaimsRequest, OAuthSession, ResourceGrant, User } from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { OAuthSessionsTable } from '../schema.js';
import { everyColumn } from './column-map.js';
import { recordsOf } from './keyed-rows.js';
import { oldestFirst } from './org-rows.js';
import { orgClientRowsDeleter } from './table-records.js';
import { toUser, USER_COLUMNS, type UserColumns } from './users.js';

export const toSession = (r: OAuthSessionsTable): OAuthSession => ({
  id: r.id,
  orgId: r.org_id,
  userId: r.user_id,
  clientId: r.client_id,
  tenantId: r.tenant_id,
  amr: JSON.parse(r.amr) as string[],
  acr: r.acr,
  scope: r.scope,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  actorId: r.actor_id,
  authTime: r.auth_time ?? r.created_at,
  resources: r.resources === null ? [] : (JSON.parse(r.resources) as ResourceGrant[]),
  claims: r.claims === null ? null : (JSON.parse(r.claims) as ClaimsRequest),
  ...(r.sid === null ? {} : { sid: r.sid }),
});

const sessions = recordsOf('oauth_sessions', toSession);

/** Every column of `oauth_sessions`: what the compiled statements that read a session select. */
export const SESSION_COLUMNS = everyColumn<OAuthSessionsTable>()([
  'id',
  'org_id',
  'user_id',
  'client_id',
  'tenant_id',
  'amr',
  'acr',
  'scope',
  'created_at',
  'expires_at',
  'revoked_at',
  'actor_id',
  'auth_time',
  'browser_session',
  'resources',
  'claims',
  'sid',
]);

/** SESSION_COLUMNS of the session table named `alias`, as a hand-written statement's select list. */
export const sessionColumnsOf = (alias: string) =>
  sql.raw(SESSION_COLUMNS.map((c) => `${alias}.${c}`).join(', '));

/** Stores a new session, with the browser sign-in (login cookie hash) it was opened from, if any. */
export async function insertOAuthSession(
  store: Handle,
  s: OAuthSession,
  browserSession: string | null,
): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('oauth_sessions')
    .values({
      id: s.id,
      org_id: s.orgId,
      user_id: s.userId,
      client_id: s.clientId,
      tenant_id: s.tenantId,
      amr: JSON.stringify(s.amr),
      acr: s.acr,
      scope: s.scope,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
      revoked_at: s.revokedAt,
      actor_id: s.actorId,
      auth_time: s.authTime,
      browser_session: browserSession,
      resources: s.resources.length === 0 ? null : JSON.stringify(s.resources),
      claims: s.claims === null ? null : JSON.stringify(s.claims),
      sid: s.sid ?? null,
    })
    .execute();
}

export const findOAuthSession = (store: Handle, id: string): Promise<OAuthSession | null> =>
  sessions.recordWhere(store, { id });

// Read by every refresh: compiled once.
const sessionForRefresh = compiledOnce(['id'], (db, v) =>
  db
    .selectFrom('oauth_sessions as s')
    .leftJoin('tenant_members as m', (join) =>
      join.onRef('m.tenant_id', '=', 's.tenant_id').onRef('m.user_id', '=', 's.user_id'),
    )
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select(SESSION_COLUMNS.map((c) => `s.${c}` as const))
    .select('m.user_id as member_id')
    .select(USER_COLUMNS.map((c) => `u.${c} as u_${c}` as const))
    .where('s.id', '=', v.id),
);

/** The user columns of the refresh read's row (selected as `u_<column>`, present when `u_id` is). */
export const userColumnsOf = (row: Record<string, unknown>): UserColumns =>
  Object.fromEntries(USER_COLUMNS.map((c) => [c, row[`u_${c}`]])) as unknown as UserColumns;

/**
 * What a refresh reads about its session, in one statement: the session, whether its user is still
 * a member of its tenant (false without a tenant: a console session), and the user (null once
 * deleted). Three lookups before, each a round trip on PostgreSQL.
 */
export async function findSessionForRefresh(
  store: Handle,
  id: string,
): Promise<{ session: OAuthSession; inTenant: boolean; user: User | null } | null> {
  const db = opened(store);
  const [row] = await sessionForRefresh(db, { id });
  if (!row) return null;
  const user = row.u_id === null ? null : toUser(userColumnsOf(row));
  return { session: toSession(row), inTenant: row.member_id !== null, user };
}

/**
 * Revokes the session and returns its row, or null when it was already revoked or is unknown:
 * of two concurrent revocations exactly one receives the row (and audits it).
 */
export const revokeOAuthSession = (store: Handle, id: string, now: number): Promise<OAuthSession | null> =>
  sessions.updatedRecordWhere(store, { revoked_at: now }, { id, revoked_at: null });

export async function setOAuthSessionTenant(store: Handle, id: string, tenantId: string): Promise<void> {
  await sessions.updateWhere(store, { tenant_id: tenantId }, { id });
}

export async function setOAuthSessionScope(store: Handle, id: string, scope: string): Promise<void> {
  await sessions.updateWhere(store, { scope }, { id });
}

/** Stores the resources a session's grant holds now (a refresh narrowed one). */
export async function setOAuthSessionResources(
  store: Handle,
  id: string,
  resources: readonly ResourceGrant[],
): Promise<void> {
  await sessions.updateWhere(store, { resources: JSON.stringify(resources) }, { id });
}

/**
 * The ids of the sessions of a user, of a client, or opened from one browser sign-in (the login
 * cookie's hash) that are neither revoked nor past their lifetime.
 */
export async function liveSessionIds(
  store: Handle,
  of: { userId: string } | { clientId: string } | { browserSession: string },
  now: number,
): Promise<string[]> {
  const db = opened(store);
  const [column, value] =
    'userId' in of
      ? (['user_id', of.userId] as const)
      : 'clientId' in of
        ? (['client_id', of.clientId] as const)
        : (['browser_session', of.browserSession] as const);
  const rows = await oldestFirst(
    db
      .selectFrom('oauth_sessions')
      .select('id')
      .where(column, '=', value)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now),
  ).execute();
  return rows.map((r) => r.id);
}

/** Deletes the sessions of an org's client, their refresh tokens by cascade (see deleteClientRow). */
export const deleteClientOAuthSessions = orgClientRowsDeleter('oauth_sessions');
