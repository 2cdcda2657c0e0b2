import type { AuthorizationCode } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { AuthorizationCodesTable } from '../schema.js';

export const toCode = (r: AuthorizationCodesTable): AuthorizationCode => ({
  codeHash: r.code_hash,
  orgId: r.org_id,
  clientId: r.client_id,
  sessionId: r.session_id,
  redirectUri: r.redirect_uri,
  redirectUriGiven: r.redirect_uri_given === 1,
  codeChallenge: r.code_challenge,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  nonce: r.nonce,
  dpopJkt: r.dpop_jkt,
});

export async function insertAuthorizationCode(store: Handle, c: AuthorizationCode): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('authorization_codes')
    .values({
      code_hash: c.codeHash,
      org_id: c.orgId,
      client_id: c.clientId,
      session_id: c.sessionId,
      redirect_uri: c.redirectUri,
      redirect_uri_given: c.redirectUriGiven ? 1 : 0,
      code_challenge: c.codeChallenge,
      created_at: c.createdAt,
      expires_at: c.expiresAt,
      used_at: c.usedAt,
      nonce: c.nonce,
      dpop_jkt: c.dpopJkt,
    })
    .execute();
}

/**
 * Atomic single use: the one UPDATE that flips `used_at` from null returns the row, so of two
 * concurrent exchanges exactly one receives it (SQLite serialises writers; PostgreSQL re-checks
 * the WHERE clause after the first writer commits). Another client's code is not consumed.
 */
export async function consumeAuthorizationCode(
  store: Handle,
  orgId: string,
  clientId: string,
  codeHash: string,
  now: number,
): Promise<AuthorizationCode | null> {
  const db = opened(store);
  const row = await db
    .updateTable('authorization_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('org_id', '=', orgId)
    .where('client_id', '=', clientId)
    .where('used_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toCode(row) : null;
}

export async function findAuthorizationCode(
  store: Handle,
  orgId: string,
  codeHash: string,
): Promise<AuthorizationCode | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('authorization_codes')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ? toCode(row) : null;
}

/** Codes are kept a while past expiry so a late replay is still recognised as reuse. */
export async function purgeAuthorizationCodes(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('authorization_codes').where('expires_at', '<', expiredBefore).execute();
}

/** Deletes the authorization codes of an org's client (part of deleting it: see deleteClientRow). */
export async function deleteClientAuthorizationCodes(
  store: Handle,
  orgId: string,
  clientId: string,
): Promise<void> {
  const db = opened(store);
  await db
    .deleteFrom('authorization_codes')
    .where('client_id', '=', clientId)
    .where('org_id', '=', orgId)
    .execute();
}
