import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import {
  confirmEnrolment,
  orgRequiresMfa,
  type PendingAuthorization,
  pendingEnrolment,
  secondFactorStatus,
  userAwaitingSecondFactor,
  verifySecondFactor,
} from '../../domain/sign-in/index.js';
import { ACR_MFA, AMR_OTP, AMR_PASSWORD, SECOND_FACTOR_PENDING_TTL_MS } from '../../domain/tokens-policy.js';
import type { Org, User } from '../../domain/types.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { formTargets, optionalRequest, requestParams } from './flow.js';
import { CSRF_REJECTED, type PageOptions, sendErrorPage, sendPage } from './respond.js';
import {
  challengeView,
  codeProblem,
  qrCodeSvg,
  recoveryCodesView,
  setupView,
} from './second-factor-views.js';
import { completeSignIn, startSignedInSession } from './session-start.js';

export const MFA_SIGN_IN = Object.freeze({ amr: [AMR_PASSWORD, AMR_OTP], acr: ACR_MFA });

const CHALLENGE_PATH = '/login/second-factor';
const ENROL_PATH = '/login/enrol';
const COOKIE_PATH = '/login';
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
  return pageLink(ctx, request, path, requestParams(pending));
}

/** The user whose password was just checked on this browser, or null. */
async function passwordUser(ctx: PageContext, org: Org, request: FastifyRequest): Promise<User | null> {
  const [orgId, userId, expires] = ctx.cookies.read(request, ctx.cookies.secondFactor)?.split('|') ?? [];
  if (orgId !== org.id || !userId || !(Number(expires) > clock.now())) return null;
  return userAwaitingSecondFactor(ctx.deps, userId);
}

async function stepContext(ctx: PageContext, org: Org, request: FastifyRequest) {
  const reqId = queryValue(request, 'req');
  const pending = await optionalRequest(ctx.deps, org, reqId);
  const params = requestParams(pending);
  return { reqId: reqId ?? '', pending, params, user: await passwordUser(ctx, org, request) };
}

type Step = Awaited<ReturnType<typeof stepContext>> & { user: User };

/**
 * A submitted step: the code typed, once the password cookie is still good and the CSRF token was
 * made for `form`, this user and this request; otherwise the error page that was sent instead.
 */
async function postedStep(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  form: 'second-factor' | 'enrol',
) {
  const posted = formOf(request);
  const step = await stepContext(ctx, org, request);
  if (step.user === null)
    return { sent: sendErrorPage(reply, org.name, 401, EXPIRED, 'sign_in.second_factor.expired') };
  if (!ctx.csrf.check(request, form, [step.user.id, step.reqId], field(posted, 'csrf'))) {
    return { sent: sendErrorPage(reply, org.name, 403, CSRF_REJECTED, 'page.csrf.rejected') };
  }
  return { step: step as Step, code: field(posted, 'code') };
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
  /** The step of a GET, or the redirect back to the login page (sent) when there is none. */
  const start = async (org: Org, request: FastifyRequest, reply: FastifyReply) => {
    const step = await stepContext(ctx, org, request);
    if (step.user === null)
      return { sent: reply.redirect(pageLink(ctx, request, '/login', step.params), 303) };
    return { step: step as Step };
  };

  app.get(
    CHALLENGE_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const started = await start(org, request, reply);
      if ('sent' in started) return started.sent;
      return renderChallenge(ctx, org, request, reply, started.step, null);
    }),
  );

  app.post(
    CHALLENGE_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const posted = await postedStep(ctx, org, request, reply, 'second-factor');
      if ('sent' in posted) return posted.sent;
      const { step, code } = posted;
      const outcome = await verifySecondFactor(ctx.deps, org, step.user.id, code, request.ip);
      if (!outcome.ok) {
        const { error, options } = codeProblem(outcome);
        return renderChallenge(ctx, org, request, reply, step, error, options);
      }
      ctx.cookies.clear(reply, ctx.cookies.secondFactor, COOKIE_PATH);
      return completeSignIn(ctx, org, request, reply, step.user, step.pending, MFA_SIGN_IN);
    }),
  );

  app.get(
    ENROL_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const started = await start(org, request, reply);
      if ('sent' in started) return started.sent;
      const { step } = started;
      if ((await secondFactorStatus(ctx.deps, step.user.id)).enrolled) {
        return reply.redirect(pageLink(ctx, request, CHALLENGE_PATH, step.params), 303);
      }
      return renderEnrol(ctx, org, request, reply, step, null);
    }),
  );

  app.post(
    ENROL_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const posted = await postedStep(ctx, org, request, reply, 'enrol');
      if ('sent' in posted) return posted.sent;
      const { step, code } = posted;
      const outcome = await confirmEnrolment(ctx.deps, org, step.user, code.replace(/\s/g, ''), request.ip);
      if (!outcome.ok) {
        const { error, options } = codeProblem(outcome);
        return renderEnrol(ctx, org, request, reply, step, error, options);
      }
      ctx.cookies.clear(reply, ctx.cookies.secondFactor, COOKIE_PATH);
      await startSignedInSession(ctx, org, reply, step.user, MFA_SIGN_IN);
      // The codes are shown once; "Continue" then completes the authorization request.
      const next = pageLink(ctx, request, '/login', step.params);
      const label = step.pending ? `Continue to ${step.pending.client.name}` : 'Continue';
      const body = recoveryCodesView('recoveryCodes' in outcome ? outcome.recoveryCodes : [], next, label);
      return sendPage(reply, org.name, 'Save your recovery codes', body);
    }),
  );
}
