import { sql } from 'kysely';
import type {
  AuditRecord,
  AuthorizationCode,
  BrowserSessionRecord,
  OAuthSession,
} from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { PREPARED } from '../marked-statements.js';
import { dialectOf, opened } from '../opened.js';
import type { SessionClientRow } from './session-clients.js';
import { webhookFingerprintSql } from './webhooks.js';

/**
 * The tenant's place in the `session.created` entry's data, replaced in the statement by the tenant
 * it picks: a NUL, which no stored text holds (http/storable-text.ts), as JSON text.
 */
export const TENANT_SLOT = '\u0000tenant';

/** What a sign-in that completes an authorization request with a code stores, as the repositories would. */
export interface SignInWrites {
  orgId: string;
  /** The console org's sessions have no tenant. */
  console: boolean;
  requestId: string;
  userId: string;
  now: number;
  /** The org's webhook fingerprint when none of its webhooks takes these entries (null: no webhooks). */
  webhooks: string | null;
  browserSession: BrowserSessionRecord;
  login: AuditRecord;
  signedInto: SessionClientRow;
  /** Its `tenantId` is the statement's to pick. */
  session: OAuthSession;
  /** Its data holds TENANT_SLOT where the tenant goes. */
  created: AuditRecord;
  code: AuthorizationCode;
}

/** Whether storeSignInWithCode runs here: on PostgreSQL, where each statement is a round trip. */
export const signInStatementRuns = (store: Handle): boolean => dialectOf(store) === 'postgres';

const json = (v: unknown) => (v === null ? null : JSON.stringify(v));

/** An audit entry's row (audit-events.ts insertAuditEvent), its data as given. */
const auditValues = (e: AuditRecord, data: ReturnType<typeof sql>) => sql`
    ${e.id}::text, ${e.orgId}::text, ${e.key}::text, ${e.entity}::text, ${e.verb}::text, ${e.at}::bigint,
    ${e.actor.kind}::text, ${e.actor.kind === 'system' ? null : e.actor.id}::text, ${data},
    ${json(e.previous)}::text, ${json(e.changes)}::text`;

const AUDIT_COLUMNS = sql.raw(
  'id, org_id, key, entity, verb, at, actor_kind, actor_id, data, previous, changes',
);

/**
 * Everything a sign-in stores from the browser session to the code, in one autocommitted statement
 * on PostgreSQL (node-postgres does not pipeline: a transaction's BEGIN and COMMIT are round trips of
 * their own, and so is each of its nine statements). It completes the authorization request only
 * when nothing is left to decide: the request still open, its resource grant undecided (the code
 * then carries none: the request named no resources), outside the console a tenant for the user,
 * and the org's webhooks as `webhooks` says (so no delivery is due for either entry: the outbox's
 * rows would have to commit with them). Then it stores, as the transaction would: the browser
 * session and its `user.login` entry, the client signed into (the browser session is new, so its
 * sid is the one given), the OAuth session in the user's oldest tenant and its `session.created`
 * entry, and the code. Whether it stored them; when not, the caller's transaction decides. PostgreSQL
 * only (signInStatementRuns).
 *
 * Its text is the same at every call (every value is a parameter; the fragments are fixed), so it is
 * marked PREPARED: parsed and planned once per connection (a fifth of PostgreSQL's CPU per sign-in).
 */
export async function storeSignInWithCode(store: Handle, w: SignInWrites): Promise<boolean> {
  const { browserSession: b, signedInto: c, session: s, code: k } = w;
  const rows = await sql<{ tenant_id: string | null }>`${sql.raw(PREPARED)}
with done as (
  update authorization_requests
     set completed_at = ${w.now}::bigint
   where id = ${w.requestId}::text and org_id = ${w.orgId}::text
     and completed_at is null and resource_grant is null
     and ${webhookFingerprintSql(w.orgId)} is not distinct from ${w.webhooks}::text
     and (${w.console}::boolean or exists (
       select 1 from tenant_members as m join tenants as t on t.id = m.tenant_id
        where m.user_id = ${w.userId}::text))
  returning id
), tenant as (
  select case when ${w.console}::boolean then null else (
    select m.tenant_id from tenant_members as m join tenants as t on t.id = m.tenant_id
     where m.user_id = ${w.userId}::text
     order by m.created_at, t.id limit 1) end as id
    from done
), browser as (
  insert into browser_sessions (token_hash, org_id, user_id, amr, acr, created_at, expires_at, actor_id)
  select ${b.tokenHash}::text, ${b.orgId}::text, ${b.userId}::text, ${JSON.stringify(b.amr)}::text,
         ${b.acr}::text, ${b.createdAt}::bigint, ${b.expiresAt}::bigint, ${b.actorId}::text
    from done
), login as (
  insert into audit_events (${AUDIT_COLUMNS})
  select ${auditValues(w.login, sql`${JSON.stringify(w.login.data)}::text`)} from done
), signed_into as (
  insert into session_clients
    (sid, org_id, browser_session, user_id, client_id, backchannel_logout_uri,
     backchannel_logout_session_required, frontchannel_logout_uri, frontchannel_logout_session_required,
     created_at)
  select ${c.sid}::text, ${c.orgId}::text, ${c.browserSession}::text, ${c.userId}::text,
         ${c.clientId}::text, ${c.backchannelLogout?.uri ?? null}::text,
         ${c.backchannelLogout?.sessionRequired === true ? 1 : 0}::integer,
         ${c.frontchannelLogout?.uri ?? null}::text,
         ${c.frontchannelLogout?.sessionRequired === true ? 1 : 0}::integer, ${c.createdAt}::bigint
    from done
), opened as (
  insert into oauth_sessions
    (id, org_id, user_id, client_id, tenant_id, amr, acr, scope, created_at, expires_at, revoked_at,
     actor_id, auth_time, browser_session, resources, claims, sid)
  select ${s.id}::text, ${s.orgId}::text, ${s.userId}::text, ${s.clientId}::text, t.id,
         ${JSON.stringify(s.amr)}::text, ${s.acr}::text, ${s.scope}::text, ${s.createdAt}::bigint,
         ${s.expiresAt}::bigint, ${s.revokedAt}::bigint, ${s.actorId}::text, ${s.authTime}::bigint,
         ${b.tokenHash}::text, ${s.resources.length === 0 ? null : JSON.stringify(s.resources)}::text,
         ${json(s.claims)}::text, ${s.sid ?? null}::text
    from tenant as t
), created as (
  insert into audit_events (${AUDIT_COLUMNS})
  select ${auditValues(
    w.created,
    sql`replace(${JSON.stringify(w.created.data)}::text, ${JSON.stringify(TENANT_SLOT)}::text,
                coalesce(to_json(t.id)::text, 'null'))`,
  )}
    from tenant as t
), code as (
  insert into authorization_codes
    (code_hash, org_id, client_id, session_id, redirect_uri, redirect_uri_given, code_challenge,
     created_at, expires_at, used_at, nonce, dpop_jkt)
  select ${k.codeHash}::text, ${k.orgId}::text, ${k.clientId}::text, ${k.sessionId}::text,
         ${k.redirectUri}::text, ${k.redirectUriGiven ? 1 : 0}::integer, ${k.codeChallenge}::text,
         ${k.createdAt}::bigint, ${k.expiresAt}::bigint, ${k.usedAt}::bigint, ${k.nonce}::text,
         ${k.dpopJkt}::text
    from done
)
select id as tenant_id from tenant`.execute(opened(store));
  return rows.rows.length > 0;
}
