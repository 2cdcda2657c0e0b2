import type { Db } from '../db.js';
import type { OAuthSessionsTable } from '../schema.js';

export type OAuthSessionRow = OAuthSessionsTable;

export async function insertOAuthSession(db: Db, row: OAuthSessionRow): Promise<void> {
  await db.insertInto('oauth_sessions').values(row).execute();
}

export async function findOAuthSession(db: Db, id: string): Promise<OAuthSessionRow | null> {
  return (await db.selectFrom('oauth_sessions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * Revokes the session and returns its row, or null when it was already revoked or is unknown:
 * of two concurrent revocations exactly one receives the row (and audits it).
 */
export async function revokeOAuthSession(db: Db, id: string, now: number): Promise<OAuthSessionRow | null> {
  const row = await db
    .updateTable('oauth_sessions')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

export async function setOAuthSessionTenant(db: Db, id: string, tenantId: string): Promise<void> {
  await db.updateTable('oauth_sessions').set({ tenant_id: tenantId }).where('id', '=', id).execute();
}

export async function setOAuthSessionScope(db: Db, id: string, scope: string): Promise<void> {
  await db.updateTable('oauth_sessions').set({ scope }).where('id', '=', id).execute();
}

/** Stores the resources a session's grant holds now (a refresh narrowed one). */
export async function setOAuthSessionResources(
  db: Db,
  id: string,
  resources: readonly { resource: string; scopes: string[] }[],
): Promise<void> {
  await db
    .updateTable('oauth_sessions')
    .set({ resources: JSON.stringify(resources) })
    .where('id', '=', id)
    .execute();
}

/**
 * The ids of the sessions of a user, of a client, or opened from one browser sign-in (the login
 * cookie's hash) that are neither revoked nor past their lifetime.
 */
export async function liveSessionIds(
  db: Db,
  of: { userId: string } | { clientId: string } | { browserSession: string },
  now: number,
): Promise<string[]> {
  const [column, value] =
    'userId' in of
      ? (['user_id', of.userId] as const)
      : 'clientId' in of
        ? (['client_id', of.clientId] as const)
        : (['browser_session', of.browserSession] as const);
  const rows = await db
    .selectFrom('oauth_sessions')
    .select('id')
    .where(column, '=', value)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Deletes the sessions of an org's client, their refresh tokens by cascade (see deleteClientRow). */
export async function deleteClientOAuthSessions(db: Db, orgId: string, clientId: string): Promise<void> {
  await db
    .deleteFrom('oauth_sessions')
    .where('client_id', '=', clientId)
    .where('org_id', '=', orgId)
    .execute();
}
