import { newSecret, sha256 } from '../../crypto/random.js';
import {
  findBrowserSession,
  insertBrowserSession,
  purgeBrowserSessions,
} from '../../storage/repos/browser-sessions.js';
import { purgeSessionClients } from '../../storage/repos/session-clients.js';
import { findUserById } from '../../storage/repos/users.js';
import { type AuditInput, recordAudit } from '../audit/audit.js';
import { userSnapshot } from '../audit/snapshots.js';
import { clock } from '../clock.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import {
  ACR_FEDERATED,
  ACR_MFA,
  ACR_PASSWORD,
  AMR_FEDERATED,
  AMR_OTP,
  AMR_PASSWORD,
  BROWSER_SESSION_TTL_MS,
} from '../tokens-policy.js';
import type { BrowserSessionRecord, Org, User } from '../types.js';
import type { Authentication } from './authorization-codes.js';
import type { SignInDeps } from './deps.js';
import { orgRequiresMfa } from './second-factor.js';

/**
 * The hosted pages' sign-in (the login cookie), one per browser and org. OAuth sessions are
 * opened from it when an authorization request completes; it is not itself a token.
 */
export interface BrowserSession {
  /** SHA-256 of the cookie secret: safe to bind CSRF tokens to, never a credential. */
  id: string;
  user: User;
  amr: string[];
  acr: string;
  /** An impersonated sign-in: the acting owner's console user id. */
  actorId: string | null;
  expiresAt: number;
  /** When the person signed in (the session's start): `auth_time` of ID tokens. */
  authTime: number;
}

/** How a person signed in: `amr` and `acr`, or an owner acting for them (impersonation). */
export interface SignInMethod {
  amr: string[];
  acr: string;
  impersonation?: { id: string; actorId: string; reason: string; clientId: string; expiresAt: number };
  /** Recorded with `user.login` as given (e.g. which passkey signed in); never a secret. */
  audit?: Readonly<Record<string, string>>;
}

export const PASSWORD_SIGN_IN: SignInMethod = Object.freeze({ amr: [AMR_PASSWORD], acr: ACR_PASSWORD });
/** A password and a second factor (a TOTP or recovery code, or an enrolment just confirmed). */
export const MFA_SIGN_IN: SignInMethod = Object.freeze({ amr: [AMR_PASSWORD, AMR_OTP], acr: ACR_MFA });
/** Through an org's connection (DESIGN §17): the upstream signed the person in. */
export const FEDERATED_SIGN_IN: SignInMethod = Object.freeze({ amr: [AMR_FEDERATED], acr: ACR_FEDERATED });

/**
 * Starts a browser session after a sign-in and records `user.login` with it (an impersonation:
 * with the owner as actor, and the reason). Returns the secret for the cookie (only its hash is
 * stored) and the session.
 */
export async function startBrowserSession(
  deps: SignInDeps,
  org: Org,
  user: User,
  method: SignInMethod = PASSWORD_SIGN_IN,
): Promise<{ secret: string; session: BrowserSession }> {
  const now = clock.now();
  const start = browserSessionToStart(org, user, method, now);
  await deps.unitOfWork.run(async (tx) => {
    await insertBrowserSession(tx, start.record);
    await recordAudit(tx, start.login);
  });
  await purgeExpiredBrowserSessions(deps, now);
  return { secret: start.secret, session: start.session };
}

/** What startBrowserSession stores: the session (its secret drawn now) and its `user.login` entry. */
export function browserSessionToStart(org: Org, user: User, method: SignInMethod, now: number) {
  const secret = newSecret('tbs_');
  const { amr, acr, impersonation } = method;
  const expiresAt = impersonation?.expiresAt ?? now + BROWSER_SESSION_TTL_MS;
  const actorId = impersonation?.actorId ?? null;
  const record: BrowserSessionRecord = {
    tokenHash: sha256(secret),
    orgId: org.id,
    userId: user.id,
    amr,
    acr,
    createdAt: now,
    expiresAt,
    actorId,
  };
  const extra = impersonation
    ? {
        impersonation: {
          id: impersonation.id,
          actorId: impersonation.actorId,
          reason: impersonation.reason,
          clientId: impersonation.clientId,
          expiresAt: new Date(impersonation.expiresAt).toISOString(),
        },
      }
    : {};
  const login: AuditInput = {
    orgId: org.id,
    entity: 'user',
    verb: 'login',
    actor: { kind: 'user', id: impersonation?.actorId ?? user.id },
    at: now,
    data: { ...userSnapshot(user), amr, acr, ...method.audit, ...extra },
  };
  const session: BrowserSession = { id: record.tokenHash, user, amr, acr, actorId, expiresAt, authTime: now };
  return { secret, record, login, session };
}

/** The browser sessions past their end, and the clients they signed into, deleted at most once a minute. */
export async function purgeExpiredBrowserSessions(deps: SignInDeps, now: number): Promise<void> {
  await purgeAtMostEveryMinute(deps.store, 'browser_sessions', now, async (db) => {
    await purgeBrowserSessions(db, now);
    // The clients of sign-ins that expired: no sign-out follows an expiry (nothing is sent).
    await purgeSessionClients(db, now - BROWSER_SESSION_TTL_MS);
  });
}

/** What an authorization request completed from this browser session carries into its OAuth session. */
export function authenticationOf(session: BrowserSession): Authentication {
  const base = {
    userId: session.user.id,
    amr: session.amr,
    acr: session.acr,
    authTime: session.authTime,
    browserSession: session.id,
  };
  // An impersonated session ends with its browser session: one hour after the link was opened.
  return session.actorId === null ? base : { ...base, actorId: session.actorId, notAfter: session.expiresAt };
}

/** The live browser session behind a cookie secret, or null. */
export async function resumeBrowserSession(
  deps: SignInDeps,
  org: Org,
  secret: string,
): Promise<BrowserSession | null> {
  const id = sha256(secret);
  const stored = await findBrowserSession(deps.store, org.id, id, clock.now());
  if (!stored) return null;
  // A password-only sign-in stops counting once the org requires a second factor. A federated one
  // is the upstream's to secure (docs/enterprise-sign-in.md).
  const ownFactors = stored.acr !== ACR_MFA && stored.acr !== ACR_FEDERATED;
  if (stored.actorId === null && ownFactors && (await orgRequiresMfa(deps, org))) return null;
  const user = await findUserById(deps.store, stored.userId);
  if (!user) return null;
  return {
    id,
    user,
    amr: stored.amr,
    acr: stored.acr,
    actorId: stored.actorId,
    expiresAt: stored.expiresAt,
    authTime: stored.createdAt,
  };
}
