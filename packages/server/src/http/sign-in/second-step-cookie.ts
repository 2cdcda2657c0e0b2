import type { FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import { SECOND_FACTOR_PENDING_TTL_MS } from '../../domain/tokens-policy.js';
import type { Org } from '../../domain/types.js';
import type { PageContext } from './context.js';

/**
 * The cookie that carries a password's success to the second step (`org|user|expiry`, signed, 10
 * minutes, path /login): it is not a sign-in, and nothing is issued until the second step succeeds.
 */

/** The second step's pages, by the step the domain says is due. */
export const SECOND_STEP_PATHS = { challenge: '/login/second-factor', enrol: '/login/enrol' } as const;

const COOKIE_PATH = '/login';

/** Keeps the password's success for `userId` until `until`. */
export function keepPasswordProof(
  ctx: PageContext,
  reply: FastifyReply,
  org: Org,
  userId: string,
  until: number,
) {
  ctx.cookies.set(reply, ctx.cookies.secondFactor, `${org.id}|${userId}|${until}`, {
    path: COOKIE_PATH,
    maxAgeMs: SECOND_FACTOR_PENDING_TTL_MS,
  });
}

/** The user whose password was just checked on this browser for `org`, while it is good; else null. */
export function passwordProofOf(ctx: PageContext, org: Org, request: FastifyRequest): string | null {
  const [orgId, userId, expires] = ctx.cookies.read(request, ctx.cookies.secondFactor)?.split('|') ?? [];
  if (orgId !== org.id || !userId || !(Number(expires) > clock.now())) return null;
  return userId;
}

/** Ends the password's success once the second step is taken. */
export const clearPasswordProof = (ctx: PageContext, reply: FastifyReply) =>
  ctx.cookies.clear(reply, ctx.cookies.secondFactor, COOKIE_PATH);
