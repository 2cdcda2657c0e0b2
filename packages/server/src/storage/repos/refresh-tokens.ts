import { sql } from 'kysely';
import type { OAuthSession, RefreshToken, User } from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Handle } from '../handle.js';
import { dialectOf, opened } from '../opened.js';
import type { OAuthSessionsTable, RefreshTokensTable } from '../schema.js';
import { columnMap, lifespanColumns } from './column-map.js';
import { purgeExpired } from './expiry.js';
import { recordsOf } from './keyed-rows.js';
import { sessionColumnsOf, toSession, userColumnsOf } from './oauth-sessions.js';
import { toUser, USER_COLUMNS } from './users.js';

const tokenColumns = columnMap<RefreshTokensTable, RefreshToken>()({
  token_hash: 'tokenHash',
  session_id: 'sessionId',
  client_id: 'clientId',
  ...lifespanColumns,
  used_at: 'usedAt',
  rotated_to: 'rotatedTo',
  retired_at: 'retiredAt',
  dpop_jkt: 'dpopJkt',
});
const toToken = tokenColumns.toRecord;
const tokens = recordsOf('refresh_tokens', toToken);

// Every refresh and every code exchange with a refresh token stores one: compiled once (the
// token's values are stand-ins there, each a parameter of the one statement).
const insertStatement = compiledOnce(
  ['tokenHash', 'sessionId', 'clientId', 'createdAt', 'expiresAt', 'usedAt', 'rotatedTo', 'dpopJkt'],
  (db, v) => db.insertInto('refresh_tokens').values(tokenColumns.toRow({ ...v, retiredAt: null })),
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
    .returning(tokenColumns.names),
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
  const retired = await tokens.updateWhere(
    store,
    { used_at: now, retired_at: now },
    { token_hash: successorHash, used_at: null },
  );
  if (retired !== 1) return false;
  await tokens.updateWhere(store, { rotated_to: nextHash }, { token_hash: tokenHash });
  return true;
}

export const findRefreshToken = (store: Handle, tokenHash: string): Promise<RefreshToken | null> =>
  tokens.recordWhere(store, { token_hash: tokenHash });

/** Retires every live refresh token of a session, so only the one issued next is usable. */
export async function supersedeRefreshTokens(store: Handle, sessionId: string, now: number): Promise<void> {
  await tokens.updateWhere(store, { used_at: now }, { session_id: sessionId, used_at: null });
}

/** Expired tokens go: presenting one is then simply unknown, which is refused all the same. */
export async function purgeRefreshTokens(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await purgeExpired(db.deleteFrom('refresh_tokens'), expiredBefore);
}

/** What the one-statement rotation is told: the presented token, the request and the successor. */
export interface PlainRotation {
  clientId: string;
  tokenHash: string;
  orgId: string;
  /** The thumbprint the request proved (RFC 9449), or null: a token bound to another key is not taken. */
  dpopJkt: string | null;
  /** The console org's sessions act in no tenant: their user's membership is not looked at. */
  console: boolean;
  now: number;
  successorHash: string;
  /** The successor's lifetime before the session's end caps it. */
  successorNotAfter: number;
  /** The key the successor is bound to (a public client's proof), or null. */
  successorJkt: string | null;
}

/** The rotated token's row as far as the caller checks it again, its session and the session's user. */
export interface PlainRotated {
  token: { expiresAt: number; dpopJkt: string | null };
  session: OAuthSession;
  inTenant: boolean;
  user: User | null;
}

// The happy path of every refresh on PostgreSQL, one statement: consuming the token, storing its
// successor and reading the session with its user. Raw SQL: a data-modifying CTE feeding an insert.
const rotateStatement = compiledOnce(
  [
    'clientId',
    'tokenHash',
    'orgId',
    'dpopJkt',
    'console',
    'now',
    'successorHash',
    'successorNotAfter',
    'successorJkt',
  ],
  (db, v) => ({
    compile: () =>
      sql<OAuthSessionsTable & Record<string, unknown>>`
with consumed as (
  update refresh_tokens as t
     set used_at = ${v.now}::bigint, rotated_to = ${v.successorHash}::text
    from oauth_sessions as s
   where t.token_hash = ${v.tokenHash}::text
     and t.client_id = ${v.clientId}::text
     and t.used_at is null
     and t.expires_at > ${v.now}::bigint
     and (t.dpop_jkt is null or t.dpop_jkt = ${v.dpopJkt}::text)
     and s.id = t.session_id
     and s.org_id = ${v.orgId}::text
     and s.revoked_at is null
     and s.expires_at > ${v.now}::bigint
     and s.resources is null
     and (${v.console}::boolean or exists (
       select 1 from tenant_members as m where m.tenant_id = s.tenant_id and m.user_id = s.user_id))
  returning t.session_id, t.client_id, t.expires_at, t.dpop_jkt
), successor as (
  insert into refresh_tokens
    (token_hash, session_id, client_id, created_at, expires_at, used_at, rotated_to, retired_at, dpop_jkt)
  select ${v.successorHash}::text, c.session_id, c.client_id, ${v.now}::bigint,
         least(${v.successorNotAfter}::bigint, s.expires_at), null, null, null, ${v.successorJkt}::text
    from consumed as c join oauth_sessions as s on s.id = c.session_id
)
select ${sessionColumnsOf('s')}, c.expires_at as t_expires_at, c.dpop_jkt as t_dpop_jkt,
       exists (select 1 from tenant_members as m where m.tenant_id = s.tenant_id and m.user_id = s.user_id)
         as in_tenant,
       ${sql.raw(USER_COLUMNS.map((c) => `u.${c} as u_${c}`).join(', '))}
  from consumed as c
  join oauth_sessions as s on s.id = c.session_id
  left join users as u on u.id = s.user_id`.compile(db),
  }),
);

/**
 * A refresh's rotation in one autocommitted statement, on PostgreSQL (node-postgres does not
 * pipeline: a transaction's BEGIN and COMMIT are round trips of their own). It takes the presented
 * token only when nothing is left to decide: unused, this client's, unexpired, its key proved, its
 * session live and of this org, granted no resources (whose audience needs reads of its own), its
 * user still a member of the session's tenant (or a console session), and then stores the successor
 * (as addRefreshToken would) and returns the session with its user. Of two concurrent calls exactly
 * one updates the row: PostgreSQL re-checks `used_at is null` after the first commits.
 *
 * Null when it took nothing: the caller runs the transaction, which decides what happened (reuse,
 * the grace, expiry, the session's end). Every condition here is one the transaction checks in
 * TypeScript too; the caller checks them again on the row returned, and a test pins the two equal.
 * On SQLite null without a statement: there the transaction costs no network.
 */
export async function rotatePlainRefreshToken(store: Handle, r: PlainRotation): Promise<PlainRotated | null> {
  if (dialectOf(store) !== 'postgres') return null;
  const [row] = await rotateStatement(opened(store), { ...r });
  if (!row) return null;
  return {
    token: { expiresAt: Number(row.t_expires_at), dpopJkt: (row.t_dpop_jkt as string | null) ?? null },
    session: toSession(row),
    inTenant: row.in_tenant === true,
    user: row.u_id === null ? null : toUser(userColumnsOf(row)),
  };
}
