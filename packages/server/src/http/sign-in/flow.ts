import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { fail } from '../../domain/errors.js';
import {
  type AuthorizationAnswer,
  answerDestination,
  isDeviceSignIn,
  loadPendingSignIn,
  type PendingSignIn,
  pendingIdOf,
  type SignInOutcome,
} from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { nameSituation } from '../error-code-header.js';
import { type PageContext, pageLink, queryValue } from './context.js';
import { sendFormPost } from './form-post.js';
import { pendingOfPage } from './page-pending.js';
import { formTargetOf } from './respond.js';
import { SECOND_STEP_PATHS } from './second-step-cookie.js';

/** Sends an answer: a redirect (`status`), or the form_post page. */
export function sendAnswer(reply: FastifyReply, org: Org, answer: AuthorizationAnswer, status = 302) {
  if (answer.situation !== undefined) nameSituation(reply, answer.situation);
  if ('redirect' in answer) return reply.redirect(answer.redirect, status);
  return sendFormPost(reply, org.name, answer.formPost);
}

const EXPIRED = 'This sign-in link has expired or was already used.';

/**
 * The pending authorization request named by `req`, or a page explaining it is gone. The read the
 * page's language and brand made already is reused (page-pending.ts).
 */
export async function pendingRequest(deps: Deps, org: Org, id: string | undefined, request: FastifyRequest) {
  const pending = id === undefined ? null : await pendingOfPage(deps, org, request, id);
  return pending !== null && !isDeviceSignIn(pending) ? pending : fail('sign_in.request.expired', EXPIRED);
}

/**
 * The pending sign-in a login, sign-up or second-step page was opened for (an authorization
 * request, or a device authorization: PendingSignIn); null when the page was opened on its own.
 * With the page's `request`, as pendingRequest.
 */
export async function optionalRequest(
  deps: Deps,
  org: Org,
  id: string | undefined,
  request?: FastifyRequest,
) {
  if (id === undefined) return null;
  const pending =
    request === undefined
      ? await loadPendingSignIn(deps, org, id)
      : await pendingOfPage(deps, org, request, id);
  return pending ?? fail('sign_in.request.expired', EXPIRED);
}

/** The `req` a page was opened with, and its pending sign-in (optionalRequest); null outside one. */
export async function pageRequest({
  ctx,
  org,
  request,
}: {
  ctx: PageContext;
  org: Org;
  request: FastifyRequest;
}) {
  const reqId = queryValue(request, 'req');
  return { reqId, pending: await optionalRequest(ctx.deps, org, reqId, request) };
}

/**
 * A form that completes an authorization request redirects to the client: CSP must allow it. A
 * device authorization's pages stay on this host.
 */
export function formTargets(pending: PendingSignIn | null): string[] {
  return pending && !isDeviceSignIn(pending) ? [formTargetOf(answerDestination(pending))] : [];
}

/** The query that keeps a page in its pending sign-in (none outside one). */
export function requestParams(pending: PendingSignIn | null): Record<string, string> {
  return pending ? { req: pendingIdOf(pending) } : {};
}

/** The id a page's CSRF token is bound to: its pending sign-in's, '' outside one. */
export const pendingBinding = (pending: PendingSignIn | null): string =>
  pending === null ? '' : pendingIdOf(pending);

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
