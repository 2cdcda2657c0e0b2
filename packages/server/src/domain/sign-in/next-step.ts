import { type ErrorSituation, fail } from '../errors.js';
import type { AuthorizationRequest, Org } from '../types.js';
import type { PendingAuthorization } from './authorization-requests.js';
import { acrSatisfies, subjectAllowed } from './authorize/claims-parameter.js';
import { signInRecentEnough } from './authorize/max-age.js';
import { promptsNothing } from './authorize/prompt.js';
import type { BrowserSession } from './browser-sessions.js';
import { consentRequired } from './consents.js';
import type { SignInDeps } from './deps.js';
import { readIdTokenHint } from './id-token-hints.js';

/**
 * Where an authorization request goes next: the login page, the consent page, or back to the
 * client with a code. With `prompt=none` no page may be shown (OIDC Core §3.1.2.1): what would need
 * one is an error for the client instead — `login_required` (nobody signed in, a sign-in older than
 * `max_age` allows, or `id_token_hint` naming someone else) or `consent_required`. Whatever the
 * prompt, a `claims` parameter (§5.5) insisting on another `sub`, or on an essential `acr` the
 * sign-in did not reach, is answered with an error too.
 */
export type NextStep =
  | { kind: 'login' }
  | { kind: 'consent' }
  | { kind: 'code'; session: BrowserSession }
  | { kind: 'error'; situation: ErrorSituation; error: string; description: string };

/** Whether the browser's sign-in counts for this request (present, and as recent as it asks). */
export function signedInFor(
  request: AuthorizationRequest,
  session: BrowserSession | null,
): session is BrowserSession {
  return session !== null && signInRecentEnough(request, session.authTime);
}

export async function nextStepOf(
  deps: SignInDeps,
  pending: PendingAuthorization,
  session: BrowserSession | null,
  hintedUserId: string | null = null,
): Promise<NextStep> {
  const request = pending.request;
  const silent = promptsNothing(request.prompt);
  if (!signedInFor(request, session)) {
    if (!silent) return { kind: 'login' };
    const description = session === null ? 'nobody is signed in' : 'the sign-in is older than max_age allows';
    const situation =
      session === null ? 'authorize.login_required.signed_out' : 'authorize.login_required.too_old';
    return { kind: 'error', situation, error: 'login_required', description };
  }
  if (silent && hintedUserId !== null && hintedUserId !== session.user.id) {
    return {
      kind: 'error',
      situation: 'authorize.login_required.hint_mismatch',
      error: 'login_required',
      description: 'id_token_hint names someone else',
    };
  }
  // OIDC Core §5.5.1: a `sub` asked for with a value is answered for that person only.
  if (!subjectAllowed(request.claims, session.user.id)) {
    return {
      kind: 'error',
      situation: 'authorize.login_required.sub_mismatch',
      error: 'login_required',
      description: 'the claims parameter names someone else',
    };
  }
  // §5.5.1.1: an essential `acr` the sign-in did not reach fails the request (no step-up here).
  if (!acrSatisfies(request.claims, session.acr)) {
    return {
      kind: 'error',
      situation: 'authorize.acr.unmet',
      error: 'unmet_authentication_requirements',
      description: 'the sign-in did not reach an essential acr value',
    };
  }
  // An impersonating owner acts with the org's authority: consent is the user's to give, so none
  // is asked for or recorded.
  const impersonated = session.actorId !== null;
  if (!impersonated && (await consentRequired(deps.store, pending.client, session.user.id, request))) {
    if (!silent) return { kind: 'consent' };
    return {
      kind: 'error',
      situation: 'authorize.consent_required',
      error: 'consent_required',
      description: 'the person has not allowed this application',
    };
  }
  return { kind: 'code', session };
}

/**
 * The person `id_token_hint` names, read only with `prompt=none` (elsewhere the hint is ignored: the
 * login page decides who signs in). A hint that is not an ID token of this issuer is `invalid_request`.
 */
export async function hintedUserId(
  deps: SignInDeps,
  org: Org,
  prompt: readonly string[],
  idTokenHint: string | undefined,
): Promise<string | null> {
  if (idTokenHint === undefined || !promptsNothing(prompt)) return null;
  const hint = await readIdTokenHint(deps, org, idTokenHint);
  return (
    hint?.userId ?? fail('authorize.id_token_hint.foreign', 'id_token_hint is not an ID token of this issuer')
  );
}
