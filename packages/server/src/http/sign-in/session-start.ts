import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CompletedAuthentication, DEVICE_COOKIE_TTL_MS } from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import type { PageContext } from './context.js';
import { sendOutcome } from './flow.js';
import { keepPasswordProof } from './second-step-cookie.js';

/**
 * The end of every way in (password, sign-up, second factor, passkey, connections, impersonation),
 * rendered: the domain's completeAuthentication decided everything; this sets what it asks the
 * browser to keep and sends it on.
 */

/**
 * Sets the cookies of a completed authentication: the login cookie of the browser session and the
 * device cookie when a sign-in was made, the password's proof when a second step is due first.
 */
export function keepSignIn(
  ctx: PageContext,
  org: Org,
  reply: FastifyReply,
  completed: CompletedAuthentication,
) {
  const { signedIn, outcome } = completed;
  if (signedIn !== null) {
    ctx.cookies.set(reply, ctx.cookies.session, signedIn.secret, { maxAgeMs: signedIn.maxAgeMs });
    if (signedIn.deviceToken !== null) {
      const options = { maxAgeMs: DEVICE_COOKIE_TTL_MS, signed: false };
      ctx.cookies.set(reply, ctx.cookies.device, signedIn.deviceToken, options);
    }
  }
  if (outcome.kind === 'second-factor') keepPasswordProof(ctx, reply, org, outcome.userId, outcome.until);
}

/** Sets the cookies of a completed authentication and sends the browser where it goes next (303). */
export function sendSignIn(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  completed: CompletedAuthentication,
) {
  keepSignIn(ctx, org, reply, completed);
  return sendOutcome(ctx, org, request, reply, completed.outcome, 303);
}
