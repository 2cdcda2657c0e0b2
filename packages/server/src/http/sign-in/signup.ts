import { signUpOffered } from '../../domain/directory/index.js';
import { fail, inputProblemOf, ServiceError } from '../../domain/errors.js';
import {
  checkSignUpRequest,
  mailSignUpLink,
  mailVerification,
  reserveMail,
  SIGN_UP_LINK_MINUTES,
} from '../../domain/mail/index.js';
import {
  loginSucceeded,
  type PendingSignIn,
  reserveLoginAttempt,
  signUp,
} from '../../domain/sign-in/index.js';
import type { Texts } from '../../domain/texts/index.js';
import type { Org, User } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { afterResponse } from './after-response.js';
import { pageLink } from './context.js';
import { discoveredConnection } from './federation-login.js';
import { formTargets, pageRequest, pendingBinding, requestParams } from './flow.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { signedIn } from './login.js';
import { signUpSentView } from './mail-views.js';
import { ruleText, textsOf } from './page-texts.js';
import { reserveForRequester } from './requester-throttle.js';
import { type PageOptions, sendPage, throttledPage } from './respond.js';
import { signUpClosedView, signupView } from './views.js';

interface Entered {
  email: string;
  firstName: string;
  lastName: string;
  error: string | null;
}

/** The sign-up form, with what was typed and what was wrong. */
function renderSignup(
  visit: Visit,
  pending: PendingSignIn | null,
  entered: Entered,
  options: PageOptions = {},
) {
  const { ctx, org, request, reply } = visit;
  const params = requestParams(pending);
  const body = signupView(textsOf(request), {
    action: pageLink(ctx, request, '/signup', params),
    csrf: ctx.csrf.token(request, reply, 'signup', [pendingBinding(pending)]),
    ...entered,
    loginHref: pageLink(ctx, request, '/login', params),
    domains: org.signUp === 'domains' ? org.signUpDomains : null,
  });
  return sendPage(reply, org.name, textsOf(request).t('signup.title'), body, {
    formTargets: formTargets(pending),
    ...options,
  });
}

/** What to tell a person whose sign-up was refused. The address they typed is not repeated back. */
export function signupError(texts: Texts, org: Org, error: ServiceError): string {
  if (error.code === 'conflict') return texts.t('signup.exists');
  if (error.code === 'forbidden')
    return error.situation === 'sign_up.refused' ? signUpRefusalText(texts, org) : texts.t('signup.refused');
  return error.detail
    ? texts.t('signup.check_form.detail', { detail: ruleText(texts, inputProblemOf(error)) })
    : texts.t('signup.check_form');
}

/** Why this org takes no sign-up from this address: invitation only, or the domains it is open to. */
function signUpRefusalText(texts: Texts, org: Org): string {
  if (org.isConsole || org.signUp !== 'domains')
    return texts.t('signup.closed.invite_only', { org: org.name });
  return texts.t('signup.closed.domains', { domains: org.signUpDomains.map((d) => `@${d}`).join(', ') });
}

/**
 * The answer of /signup where the org offers no sign-up: the console never does (404, as before);
 * an invite-only org says so on a page of its own (403). Null where the form is offered.
 */
async function signUpClosed(visit: Visit) {
  const { ctx, org, request, reply } = visit;
  if (org.isConsole) return fail('sign_up.closed', 'This organization does not offer sign-up.');
  if (signUpOffered(org)) return null;
  const { pending } = await pageRequest(visit);
  const loginHref = pageLink(ctx, request, '/login', requestParams(pending));
  const texts = textsOf(request);
  const body = signUpClosedView(texts, signUpRefusalText(texts, org), loginHref);
  return sendPage(reply, org.name, texts.t('signup.closed.title'), body, { status: 403 });
}

/**
 * POST /signup under the `domains` policy: no account yet, a link mailed to the address
 * (mail/sign-up-links.ts), counted as a mail people can make Tessera send. The same page whether
 * or not the address has an account; the lookup and the mail happen after the answer.
 */
async function mailedSignUp(visit: Visit, pending: PendingSignIn | null, entered: Omit<Entered, 'error'>) {
  const { ctx, org, request, reply } = visit;
  const verdict = await reserveForRequester(reserveMail, visit, entered.email);
  if (!verdict.allowed) {
    const { error, options } = throttledPage(textsOf(request), verdict.retryAfterS, 'throttled.links');
    return renderSignup(visit, pending, { ...entered, error }, options);
  }
  let asked: ReturnType<typeof checkSignUpRequest>;
  try {
    asked = checkSignUpRequest(org, {
      email: entered.email,
      firstName: entered.firstName.trim() || null,
      lastName: entered.lastName.trim() || null,
    });
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status >= 500) throw error;
    const status = error.code === 'forbidden' ? 403 : 400;
    return renderSignup(
      visit,
      pending,
      { ...entered, error: signupError(textsOf(request), org, error) },
      { status },
    );
  }
  afterResponse(ctx, request, reply, 'sign-up mail', () =>
    mailSignUpLink(ctx.deps, org, asked, textsOf(request).locale),
  );
  const loginHref = pageLink(ctx, request, '/login', requestParams(pending));
  return sendPage(
    reply,
    org.name,
    textsOf(request).t('signup.sent.title'),
    signUpSentView(textsOf(request), { minutes: SIGN_UP_LINK_MINUTES, loginHref }),
  );
}

/**
 * A sign-up where the org takes it at once: throttled like logins, the user made with a tenant of
 * their own and signed in, the verification mail sent after the answer.
 */
async function directSignUp(
  visit: Visit,
  pending: PendingSignIn | null,
  entered: Omit<Entered, 'error'>,
  password: string,
) {
  const { ctx, org, request, reply } = visit;
  const verdict = await reserveForRequester(reserveLoginAttempt, visit, entered.email);
  if (!verdict.allowed) {
    const error = textsOf(request).t('throttled.later');
    const headers = { 'retry-after': String(verdict.retryAfterS) };
    return renderSignup(visit, pending, { ...entered, error }, { status: 429, headers });
  }
  let user: User;
  try {
    user = await signUp(ctx.deps, org, {
      ...entered,
      password,
      firstName: entered.firstName.trim() || null,
      lastName: entered.lastName.trim() || null,
    });
  } catch (error) {
    if (!(error instanceof ServiceError) || error.status >= 500) throw error;
    const status = error.code === 'conflict' ? 409 : error.code === 'forbidden' ? 403 : 400;
    const refused = { ...entered, error: signupError(textsOf(request), org, error) };
    return renderSignup(visit, pending, refused, { status });
  }
  await loginSucceeded(ctx.deps.store, org.id, entered.email, rateLimitKey(request));
  afterResponse(ctx, request, reply, 'verification mail', () =>
    mailVerification(ctx.deps, org, user.id, textsOf(request).locale),
  );
  return signedIn(ctx, org, request, reply, user, pending);
}

/*
 * GET and POST /signup, where the org allows it: creates the user with a personal tenant and
 * signs them in (under `domains`, mails a link instead: mailedSignUp). Attempts share the login
 * throttle (argon2 is as costly here as there). An address a connection claims goes there.
 */

export const signupPage = hostedPage(
  { path: '/signup', summary: 'the sign-up form, where the org offers one' },
  async (visit) => {
    const closed = await signUpClosed(visit);
    if (closed) return closed;
    const { pending } = await pageRequest(visit);
    return renderSignup(visit, pending, { email: '', firstName: '', lastName: '', error: null });
  },
);

export const signup = hostedPage(
  {
    path: '/signup',
    summary: 'sign up: an account at once, or a link mailed (domains policy)',
    form: ['csrf', 'email', 'first_name', 'last_name', 'password'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    const closed = await signUpClosed(visit);
    if (closed) return closed;
    const { reqId, pending } = await pageRequest(visit);
    if (!ctx.csrf.check(request, 'signup', [reqId ?? ''], form.csrf)) return refuseForm(visit);
    const entered = { email: form.email.trim(), firstName: form.first_name, lastName: form.last_name };
    // An address a connection claims signs up there, as it signs in there (DESIGN §17).
    const upstream = await discoveredConnection(ctx, org, request, entered.email, reqId);
    if (upstream !== null) return reply.redirect(upstream, 303);
    if (org.signUp === 'domains') return mailedSignUp(visit, pending, entered);
    return directSignUp(visit, pending, entered, form.password);
  },
);
