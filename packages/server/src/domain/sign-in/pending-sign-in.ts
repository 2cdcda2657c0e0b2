import type { Org } from '../types.js';
import { loadAuthorizationRequest, type PendingAuthorization } from './authorization-requests.js';
import { continueAuthorization } from './authorization-steps.js';
import type { BrowserSession } from './browser-sessions.js';
import type { SignInDeps } from './deps.js';
import {
  DEVICE_AUTHORIZATION_PREFIX,
  loadDeviceAuthorization,
  type PendingDevice,
} from './device-authorizations.js';
import { signedInFor } from './next-step.js';
import type { SignInOutcome } from './sign-in-outcome.js';

/**
 * The kinds of pending sign-in the hosted pages carry in their `req` parameter: a code-flow
 * authorization request (`arq_…`) or a device authorization (`dva_…`, RFC 8628). Every way of
 * signing in hands its kind on to completeAuthentication, which continues each its own way.
 */
export type PendingSignIn = PendingAuthorization | PendingDevice;

export const isDeviceSignIn = (pending: PendingSignIn): pending is PendingDevice => 'device' in pending;

/** The id the pages carry in `req` (and bind their CSRF tokens to). */
export const pendingIdOf = (pending: PendingSignIn): string =>
  isDeviceSignIn(pending) ? pending.device.id : pending.request.id;

/** The pending sign-in an id names, of this org, with its client; null when unknown, expired or done. */
export function loadPendingSignIn(deps: SignInDeps, org: Org, id: string): Promise<PendingSignIn | null> {
  return id.startsWith(DEVICE_AUTHORIZATION_PREFIX)
    ? loadDeviceAuthorization(deps, org, id)
    : loadAuthorizationRequest(deps, org, id);
}

/** The email the login page starts with: the request's `login_hint` (a device names none). */
export const loginHintOf = (pending: PendingSignIn): string | null =>
  isDeviceSignIn(pending) ? null : pending.request.loginHint;

/** The device kind's next step once someone is signed in: its confirmation page, always (RFC 8628 §5.4). */
export const deviceConfirmationPage = (pending: PendingDevice): SignInOutcome => ({
  kind: 'page',
  page: 'device',
  requestId: pending.device.id,
});

/**
 * Where a pending sign-in goes when this browser is signed in already (`session`): the code flow's
 * next step when the sign-in counts for the request (authorization-steps.ts), a device's
 * confirmation page; null when the person must sign in first.
 */
export async function resumePendingSignIn(
  deps: SignInDeps,
  org: Org,
  pending: PendingSignIn,
  session: BrowserSession | null,
): Promise<SignInOutcome | null> {
  if (isDeviceSignIn(pending)) return session === null ? null : deviceConfirmationPage(pending);
  if (!signedInFor(pending.request, session)) return null;
  return continueAuthorization(deps, org, pending, session);
}
