import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import { requireUser } from '../../domain/directory/index.js';
import { changeEmail, mailAddressChanged, mailVerification, reserveMail } from '../../domain/mail/index.js';
import { changePassword, deviceOfUser } from '../../domain/sign-in/index.js';
import type { Org, User } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { afterResponse } from '../sign-in/after-response.js';
import { field, formOf, type PageContext, pageRoute } from '../sign-in/context.js';
import { ruleText, textsOf } from '../sign-in/page-texts.js';
import { sendErrorPage, throttledPage } from '../sign-in/respond.js';
import { profileUserOf, renderProfile } from './profile.js';
import { CREDENTIALS_FORM as FORM } from './profile-credentials-section.js';

/**
 * On the profile page: POST /profile/password changes the password (current one required; ends
 * every other session, this browser's stays), POST /profile/email changes the address (current
 * password required; unverified until the link mailed to it is followed; the previous address is
 * told) or, with `step=resend`, mails the verification link again (throttled like reset mails).
 */
export function profileCredentialsPages(app: FastifyInstance, ctx: PageContext) {
  async function opened(org: Org, request: FastifyRequest, reply: FastifyReply) {
    const form = formOf(request);
    const userId = profileUserOf(ctx, org, request);
    if (userId === null)
      return {
        done: sendErrorPage(
          reply,
          org.name,
          401,
          textsOf(request).t('profile.expired'),
          'profile.page.expired',
        ),
      } as const;
    if (!ctx.csrf.check(request, FORM, [userId], field(form, 'csrf'))) {
      return {
        done: sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected'),
      } as const;
    }
    return { form, user: await requireUser(ctx.deps, userId) } as const;
  }

  const show = (
    org: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    state: { error?: string; notice?: string; status?: number; headers?: Record<string, string> },
  ) => {
    if (state.headers) reply.headers(state.headers);
    return renderProfile(ctx, org, request, reply, user, {
      error: state.error ?? null,
      saved: false,
      ...(state.notice ? { notice: state.notice } : {}),
      ...(state.status ? { status: state.status } : {}),
    });
  };

  app.post(
    '/profile/password',
    pageRoute(ctx, async (org, request, reply) => {
      const page = await opened(org, request, reply);
      if ('done' in page) return page.done;
      const { form, user } = page;
      const outcome = await changePassword(ctx.deps, org, user, {
        current: field(form, 'current_password'),
        next: field(form, 'new_password'),
        ip: rateLimitKey(request),
        deviceToken: ctx.cookies.readDevice(request),
        currentBrowserSecret: ctx.cookies.read(request, ctx.cookies.session),
      });
      if (outcome.ok) {
        const notice = textsOf(request).t('profile.password.changed');
        return show(org, request, reply, user, { notice });
      }
      if (outcome.reason === 'throttled') {
        const { error, options } = throttledPage(textsOf(request), outcome.retryAfterS);
        return show(org, request, reply, user, { error, status: 429, headers: options.headers ?? {} });
      }
      const error =
        outcome.reason === 'wrong_password'
          ? textsOf(request).t('profile.password.wrong')
          : textsOf(request).t('profile.password.weak', {
              detail: ruleText(textsOf(request), outcome.problem),
            });
      return show(org, request, reply, user, { error, status: 400 });
    }),
  );

  app.post(
    '/profile/email',
    pageRoute(ctx, async (org, request, reply) => {
      const page = await opened(org, request, reply);
      if ('done' in page) return page.done;
      const { form, user } = page;
      if (field(form, 'step') === 'resend') {
        if (user.emailVerified) return show(org, request, reply, user, {});
        const verdict = await reserveMail(
          ctx.deps.store,
          org.id,
          user.email,
          rateLimitKey(request),
          clock.now(),
          deviceOfUser(ctx.deps, org, ctx.cookies.readDevice(request), user)?.id ?? null,
        );
        if (!verdict.allowed) {
          const { error, options } = throttledPage(textsOf(request), verdict.retryAfterS, 'throttled.mails');
          return show(org, request, reply, user, { error, status: 429, headers: options.headers ?? {} });
        }
        afterResponse(ctx, request, reply, 'verification mail', () =>
          mailVerification(ctx.deps, org, user.id, textsOf(request).locale),
        );
        return show(org, request, reply, user, {
          notice: `A confirmation link is on its way to ${user.email}.`,
        });
      }
      const outcome = await changeEmail(ctx.deps, org, user, {
        email: field(form, 'email'),
        password: field(form, 'password'),
        ip: rateLimitKey(request),
        deviceToken: ctx.cookies.readDevice(request),
      });
      if (outcome.ok) {
        const { previousEmail, user: after } = outcome;
        if (previousEmail === null) return show(org, request, reply, after, {});
        afterResponse(ctx, request, reply, 'address change mails', async () => {
          await mailAddressChanged(ctx.deps, org, previousEmail, after);
          await mailVerification(ctx.deps, org, after.id, textsOf(request).locale);
        });
        const notice = textsOf(request).t('profile.email.changed', { email: after.email });
        return show(org, request, reply, after, { notice });
      }
      if (outcome.reason === 'throttled') {
        const { error, options } = throttledPage(textsOf(request), outcome.retryAfterS);
        return show(org, request, reply, user, { error, status: 429, headers: options.headers ?? {} });
      }
      const error =
        outcome.reason === 'wrong_password'
          ? textsOf(request).t('profile.password.wrong')
          : outcome.reason === 'conflict'
            ? textsOf(request).t('profile.email.taken')
            : textsOf(request).t('profile.email.check', {
                detail: ruleText(textsOf(request), outcome.problem),
              });
      return show(org, request, reply, user, { error, status: outcome.reason === 'conflict' ? 409 : 400 });
    }),
  );
}
