import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import { signUpOffered } from '../../domain/directory/index.js';
import { fail, inputProblemOf, ServiceError } from '../../domain/errors.js';
import {
  checkSignUpRequest,
  confirmSignUp,
  mailSignUpLink,
  mailVerification,
  peekSignUp,
  reserveMail,
  SIGN_UP_LINK_MINUTES,
  SIGN_UP_LINK_PATH,
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
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { discoveredConnection } from './federation-login.js';
import { formTargets, optionalRequest, pendingBinding, requestParams } from './flow.js';
import { signedIn } from './login.js';
import { linkClosedView, signUpConfirmView, signUpSentView } from './mail-views.js';
import { ruleText, textsOf } from './page-texts.js';
import { type PageOptions, sendErrorPage, sendPage, throttledPage } from './respond.js';
import { signUpClosedView, signupView } from './views.js';

interface Entered {
  email: string;
  firstName: string;
  lastName: string;
  error: string | null;
}

function renderSignup(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  pending: PendingSignIn | null,
  entered: Entered,
  options: PageOptions = {},
) {
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
function signupError(texts: Texts, org: Org, error: ServiceError): string {
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
async function signUpClosed(ctx: PageContext, org: Org, request: FastifyRequest, reply: FastifyReply) {
  if (org.isConsole) return fail('sign_up.closed', 'This organization does not offer sign-up.');
  if (signUpOffered(org)) return null;
  const pending = await optionalRequest(ctx.deps, org, queryValue(request, 'req'), request);
  const loginHref = pageLink(ctx, request, '/login', requestParams(pending));
  return sendPage(
    reply,
    org.name,
    textsOf(request).t('signup.closed.title'),
    signUpClosedView(textsOf(request), signUpRefusalText(textsOf(request), org), loginHref),
    {
      status: 403,
    },
  );
}

/**
 * POST /signup under the `domains` policy: no account yet, a link mailed to the address
 * (mail/sign-up-links.ts), counted as a mail people can make Tessera send. The same page whether
 * or not the address has an account; the lookup and the mail happen after the answer.
 */
async function mailedSignUp(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  pending: PendingSignIn | null,
  entered: Omit<Entered, 'error'>,
) {
  const verdict = await reserveMail(
    ctx.deps.store,
    org.id,
    entered.email,
    rateLimitKey(request),
    clock.now(),
  );
  if (!verdict.allowed) {
    const { error, options } = throttledPage(textsOf(request), verdict.retryAfterS, 'throttled.links');
    return renderSignup(ctx, org, request, reply, pending, { ...entered, error }, options);
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
      ctx,
      org,
      request,
      reply,
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
 * GET and POST /signup/confirm?token=… of a `domains` sign-up: GET shows the password form without
 * spending the link; POST checks the password, spends the link, makes the account (verified) and
 * signs in. A link unknown, used or expired says so.
 */
function signUpConfirmPages(app: FastifyInstance, ctx: PageContext) {
  const closed = (request: FastifyRequest) => linkClosedView(textsOf(request), 'sign_up', null);
  const form = (
    ctx: PageContext,
    request: FastifyRequest,
    reply: FastifyReply,
    token: string,
    email: string,
    error: string | null,
  ) =>
    signUpConfirmView(textsOf(request), {
      action: pageLink(ctx, request, SIGN_UP_LINK_PATH, {}),
      csrf: ctx.csrf.token(request, reply, 'signup-confirm', []),
      token,
      email,
      error,
    });

  app.get(
    SIGN_UP_LINK_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const token = queryValue(request, 'token') ?? '';
      const email = await peekSignUp(ctx.deps, org, token);
      if (email === null)
        return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), closed(request), {
          status: 400,
        });
      return sendPage(
        reply,
        org.name,
        textsOf(request).t('signup.finish.title'),
        form(ctx, request, reply, token, email, null),
      );
    }),
  );

  app.post(
    SIGN_UP_LINK_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const posted = formOf(request);
      if (!ctx.csrf.check(request, 'signup-confirm', [], field(posted, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const token = field(posted, 'token');
      const password = field(posted, 'password');
      const again = async (error: string, status: number) => {
        const email = await peekSignUp(ctx.deps, org, token);
        if (email === null)
          return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), closed(request), {
            status: 400,
          });
        return sendPage(
          reply,
          org.name,
          textsOf(request).t('signup.finish.title'),
          form(ctx, request, reply, token, email, error),
          {
            status,
          },
        );
      };
      if (password !== field(posted, 'password_confirm'))
        return again(textsOf(request).t('signup.mismatch'), 400);
      let user: User | null;
      try {
        user = await confirmSignUp(ctx.deps, org, token, password);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.status >= 500) throw error;
        if (error.code === 'invalid_body') return again(signupError(textsOf(request), org, error), 400);
        const status = error.code === 'conflict' ? 409 : 403;
        return sendErrorPage(
          reply,
          org.name,
          status,
          signupError(textsOf(request), org, error),
          error.situation,
        );
      }
      if (user === null)
        return sendPage(reply, org.name, textsOf(request).t('link.closed.title'), closed(request), {
          status: 400,
        });
      return signedIn(ctx, org, request, reply, user, null);
    }),
  );
}

/**
 * GET and POST /signup, where the org allows it: creates the user with a personal tenant and
 * signs them in (under `domains`, mails a link instead: mailedSignUp). Attempts share the login
 * throttle (argon2 is as costly here as there). An address a connection claims goes there.
 */
export function signupPages(app: FastifyInstance, ctx: PageContext) {
  signUpConfirmPages(app, ctx);
  app.get(
    '/signup',
    pageRoute(ctx, async (org, request, reply) => {
      const closed = await signUpClosed(ctx, org, request, reply);
      if (closed) return closed;
      const reqId = queryValue(request, 'req');
      const pending = await optionalRequest(ctx.deps, org, reqId, request);
      const empty = { email: '', firstName: '', lastName: '', error: null };
      return renderSignup(ctx, org, request, reply, pending, empty);
    }),
  );

  app.post(
    '/signup',
    pageRoute(ctx, async (org, request, reply) => {
      const closed = await signUpClosed(ctx, org, request, reply);
      if (closed) return closed;
      const form = formOf(request);
      const reqId = queryValue(request, 'req');
      const pending = await optionalRequest(ctx.deps, org, reqId, request);
      if (!ctx.csrf.check(request, 'signup', [reqId ?? ''], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const entered = {
        email: field(form, 'email').trim(),
        firstName: field(form, 'first_name'),
        lastName: field(form, 'last_name'),
      };
      // An address a connection claims signs up there, as it signs in there (DESIGN §17).
      const upstream = await discoveredConnection(ctx, org, request, entered.email, reqId);
      if (upstream !== null) return reply.redirect(upstream, 303);
      if (org.signUp === 'domains') return mailedSignUp(ctx, org, request, reply, pending, entered);
      const verdict = await reserveLoginAttempt(
        ctx.deps.store,
        org.id,
        entered.email,
        rateLimitKey(request),
        clock.now(),
      );
      if (!verdict.allowed) {
        const error = textsOf(request).t('throttled.later');
        const headers = { 'retry-after': String(verdict.retryAfterS) };
        return renderSignup(
          ctx,
          org,
          request,
          reply,
          pending,
          { ...entered, error },
          { status: 429, headers },
        );
      }
      let user: User;
      try {
        user = await signUp(ctx.deps, org, {
          ...entered,
          password: field(form, 'password'),
          firstName: entered.firstName.trim() || null,
          lastName: entered.lastName.trim() || null,
        });
      } catch (error) {
        if (!(error instanceof ServiceError) || error.status >= 500) throw error;
        const status = error.code === 'conflict' ? 409 : error.code === 'forbidden' ? 403 : 400;
        return renderSignup(
          ctx,
          org,
          request,
          reply,
          pending,
          { ...entered, error: signupError(textsOf(request), org, error) },
          { status },
        );
      }
      await loginSucceeded(ctx.deps.store, org.id, entered.email, rateLimitKey(request));
      afterResponse(ctx, request, reply, 'verification mail', () =>
        mailVerification(ctx.deps, org, user.id, textsOf(request).locale),
      );
      return signedIn(ctx, org, request, reply, user, pending);
    }),
  );
}
