import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { issuerOf } from '../../domain/directory/issuers.js';
import { fail } from '../../domain/errors.js';
import {
  loadAuthorizationRequest,
  type PendingAuthorization,
} from '../../domain/sign-in/authorization-requests.js';
import { authenticationOf, type BrowserSession } from '../../domain/sign-in/browser-sessions.js';
import { consentRequired } from '../../domain/sign-in/consents.js';
import { issueAuthorizationCode } from '../../domain/tokens/authorization-codes.js';
import type { Org } from '../../domain/types.js';
import { type PageContext, pageLink } from './context.js';
import { formTargetOf } from './respond.js';

export type AuthorizationResult = { code: string } | { error: string; description: string };

/**
 * The redirect back to the client (RFC 6749 §4.1.2 / §4.1.2.1) with `state` echoed and `iss`
 * (RFC 9207), so the client can tell which server answered.
 */
export function authorizationResponse(
  deps: Deps,
  org: Org,
  target: { redirectUri: string; state: string | null },
  result: AuthorizationResult,
): string {
  const url = new URL(target.redirectUri);
  if ('code' in result) url.searchParams.append('code', result.code);
  else {
    url.searchParams.append('error', result.error);
    url.searchParams.append('error_description', result.description);
  }
  if (target.state !== null) url.searchParams.append('state', target.state);
  url.searchParams.append('iss', issuerOf(deps.config, org));
  return url.href;
}

/** The pending authorization request named by `req`, or a page explaining it is gone. */
export async function pendingRequest(deps: Deps, org: Org, id: string | undefined) {
  const pending = id === undefined ? null : await loadAuthorizationRequest(deps, org, id);
  return pending ?? fail('invalid_request', 'This sign-in link has expired or was already used.');
}

/** The request a login or sign-up page was opened for; null when the page was opened on its own. */
export async function optionalRequest(deps: Deps, org: Org, id: string | undefined) {
  return id === undefined ? null : pendingRequest(deps, org, id);
}

/** A form that completes an authorization request redirects to the client: CSP must allow it. */
export function formTargets(pending: PendingAuthorization | null): string[] {
  return pending ? [formTargetOf(pending.request.redirectUri)] : [];
}

/** The query that keeps a page in its authorization request (none outside one). */
export function requestParams(pending: PendingAuthorization | null): Record<string, string> {
  return pending ? { req: pending.request.id } : {};
}

/**
 * Where an authorization request goes next: sign in, consent, or — when both are settled —
 * back to the client with a code.
 */
export async function nextStep(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  pending: PendingAuthorization,
  session: BrowserSession | null,
): Promise<string> {
  const req = pending.request;
  if (session === null) return pageLink(ctx, request, '/login', { req: req.id });
  // An impersonating owner acts with the org's authority: consent is the user's to give, so none
  // is asked for or recorded.
  const impersonated = session.actorId !== null;
  if (!impersonated && (await consentRequired(ctx.deps.db, pending.client, session.user.id, req.scope))) {
    return pageLink(ctx, request, '/consent', { req: req.id });
  }
  const code = await issueAuthorizationCode(ctx.deps, org, pending, authenticationOf(session), false);
  return authorizationResponse(ctx.deps, org, { redirectUri: req.redirectUri, state: req.state }, { code });
}
