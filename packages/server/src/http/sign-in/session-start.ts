import type { FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import {
  DEVICE_COOKIE_TTL_MS,
  issueDeviceToken,
  type PendingAuthorization,
  type SignInMethod,
  startBrowserSession,
} from '../../domain/sign-in/index.js';
import { BROWSER_SESSION_TTL_MS } from '../../domain/tokens-policy.js';
import type { Org, User } from '../../domain/types.js';
import { type PageContext, pageLink } from './context.js';
import { nextStep, sendAnswer } from './flow.js';

/**
 * The end of every way in (password, second factor, enrolment, impersonation): the login cookie
 * of a new browser session, then on with the authorization request.
 */

/**
 * Sets the login cookie of a new browser session (recording `user.login`), and a new device cookie
 * naming the user (not for an impersonation: the owner's browser is not the user's).
 */
export async function startSignedInSession(
  ctx: PageContext,
  org: Org,
  reply: FastifyReply,
  user: User,
  method: SignInMethod,
) {
  const { secret, session } = await startBrowserSession(ctx.deps, org, user, method);
  const maxAgeMs = Math.min(BROWSER_SESSION_TTL_MS, session.expiresAt - clock.now());
  ctx.cookies.set(reply, ctx.cookies.session, secret, { maxAgeMs });
  if (!method.impersonation) {
    const device = issueDeviceToken(ctx.deps, org, user.id);
    ctx.cookies.set(reply, ctx.cookies.device, device, { maxAgeMs: DEVICE_COOKIE_TTL_MS, signed: false });
  }
  return session;
}

/** Signs the person in with `method` and moves the authorization request on (or shows /login). */
export async function completeSignIn(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  pending: PendingAuthorization | null,
  method: SignInMethod,
) {
  const session = await startSignedInSession(ctx, org, reply, user, method);
  const next = pending
    ? await nextStep(ctx, org, request, pending, session)
    : { redirect: pageLink(ctx, request, '/login', {}) };
  return sendAnswer(reply, org, next, 303);
}
