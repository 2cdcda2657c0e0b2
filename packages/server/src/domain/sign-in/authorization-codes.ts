import { pkceS256Challenge } from '../../crypto/pkce.js';
import { newSecret, sha256 } from '../../crypto/random.js';
import {
  consumeAuthorizationCode,
  findAuthorizationCode,
  insertAuthorizationCode,
  purgeAuthorizationCodes,
  redeemPlainCode,
} from '../../storage/repos/authorization-codes.js';
import { completeAuthorizationRequestWithGrant } from '../../storage/repos/authorization-requests.js';
import { clock } from '../clock.js';
import { ownScopes } from '../directory/scopes.js';
import { fail } from '../errors.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import { sessionAudience, type TokenAudience } from '../resources/resource-tokens.js';
import {
  isLive,
  liveSession,
  type NewSession,
  type OAuthSession,
  openSession,
  revokeSession,
} from '../sessions/sessions.js';
import { mayUseGrant, requireGrant } from '../tokens/client-grants.js';
import { grantedTokens } from '../tokens/id-tokens.js';
import { addRefreshToken, newRefreshToken, type TokenSet } from '../tokens/user-tokens.js';
import { AUTHORIZATION_CODE_TTL_MS, REFRESH_TOKEN_TTL_MS, USED_CODE_RETENTION_MS } from '../tokens-policy.js';
import type { AuthorizationCode, AuthorizationRequest, Client, Org, User } from '../types.js';
import type { PendingAuthorization } from './authorization-requests.js';
import { acrSatisfies } from './authorize/claims-parameter.js';
import { type CodeProblem, verifierProblem } from './authorize/pkce.js';
import { recordConsent } from './consents.js';
import type { SignInDeps } from './deps.js';
import { grantToIssue } from './resource-consent.js';

export interface Authentication {
  userId: string;
  amr: string[];
  acr: string;
  /** Impersonation: the acting owner; the session then ends with the browser session (`notAfter`). */
  actorId?: string | null;
  notAfter?: number;
  /** When the person signed in (ID tokens' `auth_time`); now when not given. */
  authTime?: number;
  /** The browser sign-in the code is issued from (BrowserSession.id): signing out there ends the session. */
  browserSession?: string;
}

/**
 * The OAuth session an authorization code opens for `auth` (the transaction below and the one
 * statement of sign-in-at-once.ts open the same).
 */
export function sessionInputFor(
  pending: PendingAuthorization,
  auth: Authentication,
  resources: NewSession['resources'],
  now: number,
): NewSession {
  const { request } = pending;
  return {
    userId: auth.userId,
    clientId: request.clientId,
    amr: auth.amr,
    acr: auth.acr,
    scope: ownScopes(request.scope),
    resources,
    actorId: auth.actorId ?? null,
    ...(auth.notAfter === undefined ? {} : { notAfter: auth.notAfter }),
    authTime: auth.authTime ?? now,
    browserSession: auth.browserSession ?? null,
    claims: request.claims,
    backchannelLogout: pending.client.backchannelLogout,
    frontchannelLogout: pending.client.frontchannelLogout,
  };
}

/**
 * Completes an authorization request: stores the consent just given (if any), opens the OAuth
 * session with the resource grant decided for the request (resource-consent.ts) and issues a 60-second, single-use code for it (stored as its SHA-256), all in one
 * transaction. A request completes once, even when the consent form is submitted twice.
 */
export async function issueAuthorizationCode(
  deps: SignInDeps,
  org: Org,
  pending: PendingAuthorization,
  auth: Authentication,
  consented: boolean,
): Promise<string> {
  const now = clock.now();
  const code = newSecret('tac_');
  const { request } = pending;
  // nextStepOf answered the client already; this holds for a sign-in that changed since (another tab).
  if (!acrSatisfies(request.claims, auth.acr))
    fail('authorize.acr.unmet', 'the sign-in did not reach an essential acr value');
  await deps.unitOfWork.run(async (tx) => {
    // The request's stored resource grant comes back with its completion (one statement).
    const completed =
      (await completeAuthorizationRequestWithGrant(tx, request.id, now)) ??
      fail('sign_in.request.completed', 'this sign-in was already completed');
    if (consented) await recordConsent(tx, org, auth.userId, pending.client, request.scope, now);
    const resources = await grantToIssue(tx, org, request, auth.userId, completed.grant);
    const session = await openSession(tx, org, sessionInputFor(pending, auth, resources, now), now);
    await insertAuthorizationCode(tx, codeRecord(org, request, session.id, code, now));
  });
  await purgeUsedCodes(deps, now);
  return code;
}

/** The stored form of `code` (its hash), issued for `request` to open `sessionId`. */
export const codeRecord = (
  org: Org,
  request: AuthorizationRequest,
  sessionId: string,
  code: string,
  now: number,
): AuthorizationCode => ({
  codeHash: sha256(code),
  orgId: org.id,
  clientId: request.clientId,
  sessionId,
  redirectUri: request.redirectUri,
  redirectUriGiven: request.redirectUriGiven,
  codeChallenge: request.codeChallenge,
  createdAt: now,
  expiresAt: now + AUTHORIZATION_CODE_TTL_MS,
  usedAt: null,
  nonce: request.nonce,
  dpopJkt: request.dpopJkt,
});

/** Codes past their retention, deleted at most once a minute. */
export const purgeUsedCodes = (deps: SignInDeps, now: number): Promise<void> =>
  purgeAtMostEveryMinute(deps.store, 'authorization_codes', now, (db) =>
    purgeAuthorizationCodes(db, now - USED_CODE_RETENTION_MS),
  );

export interface CodeExchange {
  /** As sent: required, but a client that may not use this grant is told that first. */
  code: string | undefined;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  /** RFC 8707 `resource`: picks one of the resources the authorization granted (DESIGN §15). */
  resource?: string | undefined;
  /** The thumbprint of the key of the request's DPoP proof (RFC 9449 §5): the tokens are bound to it. */
  dpopJkt?: string | null;
}

/** Why a consumed code cannot be exchanged, or null when it can. */
function codeProblem(stored: AuthorizationCode, input: CodeExchange, now: number): CodeProblem | null {
  if (stored.expiresAt <= now)
    return { situation: 'token.code.expired', error: 'the authorization code has expired' };
  // RFC 6749 §4.1.3: required and identical when the authorization request carried it.
  const redirectOk =
    input.redirectUri === stored.redirectUri || (!stored.redirectUriGiven && input.redirectUri === undefined);
  if (!redirectOk)
    return {
      situation: 'token.code.redirect_uri_mismatch',
      error: 'redirect_uri does not match the authorization request',
    };
  // RFC 9449 §10: a code bound to a key is redeemed only with a proof of that key.
  if (stored.dpopJkt !== null && stored.dpopJkt !== (input.dpopJkt ?? null))
    return {
      situation: 'token.code.dpop_key',
      error: 'the authorization code is bound to a DPoP key this request did not prove',
    };
  return verifierProblem(stored.codeChallenge, input.codeVerifier);
}

/**
 * The authorization_code grant. The code is consumed first, atomically, so a failed exchange
 * burns it; presenting a used code revokes the session it opened (RFC 6749 §4.1.2).
 */
export async function redeemAuthorizationCode(
  deps: SignInDeps,
  org: Org,
  { client, activeKid }: { client: Client; activeKid?: string | null | undefined },
  input: CodeExchange,
): Promise<TokenSet> {
  requireGrant(client, 'authorization_code');
  const code = input.code ?? fail('token.code.missing', 'code is required');
  const now = clock.now();
  const codeHash = sha256(code);
  const signer = await deps.keyRing.signer(org, activeKid);
  const actor = { kind: 'client', id: client.id } as const;
  const plain = await redeemPlain(deps, org, client, codeHash, input, now);
  // Failures are returned, not thrown, so the revocations they cause are committed.
  const outcome =
    plain ??
    (await deps.unitOfWork.run(async (tx): Promise<Outcome> => {
      const stored = await consumeAuthorizationCode(tx, org.id, client.id, codeHash, now);
      if (!stored) {
        const known = await findAuthorizationCode(tx, org.id, codeHash);
        if (!known || known.clientId !== client.id)
          return { situation: 'token.code.invalid', error: 'the authorization code is invalid' } as const;
        await revokeSession(tx, known.sessionId, actor, now);
        return {
          situation: 'token.code.reused',
          error: 'the authorization code was already used; its session is revoked',
        } as const;
      }
      const problem = codeProblem(stored, input, now);
      const session = problem === null ? await liveSession(tx, stored.sessionId, now) : null;
      if (session === null) {
        await revokeSession(tx, stored.sessionId, actor, now);
        return (
          problem ??
          ({ situation: 'token.code.session_ended', error: 'the session of this code has ended' } as const)
        );
      }
      // Thrown, `invalid_target` rolls the code's consumption back: the code may be exchanged again.
      const audience = org.isConsole ? null : await sessionAudience(tx, org, session, input.resource);
      const refreshToken = await addRefreshToken(tx, client, session, now, undefined, input.dpopJkt ?? null);
      return { session, nonce: stored.nonce, refreshToken, audience, user: undefined };
    }));
  if (outcome.situation !== undefined) return fail(outcome.situation, outcome.error);
  return grantedTokens(deps, signer, org, outcome, now, input.dpopJkt ?? null, outcome.nonce);
}

/** What an exchange comes to: a refusal (returned, so a revocation it made is committed), or the tokens' makings. */
type Outcome =
  | CodeProblem
  | {
      situation?: undefined;
      session: OAuthSession;
      nonce: string | null;
      refreshToken: string | undefined;
      audience: TokenAudience | null;
      /** The session's user when read with it (null: deleted); undefined: the ID token reads it. */
      user: User | null | undefined;
    };

/**
 * The exchange with nothing to decide, in one statement (storage/repos/authorization-codes.ts, on
 * PostgreSQL): no `resource` asked outside the console, a well-formed verifier or none, and the code
 * unused, unexpired, of this client, its redirect URI, key and challenge as sent, its session live and
 * granted no resources. Null when the statement took nothing (or on SQLite): the transaction then
 * consumes and decides. The row taken is checked again with the transaction's own rules (codeProblem,
 * isLive; pinned equal to the statement's by a test); should they ever disagree, the session is
 * revoked rather than tokens issued against them.
 */
async function redeemPlain(
  deps: SignInDeps,
  org: Org,
  client: Client,
  codeHash: string,
  input: CodeExchange,
  now: number,
): Promise<Outcome | null> {
  if (!org.isConsole && input.resource !== undefined) return null;
  const challenge = input.codeVerifier === undefined ? null : pkceS256Challenge(input.codeVerifier);
  if (input.codeVerifier !== undefined && challenge === null) return null;
  const refreshToken = mayUseGrant(client, 'refresh_token') ? newRefreshToken() : undefined;
  const dpopJkt = input.dpopJkt ?? null;
  const redeemed = await redeemPlainCode(deps.store, {
    codeHash,
    orgId: org.id,
    clientId: client.id,
    redirectUri: input.redirectUri ?? null,
    challenge,
    dpopJkt,
    console: org.isConsole,
    now,
    refreshHash: refreshToken === undefined ? null : sha256(refreshToken),
    refreshNotAfter: now + REFRESH_TOKEN_TTL_MS,
    refreshJkt: client.kind === 'public' ? dpopJkt : null,
  });
  if (redeemed === null) return null;
  const { code, session, user } = redeemed;
  const agrees =
    code.clientId === client.id &&
    codeProblem(code, input, now) === null &&
    isLive(session, now) &&
    (org.isConsole || session.resources.length === 0);
  if (!agrees) {
    await deps.unitOfWork.run((tx) => revokeSession(tx, session.id, { kind: 'client', id: client.id }, now));
    return { situation: 'token.code.session_ended', error: 'the session of this code has ended' };
  }
  return { session, nonce: code.nonce, refreshToken, audience: null, user };
}
