import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import {
  MAIL_LINK_TTL_MS,
  mailPasswordReset,
  peekMailLink,
  reserveMail,
  resetPassword,
} from '../../domain/mail/index.js';
import { type PendingSignIn, trustedDevice } from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { afterResponse } from './after-response.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { optionalRequest, pendingBinding, requestParams } from './flow.js';
import { forgotSentView, forgotView, linkClosedView, resetDoneView, resetView } from './mail-views.js';
import { ruleText, textsOf } from './page-texts.js';
import { type PageOptions, sendErrorPage, sendPage, throttledPage } from './respond.js';

const FORGOT = '/password/forgot';
const RESET = '/password/reset';
const RESET_MINUTES = MAIL_LINK_TTL_MS.reset / 60_000;
// Shorter than any address, longer than the field allows: refused before anything is looked up.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/**
 * Password reset (DESIGN §12): GET and POST /password/forgot ask for the address and answer the
 * same page for every address; the lookup and the mail happen after that answer is sent
 * (after-response.ts), so neither its words nor its timing tell whether the address is known.
 * Asking is throttled per requester, not per account (domain/mail/mail-throttle.ts): strangers per
 * client address and address, the account's own browser (its device cookie) per device.
 * GET /password/reset?token=… shows the form without using the link (mail scanners follow links);
 * POST sets the password, uses the link, and ends every session of the user.
 */
export function passwordResetPages(app: FastifyInstance, ctx: PageContext) {
  function renderForgot(
    org: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    pending: PendingSignIn | null,
    state: { email: string; error: string | null },
    options: PageOptions = {},
  ) {
    const params = requestParams(pending);
    const body = forgotView(textsOf(request), {
      action: pageLink(ctx, request, FORGOT, params),
      csrf: ctx.csrf.token(request, reply, 'password-forgot', [pendingBinding(pending)]),
      email: state.email,
      error: state.error,
      loginHref: pageLink(ctx, request, '/login', params),
    });
    return sendPage(reply, org.name, textsOf(request).t('forgot.title'), body, options);
  }

  function renderClosed(org: Org, request: FastifyRequest, reply: FastifyReply) {
    const body = linkClosedView(textsOf(request), 'reset', pageLink(ctx, request, FORGOT, {}));
    return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), body, { status: 400 });
  }

  app.get(
    FORGOT,
    pageRoute(ctx, async (org, request, reply) => {
      const pending = await optionalRequest(ctx.deps, org, queryValue(request, 'req'), request);
      return renderForgot(org, request, reply, pending, { email: '', error: null });
    }),
  );

  app.post(
    FORGOT,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const reqId = queryValue(request, 'req');
      const pending = await optionalRequest(ctx.deps, org, reqId, request);
      if (!ctx.csrf.check(request, 'password-forgot', [reqId ?? ''], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const email = field(form, 'email').trim();
      if (email.length > 254 || !EMAIL_SHAPE.test(email)) {
        const error = textsOf(request).t('forgot.missing');
        return renderForgot(org, request, reply, pending, { email, error }, { status: 400 });
      }
      const device = await trustedDevice(ctx.deps, org, ctx.cookies.readDevice(request), email);
      const verdict = await reserveMail(
        ctx.deps.store,
        org.id,
        email,
        rateLimitKey(request),
        clock.now(),
        device?.id ?? null,
      );
      if (!verdict.allowed) {
        const { error, options } = throttledPage(textsOf(request), verdict.retryAfterS, 'throttled.requests');
        return renderForgot(org, request, reply, pending, { email, error }, options);
      }
      afterResponse(ctx, request, reply, 'password reset mail', () =>
        mailPasswordReset(ctx.deps, org, email, textsOf(request).locale),
      );
      const body = forgotSentView(textsOf(request), {
        minutes: RESET_MINUTES,
        loginHref: pageLink(ctx, request, '/login', requestParams(pending)),
      });
      return sendPage(reply, org.name, textsOf(request).t('forgot.sent.title'), body);
    }),
  );

  app.get(
    RESET,
    pageRoute(ctx, async (org, request, reply) => {
      const token = queryValue(request, 'token') ?? '';
      const link = await peekMailLink(ctx.deps, org, 'reset', token);
      if (link === null) return renderClosed(org, request, reply);
      const body = resetView(textsOf(request), {
        action: pageLink(ctx, request, RESET, {}),
        csrf: ctx.csrf.token(request, reply, 'password-reset', []),
        token,
        email: link.user.email,
        error: null,
      });
      return sendPage(reply, org.name, textsOf(request).t('reset.title'), body);
    }),
  );

  app.post(
    RESET,
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      if (!ctx.csrf.check(request, 'password-reset', [], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const token = field(form, 'token');
      const password = field(form, 'password');
      const again = (error: string, email: string) =>
        sendPage(
          reply,
          org.name,
          textsOf(request).t('reset.title'),
          resetView(textsOf(request), {
            action: pageLink(ctx, request, RESET, {}),
            csrf: ctx.csrf.token(request, reply, 'password-reset', []),
            token,
            email,
            error,
          }),
          { status: 400 },
        );
      const link = await peekMailLink(ctx.deps, org, 'reset', token);
      if (link === null) return renderClosed(org, request, reply);
      if (password !== field(form, 'password_confirm')) {
        return again(textsOf(request).t('reset.mismatch'), link.user.email);
      }
      const outcome = await resetPassword(ctx.deps, org, token, password);
      if (!outcome.ok && outcome.reason === 'password') {
        return again(
          textsOf(request).t('reset.weak', { detail: ruleText(textsOf(request), outcome.problem) }),
          link.user.email,
        );
      }
      if (!outcome.ok) return renderClosed(org, request, reply);
      // This browser's login cookie (if any) was ended with the others: drop it.
      ctx.cookies.clear(reply, ctx.cookies.session);
      const body = resetDoneView(textsOf(request), pageLink(ctx, request, '/login', {}));
      return sendPage(reply, org.name, textsOf(request).t('reset.done.title'), body);
    }),
  );
}
