import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireUser } from '../../domain/directory/index.js';
import {
  confirmEnrolment,
  orgRequiresMfa,
  pendingEnrolment,
  removeSecondFactor,
  secondFactorStage,
  secondFactorStatus,
} from '../../domain/sign-in/index.js';
import type { Org, User } from '../../domain/types.js';
import { field, formOf, type PageContext, pageLink, pageRoute } from '../sign-in/context.js';
import { textsOf } from '../sign-in/page-texts.js';
import { type PageOptions, sendErrorPage, sendPage } from '../sign-in/respond.js';
import {
  codeProblem,
  qrCodeSvg,
  recoveryCodesView,
  setupView,
  statusView,
} from '../sign-in/second-factor-views.js';
import { profileUserOf, renderProfile } from './profile.js';

const PATH = '/profile/second-factor';
const FORM = 'profile-second-factor';

/**
 * Two-step verification on the hosted profile page (opened with a profile key, DESIGN §4):
 * GET shows the factor (or the enrolment in progress); POST `step=start` draws a new secret and
 * shows its QR code and key, `step=confirm` turns it on with a first code and shows the recovery
 * codes once, `step=remove` turns it off with a current code (not while the org requires it).
 */
export function profileSecondFactorPages(app: FastifyInstance, ctx: PageContext) {
  const link = (request: FastifyRequest) => pageLink(ctx, request, PATH, {});

  async function renderSetup(
    org: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    restart: boolean,
    error: string | null,
    options: PageOptions = {},
  ) {
    const enrolment = await pendingEnrolment(ctx.deps, org, user, restart);
    const body = setupView(textsOf(request), {
      action: link(request),
      csrf: ctx.csrf.token(request, reply, FORM, [user.id]),
      hidden: { step: 'confirm' },
      secret: enrolment.secret,
      qr: await qrCodeSvg(textsOf(request), enrolment.uri),
      error,
      intro: textsOf(request).t('second_factor.setup.chosen'),
    });
    return sendPage(reply, org.name, textsOf(request).t('second_factor.setup.title'), body, options);
  }

  async function renderStatus(
    org: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    error: string | null,
    options: PageOptions = {},
  ) {
    const status = await secondFactorStatus(ctx.deps, user.id);
    const body = statusView(textsOf(request), {
      action: link(request),
      csrf: ctx.csrf.token(request, reply, FORM, [user.id]),
      recoveryCodesLeft: status.recoveryCodesLeft,
      required: await orgRequiresMfa(ctx.deps, org),
      error,
      profileHref: pageLink(ctx, request, '/profile', {}),
    });
    return sendPage(reply, org.name, textsOf(request).t('second_factor.title'), body, options);
  }

  app.get(
    PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const userId = profileUserOf(ctx, org, request);
      if (userId === null)
        return sendErrorPage(
          reply,
          org.name,
          401,
          textsOf(request).t('profile.expired'),
          'profile.page.expired',
        );
      const user = await requireUser(ctx.deps, userId);
      const stage = await secondFactorStage(ctx.deps, user.id);
      if (stage === 'none') return reply.redirect(pageLink(ctx, request, '/profile', {}), 303);
      if (stage === 'enrolling') return renderSetup(org, request, reply, user, false, null);
      return renderStatus(org, request, reply, user, null);
    }),
  );

  app.post(
    PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const userId = profileUserOf(ctx, org, request);
      if (userId === null)
        return sendErrorPage(
          reply,
          org.name,
          401,
          textsOf(request).t('profile.expired'),
          'profile.page.expired',
        );
      if (!ctx.csrf.check(request, FORM, [userId], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const user = await requireUser(ctx.deps, userId);
      const step = field(form, 'step');
      const code = field(form, 'code');
      if (step === 'start') {
        if ((await secondFactorStatus(ctx.deps, user.id)).enrolled) {
          return renderStatus(org, request, reply, user, null);
        }
        return renderSetup(org, request, reply, user, true, null);
      }
      if (step === 'confirm') {
        const outcome = await confirmEnrolment(ctx.deps, org, user, code.replace(/\s/g, ''), request.ip);
        if (!outcome.ok) {
          if ((await secondFactorStatus(ctx.deps, user.id)).enrolled) {
            return renderStatus(org, request, reply, user, null);
          }
          const { error, options } = codeProblem(textsOf(request), outcome);
          return renderSetup(org, request, reply, user, false, error, options);
        }
        const codes = 'recoveryCodes' in outcome ? outcome.recoveryCodes : [];
        const body = recoveryCodesView(
          textsOf(request),
          codes,
          pageLink(ctx, request, '/profile', {}),
          textsOf(request).t('second_factor.back_to_profile'),
        );
        return sendPage(reply, org.name, textsOf(request).t('second_factor.codes.title'), body);
      }
      if (step === 'remove') {
        const outcome = await removeSecondFactor(ctx.deps, org, user, code, request.ip);
        if (!outcome.ok) {
          const { error, options } = codeProblem(textsOf(request), outcome);
          return renderStatus(org, request, reply, user, error, options);
        }
        return renderProfile(ctx, org, request, reply, user, {
          error: null,
          saved: false,
          notice: textsOf(request).t('profile.second_factor.off'),
        });
      }
      return sendErrorPage(
        reply,
        org.name,
        400,
        'This form was not understood. Reload the page and try again.',
        'profile.second_factor.form_invalid',
      );
    }),
  );
}
