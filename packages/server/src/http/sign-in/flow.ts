import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import { issuerOf } from '../../domain/issuers.js';
import {
  type AnswerTarget,
  type AuthorizationAnswer,
  type AuthorizationResult,
  authenticationOf,
  authorizationAnswer,
  type BrowserSession,
  closeAuthorizationRequest,
  issueAuthorizationCode,
  loadAuthorizationRequest,
  nextStepOf,
  type PendingAuthorization,
} from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { nameSituation } from '../error-code-header.js';
import { type PageContext, pageLink } from './context.js';
import { sendFormPost } from './form-post.js';
import { formTargetOf } from './respond.js';

/** The answer to the client for `result`, in the request's response mode, with `state` and `iss`. */
export function answerFor(deps: Deps, org: Org, target: AnswerTarget, result: AuthorizationResult) {
  return authorizationAnswer(issuerOf(deps.config, org), target, result);
}

/** Where a pending request's answer goes. */
export const answerTargetOf = (pending: PendingAuthorization): AnswerTarget => ({
  redirectUri: pending.request.redirectUri,
  state: pending.request.state,
  responseMode: pending.request.responseMode,
});

/** Sends an answer: a redirect (`status`), or the form_post page. */
export function sendAnswer(reply: FastifyReply, org: Org, answer: AuthorizationAnswer, status = 302) {
  if (answer.situation !== undefined) nameSituation(reply, answer.situation);
  if ('redirect' in answer) return reply.redirect(answer.redirect, status);
  return sendFormPost(reply, org.name, answer.formPost);
}

/** The pending authorization request named by `req`, or a page explaining it is gone. */
export async function pendingRequest(deps: Deps, org: Org, id: string | undefined) {
  const pending = id === undefined ? null : await loadAuthorizationRequest(deps, org, id);
  return pending ?? fail('sign_in.request.expired', 'This sign-in link has expired or was already used.');
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
 * Where an authorization request goes next (domain/sign-in/next-step.ts): sign in, consent, or —
 * when both are settled — back to the client with a code; with `prompt=none`, back with the error
 * instead of a page (the request is closed then).
 */
export async function nextStep(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  pending: PendingAuthorization,
  session: BrowserSession | null,
  hintedUserId: string | null = null,
): Promise<AuthorizationAnswer> {
  const step = await nextStepOf(ctx.deps, pending, session, hintedUserId);
  const req = { req: pending.request.id };
  switch (step.kind) {
    case 'login':
      return { redirect: pageLink(ctx, request, '/login', req) };
    case 'consent':
      return { redirect: pageLink(ctx, request, '/consent', req) };
    case 'error':
      await closeAuthorizationRequest(ctx.deps, pending);
      return answerFor(ctx.deps, org, answerTargetOf(pending), step);
    case 'code': {
      const code = await issueAuthorizationCode(
        ctx.deps,
        org,
        pending,
        authenticationOf(step.session),
        false,
      );
      return answerFor(ctx.deps, org, answerTargetOf(pending), { code });
    }
  }
}

/**
 * nextStep as a link the browser can follow (the passkey script navigates to it): a form_post
 * answer cannot be a link, so the browser goes to /login of the request, which — now signed in —
 * sends it.
 */
export async function nextStepLink(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  pending: PendingAuthorization,
  session: BrowserSession,
): Promise<string> {
  if (pending.request.responseMode === 'form_post')
    return pageLink(ctx, request, '/login', { req: pending.request.id });
  const answer = await nextStep(ctx, org, request, pending, session);
  return 'redirect' in answer
    ? answer.redirect
    : pageLink(ctx, request, '/login', { req: pending.request.id });
}
