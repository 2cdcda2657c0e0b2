import {
  MAIL_LINK_TTL_MS,
  mailPasswordReset,
  peekMailLink,
  reserveMail,
  resetPassword,
} from '../../domain/mail/index.js';
import { type PendingSignIn, trustedDevice } from '../../domain/sign-in/index.js';
import { afterResponse } from './after-response.js';
import { pageLink, queryValue } from './context.js';
import { pageRequest, pendingBinding, requestParams } from './flow.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { forgotSentView, forgotView, linkClosedView, resetDoneView, resetView } from './mail-views.js';
import { ruleText, textsOf } from './page-texts.js';
import { reserveForRequester } from './requester-throttle.js';
import { type PageOptions, sendPage, throttledPage } from './respond.js';

const FORGOT = '/password/forgot';
const RESET = '/password/reset';
const RESET_MINUTES = MAIL_LINK_TTL_MS.reset / 60_000;
// Shorter than any address, longer than the field allows: refused before anything is looked up.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/*
 * Password reset (DESIGN §12): GET and POST /password/forgot ask for the address and answer the
 * same page for every address; the lookup and the mail happen after that answer is sent
 * (after-response.ts), so neither its words nor its timing tell whether the address is known.
 * Asking is throttled per requester, not per account (domain/mail/mail-throttle.ts): strangers per
 * client address and address, the account's own browser (its device cookie) per device.
 * GET /password/reset?token=… shows the form without using the link (mail scanners follow links);
 * POST sets the password, uses the link, and ends every session of the user.
 */

/** The form asking for the address, with what was wrong if anything. */
function renderForgot(
  { ctx, org, request, reply }: Visit,
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

/** A reset link that is used, expired or unknown: 400, with a way to ask again. */
function renderClosed({ ctx, org, request, reply }: Visit) {
  const body = linkClosedView(textsOf(request), 'reset', pageLink(ctx, request, FORGOT, {}));
  return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), body, { status: 400 });
}

/** The form setting a new password for the link's user, with what was wrong if anything. */
function renderReset(
  { ctx, org, request, reply }: Visit,
  state: { token: string; email: string; error: string | null },
  options: PageOptions = {},
) {
  const body = resetView(textsOf(request), {
    action: pageLink(ctx, request, RESET, {}),
    csrf: ctx.csrf.token(request, reply, 'password-reset', []),
    ...state,
  });
  return sendPage(reply, org.name, textsOf(request).t('reset.title'), body, options);
}

/**
 * Whether one more mail may go to `email` from this requester (throttled per device for the
 * account's own browser, else per client address and address).
 */
async function mayMail({ ctx, org, request }: Visit, email: string) {
  const device = await trustedDevice(ctx.deps, org, ctx.cookies.readDevice(request), email);
  return reserveForRequester(reserveMail, { ctx, org, request }, email, device?.id ?? null);
}

/** The same page for every address; the mail, if any, goes after it is sent. */
function sendForgotSent(visit: Visit, pending: PendingSignIn | null, email: string) {
  const { ctx, org, request, reply } = visit;
  afterResponse(ctx, request, reply, 'password reset mail', () =>
    mailPasswordReset(ctx.deps, org, email, textsOf(request).locale),
  );
  const body = forgotSentView(textsOf(request), {
    minutes: RESET_MINUTES,
    loginHref: pageLink(ctx, request, '/login', requestParams(pending)),
  });
  return sendPage(reply, org.name, textsOf(request).t('forgot.sent.title'), body);
}

export const forgotPage = hostedPage(
  { path: FORGOT, summary: 'forgotten password: the form asking for the address' },
  async (visit) => {
    const { pending } = await pageRequest(visit);
    return renderForgot(visit, pending, { email: '', error: null });
  },
);

export const forgotSend = hostedPage(
  {
    path: FORGOT,
    summary: 'forgotten password: mail a reset link, the same answer for every address',
    form: ['csrf', 'email'],
  },
  async (visit) => {
    const { ctx, request, form } = visit;
    const { reqId, pending } = await pageRequest(visit);
    if (!ctx.csrf.check(request, 'password-forgot', [reqId ?? ''], form.csrf)) return refuseForm(visit);
    const email = form.email.trim();
    if (email.length > 254 || !EMAIL_SHAPE.test(email)) {
      const error = textsOf(request).t('forgot.missing');
      return renderForgot(visit, pending, { email, error }, { status: 400 });
    }
    const verdict = await mayMail(visit, email);
    if (verdict.allowed) return sendForgotSent(visit, pending, email);
    const { error, options } = throttledPage(textsOf(request), verdict.retryAfterS, 'throttled.requests');
    return renderForgot(visit, pending, { email, error }, options);
  },
);

export const resetPage = hostedPage(
  { path: RESET, summary: 'a reset link: the form setting a new password' },
  async (visit) => {
    const token = queryValue(visit.request, 'token') ?? '';
    const link = await peekMailLink(visit.ctx.deps, visit.org, 'reset', token);
    if (link === null) return renderClosed(visit);
    return renderReset(visit, { token, email: link.user.email, error: null });
  },
);

export const resetPasswordPage = hostedPage(
  {
    path: RESET,
    summary: 'set the new password: the link is used and every session of the user ends',
    form: ['csrf', 'token', 'password', 'password_confirm'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    if (!ctx.csrf.check(request, 'password-reset', [], form.csrf)) return refuseForm(visit);
    const { token, password } = form;
    const link = await peekMailLink(ctx.deps, org, 'reset', token);
    if (link === null) return renderClosed(visit);
    const again = (error: string) =>
      renderReset(visit, { token, email: link.user.email, error }, { status: 400 });
    if (password !== form.password_confirm) return again(textsOf(request).t('reset.mismatch'));
    const outcome = await resetPassword(ctx.deps, org, token, password);
    if (!outcome.ok && outcome.reason === 'password') {
      return again(textsOf(request).t('reset.weak', { detail: ruleText(textsOf(request), outcome.problem) }));
    }
    if (!outcome.ok) return renderClosed(visit);
    // This browser's login cookie (if any) was ended with the others: drop it.
    ctx.cookies.clear(reply, ctx.cookies.session);
    const body = resetDoneView(textsOf(request), pageLink(ctx, request, '/login', {}));
    return sendPage(reply, org.name, textsOf(request).t('reset.done.title'), body);
  },
);
