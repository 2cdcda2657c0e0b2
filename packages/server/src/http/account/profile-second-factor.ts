import { requireUser } from '../../domain/directory/index.js';
import {
  confirmEnrolment,
  orgRequiresMfa,
  pendingEnrolment,
  removeSecondFactor,
  secondFactorStage,
  secondFactorStatus,
} from '../../domain/sign-in/index.js';
import type { User } from '../../domain/types.js';
import { pageLink } from '../sign-in/context.js';
import { hostedPage, type Visit } from '../sign-in/hosted-page.js';
import { textsOf } from '../sign-in/page-texts.js';
import { type PageOptions, sendErrorPage, sendPage } from '../sign-in/respond.js';
import {
  codeProblem,
  qrCodeSvg,
  recoveryCodesView,
  setupView,
  statusView,
} from '../sign-in/second-factor-views.js';
import { showProfile } from './profile.js';
import { profileFormUser, profileUserOf, sendProfileExpired } from './profile-visit.js';

const PATH = '/profile/second-factor';
const FORM = 'profile-second-factor';

/*
 * Two-step verification on the hosted profile page (opened with a profile key, DESIGN §4):
 * GET shows the factor (or the enrolment in progress); POST `step=start` draws a new secret and
 * shows its QR code and key, `step=confirm` turns it on with a first code and shows the recovery
 * codes once, `step=remove` turns it off with a current code (not while the org requires it).
 */

/** The enrolment: the secret's QR code and key, and the form taking a first code. */
async function renderSetup(
  visit: Visit,
  user: User,
  restart: boolean,
  error: string | null,
  options: PageOptions = {},
) {
  const { ctx, org, request, reply } = visit;
  const texts = textsOf(request);
  const enrolment = await pendingEnrolment(ctx.deps, org, user, restart);
  const body = setupView(texts, {
    action: pageLink(ctx, request, PATH, {}),
    csrf: ctx.csrf.token(request, reply, FORM, [user.id]),
    hidden: { step: 'confirm' },
    secret: enrolment.secret,
    qr: await qrCodeSvg(texts, enrolment.uri),
    error,
    intro: texts.t('second_factor.setup.chosen'),
  });
  return sendPage(reply, org.name, texts.t('second_factor.setup.title'), body, options);
}

/** The factor turned on: recovery codes left, and the form turning it off. */
async function renderStatus(visit: Visit, user: User, error: string | null, options: PageOptions = {}) {
  const { ctx, org, request, reply } = visit;
  const status = await secondFactorStatus(ctx.deps, user.id);
  const body = statusView(textsOf(request), {
    action: pageLink(ctx, request, PATH, {}),
    csrf: ctx.csrf.token(request, reply, FORM, [user.id]),
    recoveryCodesLeft: status.recoveryCodesLeft,
    required: await orgRequiresMfa(ctx.deps, org),
    error,
    profileHref: pageLink(ctx, request, '/profile', {}),
  });
  return sendPage(reply, org.name, textsOf(request).t('second_factor.title'), body, options);
}

/** `step=start`: a new secret to enrol, unless a factor is on already. */
async function startEnrolment(visit: Visit, user: User) {
  if ((await secondFactorStatus(visit.ctx.deps, user.id)).enrolled) return renderStatus(visit, user, null);
  return renderSetup(visit, user, true, null);
}

/** `step=confirm`: the first code turns the factor on; the recovery codes are shown this once. */
async function confirmSetup(visit: Visit, user: User, code: string) {
  const { ctx, org, request, reply } = visit;
  const outcome = await confirmEnrolment(ctx.deps, org, user, code.replace(/\s/g, ''), request.ip);
  if (!outcome.ok) {
    if ((await secondFactorStatus(ctx.deps, user.id)).enrolled) return renderStatus(visit, user, null);
    const { error, options } = codeProblem(textsOf(request), outcome);
    return renderSetup(visit, user, false, error, options);
  }
  const texts = textsOf(request);
  const codes = 'recoveryCodes' in outcome ? outcome.recoveryCodes : [];
  const back = pageLink(ctx, request, '/profile', {});
  const body = recoveryCodesView(texts, codes, back, texts.t('second_factor.back_to_profile'));
  return sendPage(reply, org.name, texts.t('second_factor.codes.title'), body);
}

/** `step=remove`: a current code turns the factor off. */
async function removeFactor(visit: Visit, user: User, code: string) {
  const outcome = await removeSecondFactor(visit.ctx.deps, visit.org, user, code, visit.request.ip);
  if (!outcome.ok) {
    const { error, options } = codeProblem(textsOf(visit.request), outcome);
    return renderStatus(visit, user, error, options);
  }
  return showProfile(visit, user, { notice: textsOf(visit.request).t('profile.second_factor.off') });
}

export const profileSecondFactorPage = hostedPage(
  { path: PATH, summary: "the profile's second factor, or its enrolment in progress" },
  async (visit) => {
    const { ctx, org, request, reply } = visit;
    const userId = profileUserOf(ctx, org, request);
    if (userId === null) return sendProfileExpired(visit);
    const user = await requireUser(ctx.deps, userId);
    const stage = await secondFactorStage(ctx.deps, user.id);
    if (stage === 'none') return reply.redirect(pageLink(ctx, request, '/profile', {}), 303);
    if (stage === 'enrolling') return renderSetup(visit, user, false, null);
    return renderStatus(visit, user, null);
  },
);

export const profileSecondFactorChange = hostedPage(
  {
    path: PATH,
    summary: 'enrol a second factor (`step=start`, `step=confirm`) or turn it off (`step=remove`)',
    form: ['csrf', 'step', 'code'],
  },
  async (visit) => {
    const { ctx, org, reply, form } = visit;
    const caller = profileFormUser(visit, FORM, form.csrf);
    if ('done' in caller) return caller.done;
    const user = await requireUser(ctx.deps, caller.userId);
    if (form.step === 'start') return startEnrolment(visit, user);
    if (form.step === 'confirm') return confirmSetup(visit, user, form.code);
    if (form.step === 'remove') return removeFactor(visit, user, form.code);
    return sendErrorPage(
      reply,
      org.name,
      400,
      'This form was not understood. Reload the page and try again.',
      'profile.second_factor.form_invalid',
    );
  },
);
