import { sha256 } from '../../crypto/random.js';
import type { Handle } from '../../storage/handle.js';
import {
  findSessionForRefresh,
  setOAuthSessionResources,
  setOAuthSessionScope,
} from '../../storage/repos/oauth-sessions.js';
import {
  consumeRefreshToken,
  findRefreshToken,
  rotatePlainRefreshToken,
} from '../../storage/repos/refresh-tokens.js';
import { clock } from '../clock.js';
import { scopeList } from '../directory/console-scopes.js';
import { withinScope } from '../directory/scopes.js';
import { type ErrorSituation, fail } from '../errors.js';
import { sessionAudience, type TokenAudience } from '../resources/resource-tokens.js';
import { currentTenant, isLive, type OAuthSession, revokeSession } from '../sessions/sessions.js';
import { REFRESH_TOKEN_TTL_MS } from '../tokens-policy.js';
import type { Client, Org, RefreshToken, User } from '../types.js';
import { requireGrant } from './client-grants.js';
import type { TokensDeps } from './deps.js';
import { grantedTokens } from './id-tokens.js';
import { reuseVerdict } from './refresh-reuse-grace.js';
import { purgeExpiredRefreshTokens } from './refresh-token-purge.js';
import { addRefreshToken, newRefreshToken, type TokenSet } from './user-tokens.js';

/**
 * The refresh_token grant: rotation on every use. The presented token is consumed atomically,
 * so of two concurrent refreshes exactly one rotates it. Presenting a token that was already
 * rotated revokes the whole session (RFC 9700 §4.14.2), except the token rotated last, within
 * the reuse grace (TESSERA_REFRESH_REUSE_GRACE) and while its successor is unused: that is a
 * retry whose answer was lost, or the second of two refreshes at once. A confidential client is
 * given a new pair in the same session while the unreceived successor is retired; a public client,
 * which cannot prove it is the holder, is refused and the successor stays (refresh-reuse-grace.ts).
 *
 * A `scope` may only narrow the session's scope (RFC 6749 §6): the session keeps the narrower one
 * from then on, so no later refresh widens it again. A wider one is `invalid_scope`, and the
 * presented token stays unused.
 *
 * `resource` (RFC 8707) picks one of the resources the authorization granted (absent: the first;
 * another is `invalid_target`); its scopes are recomputed from the person's roles now (DESIGN §15).
 *
 * `dpopJkt`: the key of the request's DPoP proof (RFC 9449 §5), or null. A token bound to a key is
 * refused unless the request proved that key (no reuse verdict, no revocation: see provesKey); the
 * new access token is bound to the proof's key, and so is a public client's new refresh token.
 *
 * `activeKid` is the org's signing key id when the caller read it with the client
 * (authenticateSigningClient); undefined leaves it to the key ring. The successor token is drawn
 * before the transaction, so consuming the presented one also records what replaces it (one
 * write): the transaction holds SQLite's one connection, or a pool connection, for every statement.
 */
export async function rotateRefreshToken(
  deps: TokensDeps,
  org: Org,
  { client, activeKid }: { client: Client; activeKid?: string | null | undefined },
  presented: string,
  scope?: string,
  resource?: string,
  dpopJkt: string | null = null,
): Promise<TokenSet> {
  requireGrant(client, 'refresh_token');
  const now = clock.now();
  const tokenHash = sha256(presented);
  const signer = await deps.keyRing.signer(org, activeKid);
  const actor = { kind: 'client', id: client.id } as const;
  const successor = newRefreshToken();
  const plain =
    (scope === undefined || scope.trim() === '') && (org.isConsole || resource === undefined)
      ? await rotatePlain(deps, org, client, tokenHash, now, successor, dpopJkt)
      : null;
  // Failures are returned, not thrown, so a reuse revocation is committed.
  const outcome =
    plain ??
    (await deps.unitOfWork.run(async (tx): Promise<Outcome> => {
      let consumed = await consumeRefreshToken(tx, client.id, tokenHash, now, sha256(successor));
      // Thrown, a key the request did not prove rolls the consumption back: the holder keeps its token.
      if (consumed && !provesKey(consumed, dpopJkt)) failWrongKey();
      if (!consumed) {
        const known = await findRefreshToken(tx, tokenHash);
        if (!known || known.clientId !== client.id)
          return { situation: 'token.refresh.invalid', error: 'the refresh token is invalid' } as const;
        // Without the key, presenting a used token proves nothing: refused, the session not revoked.
        if (!provesKey(known, dpopJkt)) failWrongKey();
        const presenter = { clientId: client.id, authenticated: client.kind === 'confidential', dpopJkt };
        const grace = deps.config.refreshReuseGraceMs;
        const verdict = await reuseVerdict(tx, known, presenter, now, grace, sha256(successor));
        if (verdict === 'retired') {
          return {
            situation: 'token.refresh.retired',
            error: 'the refresh token was replaced: the token before it was presented again',
          } as const;
        }
        if (verdict === 'refused') {
          return {
            situation: 'token.refresh.just_rotated',
            error: 'the refresh token was just rotated by another request',
          } as const;
        }
        if (verdict === 'reuse') {
          await revokeSession(tx, known.sessionId, actor, now);
          return {
            situation: 'token.refresh.reused',
            error: 'the refresh token was already used; its session is revoked',
          } as const;
        }
        consumed = known;
      }
      if (consumed.expiresAt <= now)
        return { situation: 'token.refresh.expired', error: 'the refresh token has expired' } as const;
      // The session, the user's membership of its tenant and the user, in one read.
      const found = await findSessionForRefresh(tx, consumed.sessionId);
      if (found === null || !isLive(found.session, now) || found.session.orgId !== org.id)
        return sessionEnded;
      const picked = org.isConsole ? undefined : resource;
      const narrower = await narrowed(tx, found.session, scope, picked);
      const session = await currentTenant(tx, org, narrower, now, found.inTenant);
      if (session === null)
        return { situation: 'token.refresh.no_tenant', error: 'the user belongs to no tenant' } as const;
      const audience = org.isConsole ? null : await sessionAudience(tx, org, session, picked);
      const refreshToken = await addRefreshToken(tx, client, session, now, successor, dpopJkt);
      return { session, refreshToken, audience, user: found.user };
    }));
  if (outcome.situation !== undefined) return fail(outcome.situation, outcome.error);
  await purgeExpiredRefreshTokens(deps.store, now);
  // OIDC Core §12.2: a fresh ID token of the same sign-in, without a nonce.
  return grantedTokens(deps, signer, org, outcome, now, dpopJkt, null);
}

/**
 * The rotation with nothing to decide, in one statement (storage/repos/refresh-tokens.ts, on
 * PostgreSQL): no `scope` or `resource` asked (the callers' condition), and the token unused, unexpired, of this client, its
 * key proved, its session live, of this org, granted no resources and with its user in its tenant.
 * Null when the statement took nothing (or on SQLite): the transaction then decides. The row taken
 * is checked again with the transaction's own rules (the same as the statement's, pinned by a
 * test); should they ever disagree, the session is ended rather than a token issued against them.
 */
async function rotatePlain(
  deps: TokensDeps,
  org: Org,
  client: Client,
  tokenHash: string,
  now: number,
  successor: string,
  dpopJkt: string | null,
): Promise<Outcome | null> {
  const rotated = await rotatePlainRefreshToken(deps.store, {
    clientId: client.id,
    tokenHash,
    orgId: org.id,
    dpopJkt,
    console: org.isConsole,
    now,
    successorHash: sha256(successor),
    successorNotAfter: now + REFRESH_TOKEN_TTL_MS,
    successorJkt: client.kind === 'public' ? dpopJkt : null,
  });
  if (rotated === null) return null;
  const { token, session, inTenant, user } = rotated;
  const agrees =
    provesKey(token, dpopJkt) &&
    token.expiresAt > now &&
    isLive(session, now) &&
    session.orgId === org.id &&
    session.resources.length === 0 &&
    (org.isConsole || (session.tenantId !== null && inTenant));
  if (!agrees) {
    await deps.unitOfWork.run((tx) => revokeSession(tx, session.id, { kind: 'system' }, now));
    return sessionEnded;
  }
  return { session, refreshToken: successor, audience: null, user };
}

/** What a rotation comes to: a refusal (returned, so a revocation it made is committed), or the new pair. */
type Outcome =
  | { situation: ErrorSituation; error: string }
  | {
      situation?: undefined;
      session: OAuthSession;
      refreshToken: string | undefined;
      audience: TokenAudience | null;
      user: User | null;
    };

const sessionEnded = {
  situation: 'token.refresh.session_ended',
  error: 'the session of this refresh token has ended',
} as const;

/**
 * Whether the request proved the key a refresh token is bound to (RFC 9449 §5: a public client's
 * is bound to the key of the proof it was issued with). An unbound token needs no proof.
 */
const provesKey = (token: Pick<RefreshToken, 'dpopJkt'>, dpopJkt: string | null): boolean =>
  token.dpopJkt === null || token.dpopJkt === dpopJkt;

const failWrongKey = (): never =>
  fail(
    'token.refresh.dpop_key',
    'the refresh token is bound to a DPoP key: send a DPoP proof signed with that key',
  );

/**
 * The session with its scope narrowed to `scope` (stored), or unchanged when none is given. Thrown
 * inside the rotation's transaction, `invalid_scope` rolls the token's consumption back.
 * A session granted resources narrows the picked resource's scopes with the rest (narrowResources).
 */
async function narrowed(
  tx: Handle,
  session: OAuthSession,
  scope: string | undefined,
  resource: string | undefined,
): Promise<OAuthSession> {
  if (scope === undefined || scope.trim() === '') return session;
  if (session.resources.length > 0) return narrowResources(tx, session, scope, resource);
  if (!withinScope(scope, session.scope)) {
    return fail('token.refresh.scope_widened', 'scope may only narrow the scope the session was granted');
  }
  const narrower = scopeList(scope).join(' ');
  if (narrower === session.scope) return session;
  await setOAuthSessionScope(tx, session.id, narrower);
  return { ...session, scope: narrower };
}

/**
 * `scope` on the refresh of a session granted resources: every scope named must be one of the
 * session's own (identity) scopes or one granted for the picked resource (else `invalid_scope`);
 * both are narrowed to what is named, and stay so. Other resources keep their grant.
 */
async function narrowResources(
  tx: Handle,
  session: OAuthSession,
  scope: string,
  resource: string | undefined,
): Promise<OAuthSession> {
  const index = resource === undefined ? 0 : session.resources.findIndex((g) => g.resource === resource);
  const grant = session.resources[index];
  if (!grant) return fail('token.resource.not_granted', 'resource was not granted by this authorization');
  const asked = scopeList(scope);
  const own = scopeList(session.scope);
  if (!asked.every((s) => own.includes(s) || grant.scopes.includes(s))) {
    return fail('token.refresh.scope_widened', 'scope may only narrow the scope the session was granted');
  }
  const nextScope = own.filter((s) => asked.includes(s)).join(' ');
  const resources = session.resources.map((g, i) =>
    i === index ? { resource: g.resource, scopes: g.scopes.filter((s) => asked.includes(s)) } : g,
  );
  await setOAuthSessionScope(tx, session.id, nextScope);
  await setOAuthSessionResources(tx, session.id, resources);
  return { ...session, scope: nextScope, resources };
}
