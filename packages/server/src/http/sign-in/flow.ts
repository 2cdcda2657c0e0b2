import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import {
  type AuthorizationAnswer,
  answerDestination,
  loadAuthorizationRequest,
  type PendingAuthorization,
  type SignInOutcome,
} from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { nameSituation } from '../error-code-header.js';
import { type PageContext, pageLink } from './context.js';
import { sendFormPost } from './form-post.js';
import { formTargetOf } from './respond.js';
import { SECOND_STEP_PATHS } from './second-step-cookie.js';

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
  return pending ? [formTargetOf(answerDestination(pending))] : [];
}

/** The query that keeps a page in its authorization request (none outside one). */
export function requestParams(pending: PendingAuthorization | null): Record<string, string> {
  return pending ? { req: pending.request.id } : {};
}

/** The query of a page of the flow: its request, if any. */
const pageParams = (requestId: string | null): Record<string, string> =>
  requestId === null ? {} : { req: requestId };

/** An outcome the browser can follow as a link: the answer's redirect, or the page's address. */
export function outcomeLink(ctx: PageContext, request: FastifyRequest, outcome: SignInOutcome): string {
  switch (outcome.kind) {
    case 'answer':
      // The `link` channel never answers with a form_post (the login page of the request does).
      return 'redirect' in outcome.answer ? outcome.answer.redirect : pageLink(ctx, request, '/login', {});
    case 'page':
      return pageLink(ctx, request, `/${outcome.page}`, pageParams(outcome.requestId));
    case 'second-factor':
      return pageLink(ctx, request, SECOND_STEP_PATHS[outcome.step], pageParams(outcome.requestId));
  }
}

/**
 * Renders what the domain decided (domain/sign-in/sign-in-outcome.ts): the answer to the client (a
 * redirect with `status`, or the form_post page), or a redirect to the page of the flow.
 */
export function sendOutcome(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: SignInOutcome,
  status = 302,
) {
  if (outcome.kind === 'answer') return sendAnswer(reply, org, outcome.answer, status);
  return reply.redirect(outcomeLink(ctx, request, outcome), status);
}
