import { sql } from 'kysely';
import type { AuthorizationCode, OAuthSession, User } from '../../domain/types.js';
import { compiledOnce } from '../compiled-once.js';
import type { Handle } from '../handle.js';
import { dialectOf, opened } from '../opened.js';
import type { AuthorizationCodesTable, OAuthSessionsTable } from '../schema.js';
import { columnMap, flag, lifespanColumns } from './column-map.js';
import { purgeExpired } from './expiry.js';
import { recordsOf } from './keyed-rows.js';
import { sessionColumnsOf, toSession, userColumnsOf } from './oauth-sessions.js';
import { insertOf, orgClientRowsDeleter } from './table-records.js';
import { toUser, USER_COLUMNS } from './users.js';

const codeColumns = columnMap<AuthorizationCodesTable, AuthorizationCode>()({
  code_hash: 'codeHash',
  org_id: 'orgId',
  client_id: 'clientId',
  session_id: 'sessionId',
  redirect_uri: 'redirectUri',
  redirect_uri_given: ['redirectUriGiven', flag],
  code_challenge: 'codeChallenge',
  ...lifespanColumns,
  used_at: 'usedAt',
  nonce: 'nonce',
  dpop_jkt: 'dpopJkt',
});
export const toCode = codeColumns.toRecord;
const codes = recordsOf('authorization_codes', toCode);

export const insertAuthorizationCode = insertOf('authorization_codes', codeColumns);

/**
 * Atomic single use: the one UPDATE that flips `used_at` from null returns the row, so of two
 * concurrent exchanges exactly one receives it (SQLite serialises writers; PostgreSQL re-checks
 * the WHERE clause after the first writer commits). Another client's code is not consumed.
 */
export const consumeAuthorizationCode = (
  store: Handle,
  orgId: string,
  clientId: string,
  codeHash: string,
  now: number,
): Promise<AuthorizationCode | null> =>
  codes.updatedRecordWhere(
    store,
    { used_at: now },
    { code_hash: codeHash, org_id: orgId, client_id: clientId, used_at: null },
  );

export const findAuthorizationCode = (
  store: Handle,
  orgId: string,
  codeHash: string,
): Promise<AuthorizationCode | null> => codes.recordWhere(store, { code_hash: codeHash, org_id: orgId });

/** Codes are kept a while past expiry so a late replay is still recognised as reuse. */
export async function purgeAuthorizationCodes(store: Handle, expiredBefore: number): Promise<void> {
  const db = opened(store);
  await purgeExpired(db.deleteFrom('authorization_codes'), expiredBefore);
}

/** Deletes the authorization codes of an org's client (part of deleting it: see deleteClientRow). */
export const deleteClientAuthorizationCodes = orgClientRowsDeleter('authorization_codes');

/** What the one-statement redemption is told: the code, the request's proofs and the refresh token to store. */
export interface PlainRedemption {
  codeHash: string;
  orgId: string;
  clientId: string;
  /** `redirect_uri` as sent, or null when not sent. */
  redirectUri: string | null;
  /** The S256 challenge of the `code_verifier` sent, or null when none was sent. */
  challenge: string | null;
  /** The thumbprint the request proved (RFC 9449), or null. */
  dpopJkt: string | null;
  /** The console org's sessions get no audience: granted resources do not matter there. */
  console: boolean;
  now: number;
  /** The refresh token to store with the session (its hash), or null when the client gets none. */
  refreshHash: string | null;
  refreshNotAfter: number;
  refreshJkt: string | null;
}

export interface PlainRedeemed {
  code: AuthorizationCode;
  session: OAuthSession;
  user: User | null;
}

const CODE_COLUMNS = codeColumns.names;

// The happy path of every code exchange on PostgreSQL, one statement: consuming the code, storing
// the session's first refresh token and reading the session with its user.
const redeemStatement = compiledOnce(
  [
    'codeHash',
    'orgId',
    'clientId',
    'redirectUri',
    'challenge',
    'dpopJkt',
    'console',
    'now',
    'refreshHash',
    'refreshNotAfter',
    'refreshJkt',
  ],
  (db, v) => ({
    compile: () =>
      sql<OAuthSessionsTable & Record<string, unknown>>`
with consumed as (
  update authorization_codes as c
     set used_at = ${v.now}::bigint
    from oauth_sessions as s
   where c.code_hash = ${v.codeHash}::text
     and c.org_id = ${v.orgId}::text
     and c.client_id = ${v.clientId}::text
     and c.used_at is null
     and c.expires_at > ${v.now}::bigint
     and (c.redirect_uri = ${v.redirectUri}::text
          or (c.redirect_uri_given = 0 and ${v.redirectUri}::text is null))
     and (c.dpop_jkt is null or c.dpop_jkt = ${v.dpopJkt}::text)
     and ((c.code_challenge is null and ${v.challenge}::text is null)
          or c.code_challenge = ${v.challenge}::text)
     and s.id = c.session_id
     and s.revoked_at is null
     and s.expires_at > ${v.now}::bigint
     and (${v.console}::boolean or s.resources is null)
  returning ${sql.raw(CODE_COLUMNS.map((c) => `c.${c}`).join(', '))}
), refresh as (
  insert into refresh_tokens
    (token_hash, session_id, client_id, created_at, expires_at, used_at, rotated_to, retired_at, dpop_jkt)
  select ${v.refreshHash}::text, c.session_id, c.client_id, ${v.now}::bigint,
         least(${v.refreshNotAfter}::bigint, s.expires_at), null, null, null, ${v.refreshJkt}::text
    from consumed as c join oauth_sessions as s on s.id = c.session_id
   where ${v.refreshHash}::text is not null
)
select ${sessionColumnsOf('s')},
       ${sql.raw(CODE_COLUMNS.map((c) => `c.${c} as c_${c}`).join(', '))},
       ${sql.raw(USER_COLUMNS.map((c) => `u.${c} as u_${c}`).join(', '))}
  from consumed as c
  join oauth_sessions as s on s.id = c.session_id
  left join users as u on u.id = s.user_id`.compile(db),
  }),
);

/**
 * A code exchange in one autocommitted statement, on PostgreSQL (node-postgres does not pipeline: a
 * transaction's BEGIN and COMMIT are round trips of their own). It consumes the code only when
 * nothing is left to decide: unused, of this org and client, unexpired, `redirect_uri`, DPoP key and
 * PKCE verifier as the code asks, its session live and (outside the console) granted no resources,
 * whose audience needs reads of its own. It then stores the refresh token (as addRefreshToken would)
 * and returns the code, the session and its user. Of two concurrent calls exactly one updates the row.
 *
 * Null when it took nothing: the caller runs the transaction, which consumes the code and decides
 * (reuse revokes the session, a problem burns the code). The caller checks the returned row again with
 * the transaction's own rules, and a test pins the two equal. On SQLite null without a statement.
 */
export async function redeemPlainCode(store: Handle, r: PlainRedemption): Promise<PlainRedeemed | null> {
  if (dialectOf(store) !== 'postgres') return null;
  const [row] = await redeemStatement(opened(store), { ...r });
  if (!row) return null;
  const code = Object.fromEntries(CODE_COLUMNS.map((name) => [name, row[`c_${name}`]]));
  return {
    code: toCode(code as unknown as AuthorizationCodesTable),
    session: toSession(row),
    user: row.u_id === null ? null : toUser(userColumnsOf(row)),
  };
}
