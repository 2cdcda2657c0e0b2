import type { Handle } from '../../storage/handle.js';
import { clock } from '../clock.js';
import { purgesAfterCommit } from '../purge-schedule.js';
import { BROWSER_SESSION_TTL_MS, SECOND_FACTOR_PENDING_TTL_MS } from '../tokens-policy.js';
import type { Org } from '../types.js';
import { continueAuthorization } from './authorization-steps.js';
import { startBrowserSession } from './browser-sessions.js';
import type { SignInDeps } from './deps.js';
import { issueDeviceToken } from './device-cookies.js';
import {
  deviceConfirmationPage,
  isDeviceSignIn,
  type PendingSignIn,
  pendingIdOf,
} from './pending-sign-in.js';
import { secondStepDue } from './second-factor.js';
import { signInWithCodeAtOnce } from './sign-in-at-once.js';
import type { AnswerChannel, Authenticated, CompletedAuthentication, SignedIn } from './sign-in-outcome.js';

export type { Authenticated, CompletedAuthentication } from './sign-in-outcome.js';

/**
 * The one way on after any way of signing in (password, sign-up, second factor and its enrolment,
 * passkey, OIDC and SAML connections, account linking, impersonation): everything from what the
 * person proved to the answer.
 *
 * 1. A password alone goes on to the second factor when the user has one or the org requires one
 *    (second-factor.ts): nothing is signed in until that step succeeds.
 * 2. The browser session starts (`user.login` recorded; browser-sessions.ts), with a device token
 *    naming the person (not for an impersonation).
 * 3. The pending authorization request (null: none) goes on with this
 *    sign-in (authorization-steps.ts: max_age, the `claims` parameter's `sub` and essential `acr`,
 *    consent, the resource grant decided for it, the code) — by `channel` (sign-in-outcome.ts).
 *    Without a request, the login page (which says who is signed in).
 *
 * A device authorization (RFC 8628, device-authorizations.ts) is the other kind of pending sign-in
 * (pending-sign-in.ts): at step 3 it goes on to its confirmation page, which always asks the person
 * whether the device may have access; steps 1 and 2 are the same for both kinds.
 */
export async function completeAuthentication(
  deps: SignInDeps,
  org: Org,
  proven: Authenticated,
  pending: PendingSignIn | null,
  channel: AnswerChannel = 'response',
): Promise<CompletedAuthentication> {
  const { user, method } = proven;
  const requestId = pending === null ? null : pendingIdOf(pending);
  const due = await secondStepDue(deps, org, user, method.acr);
  if (due !== null) {
    const until = clock.now() + SECOND_FACTOR_PENDING_TTL_MS;
    return {
      signedIn: null,
      outcome: { kind: 'second-factor', step: due, userId: user.id, until, requestId },
    };
  }
  const later =
    pending !== null &&
    !isDeviceSignIn(pending) &&
    (channel === 'login-page' || (channel === 'link' && pending.request.responseMode === 'form_post'));
  // Straight on to the code: on PostgreSQL in one statement when nothing is left to decide.
  if (pending !== null && !isDeviceSignIn(pending) && !later) {
    const atOnce = await signInWithCodeAtOnce(deps, org, proven, pending);
    if (atOnce !== null) return atOnce;
  }
  // The browser session and what the request goes on to (its code) in one transaction: on
  // PostgreSQL a BEGIN and a COMMIT fewer, each a round trip (docs/decisions.md).
  let purges = async () => {};
  const completed = await deps.unitOfWork.run(async (tx): Promise<CompletedAuthentication> => {
    purges = purgesAfterCommit(tx, deps.store);
    const within = joined(deps, tx);
    const { secret, session } = await startBrowserSession(within, org, user, method);
    const maxAgeMs = Math.min(BROWSER_SESSION_TTL_MS, session.expiresAt - clock.now());
    const deviceToken = method.impersonation ? null : issueDeviceToken(deps, org, user.id);
    const signedIn: SignedIn = { session, secret, maxAgeMs, deviceToken };
    if (pending === null) return { signedIn, outcome: { kind: 'page', page: 'login', requestId: null } };
    // A device authorization (RFC 8628): its confirmation page, whatever the channel.
    if (isDeviceSignIn(pending)) return { signedIn, outcome: deviceConfirmationPage(pending) };
    if (later) return { signedIn, outcome: { kind: 'page', page: 'login', requestId: pending.request.id } };
    return { signedIn, outcome: await continueAuthorization(within, org, pending, session) };
  });
  // The expired browser sessions and used codes the steps asked to delete, once the sign-in has
  // committed: inside it a DELETE held its locks until the commit, and a failed one rolled it back.
  await purges();
  return completed;
}

/**
 * `deps` inside the transaction `tx`: its reads and writes on `tx`, and a unit of work that joins
 * `tx` rather than opening another, so the steps below completeAuthentication (each its own unit of
 * work when called alone) commit with it, and nothing waits for a second connection meanwhile.
 */
function joined(deps: SignInDeps, tx: Handle): SignInDeps {
  return { ...deps, store: tx, unitOfWork: { run: (work) => work(tx) } };
}
