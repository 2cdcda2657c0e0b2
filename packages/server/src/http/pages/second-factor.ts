import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PendingAuthorization } from '../../domain/authorization-requests.js';
import { clock } from '../../domain/clock.js';
import {
  confirmEnrolment,
  orgRequiresMfa,
  pendingEnrolment,
  secondFactorStatus,
  verifySecondFactor,
} from '../../domain/second-factor.js';
import { ACR_MFA, AMR_OTP, AMR_PASSWORD, SECOND_FACTOR_PENDING_TTL_MS } from '../../domain/tokens-policy.js';
import type { Org, User } from '../../domain/types.js';
import { findUserById } from '../../storage/repos/users.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { pendingRequest } from './flow.js';
import { CSRF_REJECTED, completeSignIn, formTargets, startSignedInSession } from './login.js';
import { type PageOptions, sendErrorPage, sendPage } from './respond.js';
import { challengeView, qrCodeSvg, recoveryCodesView, setupView } from './second-factor-views.js';

export const MFA_SIGN_IN = Object.freeze({ amr: [AMR_PASSWORD, AMR_OTP], acr: ACR_MFA });

const CHALLENGE_PATH = '/login/second-factor';
const ENROL_PATH = '/login/enrol';
const COOKIE_PATH = '/login';
const WRONG_CODE = 'That code is not right. Check your app and try again.';
const EXPIRED = 'Your sign-in has expired. Sign in again.';

/**
 * Where a correct password goes when a second factor is due: the code challenge for an enrolled
 * user, enrolment when the org requires a factor and the user has none; null when none is due.
 * The password's success is kept in a signed cookie (`org|user|expiry`, 10 minutes, path /login):
 * it is not a sign-in, and nothing is issued until the second step succeeds.
 */
export async function secondFactorRedirect(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  pending: PendingAuthorization | null,
): Promise<string | null> {
  const { enrolled } = await secondFactorStatus(ctx.deps, user.id);
  const path = enrolled ? CHALLENGE_PATH : (await orgRequiresMfa(ctx.deps, org)) ? ENROL_PATH : null;
  if (path === null) return null;
  const expires = clock.now() + SECOND_FACTOR_PENDING_TTL_MS;
  ctx.cookies.set(reply, ctx.cookies.secondFactor, `${org.id}|${user.id}|${expires}`, {
    path: COOKIE_PATH,
    maxAgeMs: SECOND_FACTOR_PENDING_TTL_MS,
  });
  return pageLink(ctx, request, path, pending ? { req: pending.request.id } : {});
}

/** The user whose password was just checked on this browser, or null. */
async function passwordUser(ctx: PageContext, org: Org, request: FastifyRequest): Promise<User | null> {
  const [orgId, userId, expires] = ctx.cookies.read(request, ctx.cookies.secondFactor)?.split('|') ?? [];
  if (orgId !== org.id || !userId || !(Number(expires) > clock.now())) return null;
  return findUserById(ctx.deps.db, userId);
}

async function stepContext(ctx: PageContext, org: Org, request: FastifyRequest) {
  const reqId = queryValue(request, 'req');
  const pending = reqId === undefined ? null : await pendingRequest(ctx.deps, org, reqId);
  const params: Record<string, string> = pending ? { req: pending.request.id } : {};
  return { reqId: reqId ?? '', pending, params, user: await passwordUser(ctx, org, request) };
}

type Step = Awaited<ReturnType<typeof stepContext>> & { user: User };

function throttledOptions(retryAfterS: number): { error: string; options: PageOptions } {
  const minutes = Math.ceil(retryAfterS / 60);
  return {
    error: `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    options: { status: 429, headers: { 'retry-after': String(retryAfterS) } },
  };
}

function renderChallenge(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  step: Step,
  error: string | null,
  options: PageOptions = {},
) {
  const body = challengeView({
    action: pageLink(ctx, request, CHALLENGE_PATH, step.params),
    csrf: ctx.csrf.token(request, reply, 'second-factor', [step.user.id, step.reqId]),
    email: step.user.email,
    error,
  });
  return sendPage(reply, org.name, 'Two-step verification', body, {
    formTargets: formTargets(step.pending),
    ...options,
  });
}

async function renderEnrol(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  step: Step,
  error: string | null,
  options: PageOptions = {},
) {
  const enrolment = await pendingEnrolment(ctx.deps, org, step.user);
  const body = setupView({
    action: pageLink(ctx, request, ENROL_PATH, step.params),
    csrf: ctx.csrf.token(request, reply, 'enrol', [step.user.id, step.reqId]),
    hidden: {},
    secret: enrolment.secret,
    qr: await qrCodeSvg(enrolment.uri),
    error,
    intro: `${org.name} asks everyone to use a second step when signing in.`,
  });
  return sendPage(reply, org.name, 'Set up two-step verification', body, options);
}

/**
 * The second step of the login page: GET and POST /login/second-factor (a TOTP code or a recovery
 * code, throttled per user and IP) and, where the org requires a factor the user does not have,
 * GET and POST /login/enrol. Success signs in with `amr ["pwd","otp"]` and `acr …:mfa`.
 */
export function secondFactorPages(app: FastifyInstance, ctx: PageContext) {
  const start = async (org: Org, request: FastifyRequest, reply: FastifyReply) => {
    const step = await stepContext(ctx, org, request);
    if (step.user === null) {
      reply.redirect(pageLink(ctx, request, '/login', step.params), 303);
      return null;
    }
    return step as Step;
  };

  app.get(
    CHALLENGE_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const step = await start(org, request, reply);
      return step && renderChallenge(ctx, org, request, reply, step, null);
    }),
  );

  app.post(
    CHALLENGE_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const step = await stepContext(ctx, org, request);
      if (step.user === null) return sendErrorPage(reply, org.name, 401, EXPIRED);
      const user = step.user;
      if (!ctx.csrf.check(request, 'second-factor', [user.id, step.reqId], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, CSRF_REJECTED);
      }
      const outcome = await verifySecondFactor(ctx.deps, org, user.id, field(form, 'code'), request.ip);
      if (!outcome.ok) {
        if (outcome.reason === 'throttled') {
          const { error, options } = throttledOptions(outcome.retryAfterS);
          return renderChallenge(ctx, org, request, reply, { ...step, user }, error, options);
        }
        return renderChallenge(ctx, org, request, reply, { ...step, user }, WRONG_CODE, { status: 400 });
      }
      ctx.cookies.clear(reply, ctx.cookies.secondFactor, COOKIE_PATH);
      return completeSignIn(ctx, org, request, reply, user, step.pending, MFA_SIGN_IN);
    }),
  );

  app.get(
    ENROL_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const step = await start(org, request, reply);
      if (step === null) return;
      if ((await secondFactorStatus(ctx.deps, step.user.id)).enrolled) {
        return reply.redirect(pageLink(ctx, request, CHALLENGE_PATH, step.params), 303);
      }
      return renderEnrol(ctx, org, request, reply, step, null);
    }),
  );

  app.post(
    ENROL_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const step = await stepContext(ctx, org, request);
      if (step.user === null) return sendErrorPage(reply, org.name, 401, EXPIRED);
      const user = step.user;
      if (!ctx.csrf.check(request, 'enrol', [user.id, step.reqId], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, CSRF_REJECTED);
      }
      const code = field(form, 'code').replace(/\s/g, '');
      const outcome = await confirmEnrolment(ctx.deps, org, user, code, request.ip);
      if (!outcome.ok) {
        if (outcome.reason === 'throttled') {
          const { error, options } = throttledOptions(outcome.retryAfterS);
          return renderEnrol(ctx, org, request, reply, { ...step, user }, error, options);
        }
        return renderEnrol(ctx, org, request, reply, { ...step, user }, WRONG_CODE, { status: 400 });
      }
      ctx.cookies.clear(reply, ctx.cookies.secondFactor, COOKIE_PATH);
      await startSignedInSession(ctx, org, reply, user, MFA_SIGN_IN);
      // The codes are shown once; "Continue" then completes the authorization request.
      const next = pageLink(ctx, request, '/login', step.params);
      const label = step.pending ? `Continue to ${step.pending.client.name}` : 'Continue';
      const body = recoveryCodesView('recoveryCodes' in outcome ? outcome.recoveryCodes : [], next, label);
      return sendPage(reply, org.name, 'Save your recovery codes', body);
    }),
  );
}
