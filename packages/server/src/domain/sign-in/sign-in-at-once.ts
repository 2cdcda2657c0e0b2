import { newId, newSecret } from '../../crypto/random.js';
import { signInStatementRuns, storeSignInWithCode, TENANT_SLOT } from '../../storage/repos/sign-in-writes.js';
import { auditEntryOf } from '../audit/audit.js';
import { clock } from '../clock.js';
import { afterCommit } from '../purge-schedule.js';
import { sessionCreated, sessionToOpen } from '../sessions/sessions.js';
import { BROWSER_SESSION_TTL_MS } from '../tokens-policy.js';
import type { Org } from '../types.js';
import { quietWebhooks } from '../webhooks/routing-cache.js';
import { codeRecord, purgeUsedCodes, sessionInputFor } from './authorization-codes.js';
import type { PendingAuthorization } from './authorization-requests.js';
import { codeAnswer } from './authorization-steps.js';
import { authenticationOf, browserSessionToStart, purgeExpiredBrowserSessions } from './browser-sessions.js';
import type { SignInDeps } from './deps.js';
import { issueDeviceToken } from './device-cookies.js';
import { nextStepOf } from './next-step.js';
import type { Authenticated, CompletedAuthentication } from './sign-in-outcome.js';

/**
 * completeAuthentication's common case in one statement on PostgreSQL (docs/decisions.md, "A
 * sign-in's round trips"): someone signed in, no second step due, and their authorization request
 * goes straight on to its code. What the transaction would decide is decided here first, with the
 * same function (nextStepOf: an unmet essential acr is not the code); what only the database knows (the request still open,
 * its grant undecided, the user's tenant, the org's webhooks) the statement checks
 * (storage/repos/sign-in-writes.ts). Null when it stored nothing — an impersonation, a request
 * naming resources or decided on a consent page, a step that is not the code, an org whose webhooks
 * take a sign-in's entries, SQLite — and the caller's transaction runs and decides, as before.
 */
export async function signInWithCodeAtOnce(
  deps: SignInDeps,
  org: Org,
  proven: Authenticated,
  pending: PendingAuthorization,
): Promise<CompletedAuthentication | null> {
  const { user, method } = proven;
  const { request } = pending;
  if (!signInStatementRuns(deps.store) || method.impersonation !== undefined) return null;
  if (request.resources.length > 0 || request.grant !== null) return null;
  const webhooks = quietWebhooks(org.id, ['user.login', 'session.created']);
  if (webhooks === undefined) return null;
  const now = clock.now();
  const start = browserSessionToStart(org, user, method, now);
  if ((await nextStepOf(deps, pending, start.session)).kind !== 'code') return null;
  const auth = authenticationOf(start.session);
  const sid = newId('sid');
  const session = sessionToOpen(org, sessionInputFor(pending, auth, [], now), TENANT_SLOT, sid, now);
  const code = newSecret('tac_');
  const stored = await storeSignInWithCode(deps.store, {
    orgId: org.id,
    console: org.isConsole,
    requestId: request.id,
    userId: user.id,
    now,
    webhooks,
    browserSession: start.record,
    login: auditEntryOf(start.login).record,
    signedInto: {
      sid,
      orgId: org.id,
      browserSession: start.session.id,
      userId: user.id,
      clientId: request.clientId,
      backchannelLogout: pending.client.backchannelLogout,
      frontchannelLogout: pending.client.frontchannelLogout,
      createdAt: now,
    },
    session,
    created: auditEntryOf(sessionCreated(session)).record,
    code: codeRecord(org, request, session.id, code, now),
  });
  if (!stored) return null;
  await afterCommit(purgeExpiredBrowserSessions(deps, now));
  await afterCommit(purgeUsedCodes(deps, now));
  const maxAgeMs = Math.min(BROWSER_SESSION_TTL_MS, start.session.expiresAt - clock.now());
  const signedIn = {
    session: start.session,
    secret: start.secret,
    maxAgeMs,
    deviceToken: issueDeviceToken(deps, org, user.id),
  };
  return { signedIn, outcome: codeAnswer(deps, org, pending, code) };
}
