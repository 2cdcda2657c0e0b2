import { ServiceError } from '../../domain/errors.js';
import { confirmSignUp, peekSignUp, SIGN_UP_LINK_PATH } from '../../domain/mail/index.js';
import type { User } from '../../domain/types.js';
import { pageLink, queryValue } from './context.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { signedIn } from './login.js';
import { linkClosedView, signUpConfirmView } from './mail-views.js';
import { textsOf } from './page-texts.js';
import { type PageOptions, sendErrorPage, sendPage } from './respond.js';
import { signupError } from './signup.js';

/*
 * GET and POST /signup/confirm?token=… of a `domains` sign-up: GET shows the password form without
 * spending the link; POST checks the password, spends the link, makes the account (verified) and
 * signs in. A link unknown, used or expired says so.
 */

/** A sign-up link that is used, expired or unknown: 400. */
function sendClosed({ org, request, reply }: Visit) {
  const body = linkClosedView(textsOf(request), 'sign_up', null);
  return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), body, { status: 400 });
}

/** The password form of the link's address, with what was wrong if anything. */
function renderConfirm(
  visit: Visit,
  token: string,
  email: string,
  error: string | null,
  options: PageOptions = {},
) {
  const { ctx, org, request, reply } = visit;
  const body = signUpConfirmView(textsOf(request), {
    action: pageLink(ctx, request, SIGN_UP_LINK_PATH, {}),
    csrf: ctx.csrf.token(request, reply, 'signup-confirm', []),
    token,
    email,
    error,
  });
  return sendPage(reply, org.name, textsOf(request).t('signup.finish.title'), body, options);
}

/** The form again with what was wrong, while the link still opens it. */
async function renderAgain(visit: Visit, token: string, error: string, status: number) {
  const email = await peekSignUp(visit.ctx.deps, visit.org, token);
  if (email === null) return sendClosed(visit);
  return renderConfirm(visit, token, email, error, { status });
}

/** The account made from the link (null when the link no longer opens), or the refusal sent. */
async function confirmed(
  visit: Visit,
  token: string,
  password: string,
): Promise<{ user: User | null } | { sent: unknown }> {
  const { ctx, org, reply } = visit;
  try {
    return { user: await confirmSignUp(ctx.deps, org, token, password) };
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status >= 500) throw error;
    const words = signupError(textsOf(visit.request), org, error);
    if (error.code === 'invalid_body') return { sent: await renderAgain(visit, token, words, 400) };
    const status = error.code === 'conflict' ? 409 : 403;
    return { sent: sendErrorPage(reply, org.name, status, words, error.situation) };
  }
}

export const signupConfirmPage = hostedPage(
  { path: SIGN_UP_LINK_PATH, summary: 'a sign-up link: the form choosing the password' },
  async (visit) => {
    const token = queryValue(visit.request, 'token') ?? '';
    const email = await peekSignUp(visit.ctx.deps, visit.org, token);
    if (email === null) return sendClosed(visit);
    return renderConfirm(visit, token, email, null);
  },
);

export const signupConfirm = hostedPage(
  {
    path: SIGN_UP_LINK_PATH,
    summary: 'finish a sign-up: the link is used, the account made (verified) and signed in',
    form: ['csrf', 'token', 'password', 'password_confirm'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    if (!ctx.csrf.check(request, 'signup-confirm', [], form.csrf)) return refuseForm(visit);
    if (form.password !== form.password_confirm) {
      return renderAgain(visit, form.token, textsOf(request).t('signup.mismatch'), 400);
    }
    const made = await confirmed(visit, form.token, form.password);
    if ('sent' in made) return made.sent;
    if (made.user === null) return sendClosed(visit);
    return signedIn(ctx, org, request, reply, made.user, null);
  },
);
