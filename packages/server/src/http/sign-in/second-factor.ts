import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  completeAuthentication,
  confirmEnrolment,
  MFA_SIGN_IN,
  pendingEnrolment,
  secondFactorStatus,
  userAwaitingSecondFactor,
  verifySecondFactor,
} from '../../domain/sign-in/index.js';
import type { Org, User } from '../../domain/types.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { formTargets, optionalRequest, outcomeLink, requestParams } from './flow.js';
import { textsOf } from './page-texts.js';
import { type PageOptions, sendErrorPage, sendPage } from './respond.js';
import {
  challengeView,
  codeProblem,
  qrCodeSvg,
  recoveryCodesView,
  setupView,
} from './second-factor-views.js';
import { clearPasswordProof, passwordProofOf, SECOND_STEP_PATHS } from './second-step-cookie.js';
import { keepSignIn, sendSignIn } from './session-start.js';

const CHALLENGE_PATH = SECOND_STEP_PATHS.challenge;
const ENROL_PATH = SECOND_STEP_PATHS.enrol;

/**
 * The second step is due after a correct password (the domain decides: completeAuthentication);
 * the password's success is kept meanwhile in a signed cookie (second-step-cookie.ts).
 */

/** The user whose password was just checked on this browser, or null. */
async function passwordUser(ctx: PageContext, org: Org, request: FastifyRequest): Promise<User | null> {
  const userId = passwordProofOf(ctx, org, request);
  return userId === null ? null : userAwaitingSecondFactor(ctx.deps, userId);
}

async function stepContext(ctx: PageContext, org: Org, request: FastifyRequest) {
  const reqId = queryValue(request, 'req');
  const pending = await optionalRequest(ctx.deps, org, reqId, request);
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
    return {
      sent: sendErrorPage(
        reply,
        org.name,
        401,
        textsOf(request).t('second_factor.expired'),
        'sign_in.second_factor.expired',
      ),
    };
  if (!ctx.csrf.check(request, form, [step.user.id, step.reqId], field(posted, 'csrf'))) {
    return {
      sent: sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected'),
    };
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
  const body = challengeView(textsOf(request), {
    action: pageLink(ctx, request, CHALLENGE_PATH, step.params),
    csrf: ctx.csrf.token(request, reply, 'second-factor', [step.user.id, step.reqId]),
    email: step.user.email,
    error,
  });
  return sendPage(reply, org.name, textsOf(request).t('second_factor.title'), body, {
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
  const body = setupView(textsOf(request), {
    action: pageLink(ctx, request, ENROL_PATH, step.params),
    csrf: ctx.csrf.token(request, reply, 'enrol', [step.user.id, step.reqId]),
    hidden: {},
    secret: enrolment.secret,
    qr: await qrCodeSvg(textsOf(request), enrolment.uri),
    error,
    intro: textsOf(request).t('second_factor.setup.required', { org: org.name }),
  });
  return sendPage(reply, org.name, textsOf(request).t('second_factor.setup.title'), body, options);
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
        const { error, options } = codeProblem(textsOf(request), outcome);
        return renderChallenge(ctx, org, request, reply, step, error, options);
      }
      clearPasswordProof(ctx, reply);
      const proven = { user: step.user, method: MFA_SIGN_IN };
      return sendSignIn(
        ctx,
        org,
        request,
        reply,
        await completeAuthentication(ctx.deps, org, proven, step.pending),
      );
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
        const { error, options } = codeProblem(textsOf(request), outcome);
        return renderEnrol(ctx, org, request, reply, step, error, options);
      }
      clearPasswordProof(ctx, reply);
      // The codes are shown once; "Continue" then completes the authorization request.
      const proven = { user: step.user, method: MFA_SIGN_IN };
      const completed = await completeAuthentication(ctx.deps, org, proven, step.pending, 'login-page');
      keepSignIn(ctx, org, reply, completed);
      const next = outcomeLink(ctx, request, completed.outcome);
      const label = step.pending
        ? textsOf(request).t('second_factor.continue_to', { client: step.pending.client.name })
        : textsOf(request).t('second_factor.continue');
      const body = recoveryCodesView(
        textsOf(request),
        'recoveryCodes' in outcome ? outcome.recoveryCodes : [],
        next,
        label,
      );
      return sendPage(reply, org.name, textsOf(request).t('second_factor.codes.title'), body);
    }),
  );
}
