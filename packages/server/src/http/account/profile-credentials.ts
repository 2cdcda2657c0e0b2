import { requireUser } from '../../domain/directory/index.js';
import { changeEmail, mailAddressChanged, mailVerification, reserveMail } from '../../domain/mail/index.js';
import { changePassword, deviceOfUser } from '../../domain/sign-in/index.js';
import type { User } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { afterResponse } from '../sign-in/after-response.js';
import { hostedPage, type Visit } from '../sign-in/hosted-page.js';
import { ruleText, textsOf } from '../sign-in/page-texts.js';
import { reserveForRequester } from '../sign-in/requester-throttle.js';
import { type ThrottledKey, throttledPage } from '../sign-in/respond.js';
import { showProfile } from './profile.js';
import { CREDENTIALS_FORM as FORM } from './profile-credentials-section.js';
import { profileFormUser } from './profile-visit.js';

/*
 * On the profile page: POST /profile/password changes the password (current one required; ends
 * every other session, this browser's stays), POST /profile/email changes the address (current
 * password required; unverified until the link mailed to it is followed; the previous address is
 * told) or, with `step=resend`, mails the verification link again (throttled like reset mails).
 */

/** The profile page with the throttle's words and its Retry-After. */
function showThrottled(visit: Visit, user: User, retryAfterS: number, key?: ThrottledKey) {
  const { error, options } = throttledPage(textsOf(visit.request), retryAfterS, key);
  return showProfile(visit, user, { error, status: 429, headers: options.headers ?? {} });
}

/** The verification link again, to the address as it is (throttled like reset mails). */
async function resendVerification(visit: Visit, user: User) {
  const { ctx, org, request, reply } = visit;
  if (user.emailVerified) return showProfile(visit, user, {});
  const device = deviceOfUser(ctx.deps, org, ctx.cookies.readDevice(request), user);
  const verdict = await reserveForRequester(reserveMail, visit, user.email, device?.id ?? null);
  if (!verdict.allowed) return showThrottled(visit, user, verdict.retryAfterS, 'throttled.mails');
  afterResponse(ctx, request, reply, 'verification mail', () =>
    mailVerification(ctx.deps, org, user.id, textsOf(request).locale),
  );
  return showProfile(visit, user, { notice: `A confirmation link is on its way to ${user.email}.` });
}

/** The address changed: the previous one told, the new one sent its link, after the answer. */
function sendEmailChanged(visit: Visit, previousEmail: string | null, after: User) {
  const { ctx, org, request, reply } = visit;
  if (previousEmail === null) return showProfile(visit, after, {});
  afterResponse(ctx, request, reply, 'address change mails', async () => {
    await mailAddressChanged(ctx.deps, org, previousEmail, after);
    await mailVerification(ctx.deps, org, after.id, textsOf(request).locale);
  });
  const notice = textsOf(request).t('profile.email.changed', { email: after.email });
  return showProfile(visit, after, { notice });
}

export const profilePassword = hostedPage(
  {
    path: '/profile/password',
    summary: 'change the password (every other session ends)',
    form: ['csrf', 'current_password', 'new_password'],
  },
  async (visit) => {
    const { ctx, org, request, form } = visit;
    const caller = profileFormUser(visit, FORM, form.csrf);
    if ('done' in caller) return caller.done;
    const user = await requireUser(ctx.deps, caller.userId);
    const outcome = await changePassword(ctx.deps, org, user, {
      current: form.current_password,
      next: form.new_password,
      ip: rateLimitKey(request),
      deviceToken: ctx.cookies.readDevice(request),
      currentBrowserSecret: ctx.cookies.read(request, ctx.cookies.session),
    });
    const texts = textsOf(request);
    if (outcome.ok) return showProfile(visit, user, { notice: texts.t('profile.password.changed') });
    if (outcome.reason === 'throttled') return showThrottled(visit, user, outcome.retryAfterS);
    const error =
      outcome.reason === 'wrong_password'
        ? texts.t('profile.password.wrong')
        : texts.t('profile.password.weak', { detail: ruleText(texts, outcome.problem) });
    return showProfile(visit, user, { error, status: 400 });
  },
);

export const profileEmail = hostedPage(
  {
    path: '/profile/email',
    summary: 'change the address, or (`step=resend`) mail its verification link again',
    form: ['csrf', 'step', 'email', 'password'],
  },
  async (visit) => {
    const { ctx, org, request, form } = visit;
    const caller = profileFormUser(visit, FORM, form.csrf);
    if ('done' in caller) return caller.done;
    const user = await requireUser(ctx.deps, caller.userId);
    if (form.step === 'resend') return resendVerification(visit, user);
    const outcome = await changeEmail(ctx.deps, org, user, {
      email: form.email,
      password: form.password,
      ip: rateLimitKey(request),
      deviceToken: ctx.cookies.readDevice(request),
    });
    if (outcome.ok) return sendEmailChanged(visit, outcome.previousEmail, outcome.user);
    if (outcome.reason === 'throttled') return showThrottled(visit, user, outcome.retryAfterS);
    const texts = textsOf(request);
    const error =
      outcome.reason === 'wrong_password'
        ? texts.t('profile.password.wrong')
        : outcome.reason === 'conflict'
          ? texts.t('profile.email.taken')
          : texts.t('profile.email.check', { detail: ruleText(texts, outcome.problem) });
    return showProfile(visit, user, { error, status: outcome.reason === 'conflict' ? 409 : 400 });
  },
);
