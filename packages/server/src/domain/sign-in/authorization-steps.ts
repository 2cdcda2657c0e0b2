import { issuerOf } from '../issuers.js';
import type { Org } from '../types.js';
import { issueAuthorizationCode } from './authorization-codes.js';
import { closeAuthorizationRequest, type PendingAuthorization } from './authorization-requests.js';
import {
  type AuthorizationAnswer,
  type AuthorizationResult,
  answerTargetOf,
  authorizationAnswer,
} from './authorize/response-mode.js';
import { authenticationOf, type BrowserSession } from './browser-sessions.js';
import type { SignInDeps } from './deps.js';
import { nextStepOf } from './next-step.js';
import type { SignInOutcome } from './sign-in-outcome.js';

/**
 * The code flow's steps after the person is known: where a pending authorization request goes
 * (next-step.ts decides), and the consent page's decision. Each ends in a SignInOutcome: a page of
 * the flow, or the answer to the client, whose code is issued (or whose request is closed with an
 * error) here.
 */

/** The answer to `pending`'s client: its redirect URI, `state` and response mode, `iss` of `org`. */
const answerTo = (
  deps: SignInDeps,
  org: Org,
  pending: PendingAuthorization,
  result: AuthorizationResult,
): SignInOutcome => {
  const answer: AuthorizationAnswer = authorizationAnswer(
    issuerOf(deps.config, org),
    answerTargetOf(pending.request),
    result,
  );
  return { kind: 'answer', answer };
};

/**
 * Where an authorization request goes with this browser's sign-in (`session`, null when nobody is
 * signed in): the login page, the consent page, or back to the client with a code; with
 * `prompt=none`, back with the error instead of a page (the request is closed then).
 * `hintedUserId`: whom `id_token_hint` names (prompt=none only).
 */
export async function continueAuthorization(
  deps: SignInDeps,
  org: Org,
  pending: PendingAuthorization,
  session: BrowserSession | null,
  hintedUserId: string | null = null,
): Promise<SignInOutcome> {
  const step = await nextStepOf(deps, pending, session, hintedUserId);
  const requestId = pending.request.id;
  switch (step.kind) {
    case 'login':
      return { kind: 'page', page: 'login', requestId };
    case 'consent':
      return { kind: 'page', page: 'consent', requestId };
    case 'error':
      await closeAuthorizationRequest(deps, pending);
      return answerTo(deps, org, pending, step);
    case 'code': {
      const auth = authenticationOf(step.session);
      const code = await issueAuthorizationCode(deps, org, pending, auth, false);
      return answerTo(deps, org, pending, { code });
    }
  }
}

/** The answer that hands `pending`'s client the code issued for it. */
export const codeAnswer = (deps: SignInDeps, org: Org, pending: PendingAuthorization, code: string) =>
  answerTo(deps, org, pending, { code });

/** A person's answer on a consent form (an authorization request's or a device's): let the client in, or not. */
export type Decision = 'allow' | 'deny';

/**
 * The consent page's Allow or Deny, by the person signed in for the request: Deny closes the
 * request and answers `access_denied`; Allow records the consent (not an impersonating owner's:
 * it is the user's to give) and answers with a code.
 */
export async function decideConsent(
  deps: SignInDeps,
  org: Org,
  pending: PendingAuthorization,
  session: BrowserSession,
  decision: Decision,
): Promise<SignInOutcome> {
  if (decision === 'deny') {
    await closeAuthorizationRequest(deps, pending);
    return answerTo(deps, org, pending, {
      situation: 'authorize.access_denied',
      error: 'access_denied',
      description: 'the user declined the request',
    });
  }
  const consented = session.actorId === null;
  const code = await issueAuthorizationCode(deps, org, pending, authenticationOf(session), consented);
  return answerTo(deps, org, pending, { code });
}
