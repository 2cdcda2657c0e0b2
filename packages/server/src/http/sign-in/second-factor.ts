import type { FastifyRequest } from 'fastify';
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
import { type PageContext, pageLink } from './context.js';
import { formTargets, outcomeLink, pageRequest, requestParams } from './flow.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
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
  const { reqId, pending } = await pageRequest({ ctx, org, request });
  const params = requestParams(pending);
  return { reqId: reqId ?? '', pending, params, user: await passwordUser(ctx, org, request) };
}

type Step = Awaited<ReturnType<typeof stepContext>> & { user: User };

/**
 * A submitted step: once the password cookie is still good and the CSRF token was made for `form`,
 * this user and this request; otherwise the error page that was sent instead.
 */
async function postedStep(visit: Visit, form: 'second-factor' | 'enrol', csrf: string) {
  const { ctx, org, request, reply } = visit;
  const step = await stepContext(ctx, org, request);
  if (step.user === null) {
    const words = textsOf(request).t('second_factor.expired');
    return { sent: sendErrorPage(reply, org.name, 401, words, 'sign_in.second_factor.expired') };
  }
  if (!ctx.csrf.check(request, form, [step.user.id, step.reqId], csrf)) return { sent: refuseForm(visit) };
  return { step: step as Step };
}

/** The step of a GET, or the redirect back to the login page (sent) when there is none. */
async function startedStep({ ctx, org, request, reply }: Visit) {
  const step = await stepContext(ctx, org, request);
  if (step.user === null) return { sent: reply.redirect(pageLink(ctx, request, '/login', step.params), 303) };
  return { step: step as Step };
}

/** The form asking for a code of the second factor. */
function renderChallenge(visit: Visit, step: Step, error: string | null, options: PageOptions = {}) {
  const { ctx, org, request, reply } = visit;
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

/** The enrolment the org requires: the secret's QR code and key, and the form taking a first code. */
async function renderEnrol(visit: Visit, step: Step, error: string | null, options: PageOptions = {}) {
  const { ctx, org, request, reply } = visit;
  const texts = textsOf(request);
  const enrolment = await pendingEnrolment(ctx.deps, org, step.user);
  const body = setupView(texts, {
    action: pageLink(ctx, request, ENROL_PATH, step.params),
    csrf: ctx.csrf.token(request, reply, 'enrol', [step.user.id, step.reqId]),
    hidden: {},
    secret: enrolment.secret,
    qr: await qrCodeSvg(texts, enrolment.uri),
    error,
    intro: texts.t('second_factor.setup.required', { org: org.name }),
  });
  return sendPage(reply, org.name, texts.t('second_factor.setup.title'), body, options);
}

/**
 * Enrolled: the recovery codes, shown once, with "Continue", which completes the authorization
 * request (the sign-in is kept meanwhile).
 */
async function sendRecoveryCodes(visit: Visit, step: Step, codes: string[]) {
  const { ctx, org, request, reply } = visit;
  const texts = textsOf(request);
  const proven = { user: step.user, method: MFA_SIGN_IN };
  const completed = await completeAuthentication(ctx.deps, org, proven, step.pending, 'login-page');
  keepSignIn(ctx, org, reply, completed);
  const next = outcomeLink(ctx, request, completed.outcome);
  const label = step.pending
    ? texts.t('second_factor.continue_to', { client: step.pending.client.name })
    : texts.t('second_factor.continue');
  const body = recoveryCodesView(texts, codes, next, label);
  return sendPage(reply, org.name, texts.t('second_factor.codes.title'), body);
}

/*
 * The second step of the login page: GET and POST /login/second-factor (a TOTP code or a recovery
 * code, throttled per user and IP) and, where the org requires a factor the user does not have,
 * GET and POST /login/enrol. Success signs in with `amr ["pwd","otp"]` and `acr …:mfa`.
 */

export const challengePage = hostedPage(
  {
    path: CHALLENGE_PATH,
    summary: 'the second step of the login: the form asking for a code',
  },
  async (visit) => {
    const started = await startedStep(visit);
    if ('sent' in started) return started.sent;
    return renderChallenge(visit, started.step, null);
  },
);

export const challenge = hostedPage(
  {
    path: CHALLENGE_PATH,
    summary: 'a code of the second factor (or a recovery code): signed in',
    form: ['csrf', 'code'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    const posted = await postedStep(visit, 'second-factor', form.csrf);
    if ('sent' in posted) return posted.sent;
    const { step } = posted;
    const outcome = await verifySecondFactor(ctx.deps, org, step.user.id, form.code, request.ip);
    if (!outcome.ok) {
      const { error, options } = codeProblem(textsOf(request), outcome);
      return renderChallenge(visit, step, error, options);
    }
    clearPasswordProof(ctx, reply);
    const proven = { user: step.user, method: MFA_SIGN_IN };
    const completed = await completeAuthentication(ctx.deps, org, proven, step.pending);
    return sendSignIn(ctx, org, request, reply, completed);
  },
);

export const enrolPage = hostedPage(
  { path: ENROL_PATH, summary: 'the enrolment of the second factor the org requires' },
  async (visit) => {
    const { ctx, request, reply } = visit;
    const started = await startedStep(visit);
    if ('sent' in started) return started.sent;
    const { step } = started;
    if ((await secondFactorStatus(ctx.deps, step.user.id)).enrolled) {
      return reply.redirect(pageLink(ctx, request, CHALLENGE_PATH, step.params), 303);
    }
    return renderEnrol(visit, step, null);
  },
);

export const enrol = hostedPage(
  {
    path: ENROL_PATH,
    summary: 'a first code turns the second factor on: the recovery codes, then on with the sign-in',
    form: ['csrf', 'code'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    const posted = await postedStep(visit, 'enrol', form.csrf);
    if ('sent' in posted) return posted.sent;
    const { step } = posted;
    const code = form.code.replace(/\s/g, '');
    const outcome = await confirmEnrolment(ctx.deps, org, step.user, code, request.ip);
    if (!outcome.ok) {
      const { error, options } = codeProblem(textsOf(request), outcome);
      return renderEnrol(visit, step, error, options);
    }
    clearPasswordProof(ctx, reply);
    return sendRecoveryCodes(visit, step, 'recoveryCodes' in outcome ? outcome.recoveryCodes : []);
  },
);
