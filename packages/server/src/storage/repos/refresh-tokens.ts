import type { RefreshToken } from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { RefreshTokensTable } from '../schema.js';

const toToken = (r: RefreshTokensTable): RefreshToken => ({
  tokenHash: r.token_hash,
  sessionId: r.session_id,
  clientId: r.client_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
  rotatedTo: r.rotated_to,
  retiredAt: r.retired_at,
  dpopJkt: r.dpop_jkt,
});

// Every refresh and every code exchange with a refresh token stores one: compiled once.
const insertStatement = compiledOnce(
  ['tokenHash', 'sessionId', 'clientId', 'createdAt', 'expiresAt', 'usedAt', 'rotatedTo', 'dpopJkt'],
  (db, v) =>
    db.insertInto('refresh_tokens').values({
      token_hash: v.tokenHash,
      session_id: v.sessionId,
      client_id: v.clientId,
      created_at: v.createdAt,
      expires_at: v.expiresAt,
      used_at: v.usedAt,
      rotated_to: v.rotatedTo,
      retired_at: null,
      dpop_jkt: v.dpopJkt,
    }),
);

/** A new token: never retired (retireRefreshToken). */
export async function insertRefreshToken(store: Handle, t: Omit<RefreshToken, 'retiredAt'>): Promise<void> {
  const db = opened(store);
  await insertStatement(db, t);
}

const consumeStatement = compiledOnce(['clientId', 'tokenHash', 'now', 'successorHash'], (db, v) =>
  db
    .updateTable('refresh_tokens')
    .set({ used_at: v.now, rotated_to: v.successorHash })
    .where('token_hash', '=', v.tokenHash)
    .where('client_id', '=', v.clientId)
    .where('used_at', 'is', null)
    .returningAll(),
);

/**
 * Atomic rotation: exactly one of two concurrent callers flips `used_at`, names the token's
 * successor (`rotated_to`, by its hash) and receives the row. A token of another client is left
 * untouched. The successor is stored in the same transaction; if the rotation is then refused
 * (expired, session ended), the successor named is never stored, as if none had been issued.
 */
export async function consumeRefreshToken(
  store: Handle,
  clientId: string,
  tokenHash: string,
  now: number,
  successorHash: string,
): Promise<RefreshToken | null> {
  const db = opened(store);
  const [row] = await consumeStatement(db, { clientId, tokenHash, now, successorHash });
  return row ? toToken(row) : null;
}

/**
 * The reuse grace's retry (issue 48): retires `successorHash`, the token the rotation of
 * `tokenHash` issued, if it is still unused, and names `nextHash` as `tokenHash`'s successor
 * instead. Exactly one of two concurrent callers (two retries, or a retry and the successor's own
 * use) wins the successor's row; the other gets false and nothing changes.
 */
export async function retireRefreshToken(
  store: Handle,
  tokenHash: string,
  successorHash: string,
  nextHash: string,
  now: number,
): Promise<boolean> {
  const db = opened(store);
  const retired = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now, retired_at: now })
    .where('token_hash', '=', successorHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(retired.numUpdatedRows) !== 1) return false;
  await db
    .updateTable('refresh_tokens')
    .set({ rotated_to: nextHash })
    .where('token_hash', '=', tokenHash)
    .execute();
  return true;
}

export async function findRefreshToken(store: Handle, tokenHash: string): Promise<RefreshToken | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('refresh_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row ? toToken(row) : null;
}

/** Retires every live refresh token of a session, so only the one issued next is usable. */
export async function supersedeRefreshTokens(store: Handle, sessionId: string, now: number): Promise<void> {
  const db = opened(store);
  await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('session_id', '=', sessionId)
    .where('used_at', 'is', null)
    .execute();
}

/** Expired tokens go: presenting one is then simply unknown, which is refused all the same. */
export async function purgeRefreshTokens(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('refresh_tokens').where('expires_at', '<', expiredBefore).execute();
}
