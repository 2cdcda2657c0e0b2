import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clock } from '../../domain/clock.js';
import { signUpOffered, signUpRefusal } from '../../domain/directory/index.js';
import { fail, ServiceError } from '../../domain/errors.js';
import { mailVerification } from '../../domain/mail/index.js';
import {
  loginSucceeded,
  type PendingAuthorization,
  reserveLoginAttempt,
  signUp,
} from '../../domain/sign-in/index.js';
import type { Org, User } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { afterResponse } from './after-response.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { formTargets, optionalRequest, requestParams } from './flow.js';
import { signedIn } from './login.js';
import { CSRF_REJECTED, type PageOptions, sendErrorPage, sendPage } from './respond.js';
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
  pending: PendingAuthorization | null,
  entered: Entered,
  options: PageOptions = {},
) {
  const params = requestParams(pending);
  const body = signupView({
    action: pageLink(ctx, request, '/signup', params),
    csrf: ctx.csrf.token(request, reply, 'signup', [pending?.request.id ?? '']),
    ...entered,
    loginHref: pageLink(ctx, request, '/login', params),
    domains: org.signUp === 'domains' ? org.signUpDomains : null,
  });
  return sendPage(reply, org.name, 'Create your account', body, {
    formTargets: formTargets(pending),
    ...options,
  });
}

/** What to tell a person whose sign-up was refused. The address they typed is not repeated back. */
function signupError(error: ServiceError): string {
  if (error.code === 'conflict') return 'An account with this email already exists. Sign in instead.';
  if (error.code === 'forbidden') return error.detail ?? 'You cannot create an account here.';
  return error.detail ? `Please check the form: ${error.detail}.` : 'Please check the form.';
}

/**
 * The answer of /signup where the org offers no sign-up: the console never does (404, as before);
 * an invite-only org says so on a page of its own (403). Null where the form is offered.
 */
async function signUpClosed(ctx: PageContext, org: Org, request: FastifyRequest, reply: FastifyReply) {
  if (org.isConsole) return fail('not_found', 'This organization does not offer sign-up.');
  if (signUpOffered(org)) return null;
  const pending = await optionalRequest(ctx.deps, org, queryValue(request, 'req'));
  const loginHref = pageLink(ctx, request, '/login', requestParams(pending));
  return sendPage(reply, org.name, 'Invitation needed', signUpClosedView(signUpRefusal(org), loginHref), {
    status: 403,
  });
}

/**
 * GET and POST /signup, where the org allows it: creates the user with a personal tenant and
 * signs them in. Attempts share the login throttle (argon2 is as costly here as there).
 */
export function signupPages(app: FastifyInstance, ctx: PageContext) {
  app.get(
    '/signup',
    pageRoute(ctx, async (org, request, reply) => {
      const closed = await signUpClosed(ctx, org, request, reply);
      if (closed) return closed;
      const reqId = queryValue(request, 'req');
      const pending = await optionalRequest(ctx.deps, org, reqId);
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
      const pending = await optionalRequest(ctx.deps, org, reqId);
      if (!ctx.csrf.check(request, 'signup', [reqId ?? ''], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, CSRF_REJECTED);
      }
      const entered = {
        email: field(form, 'email').trim(),
        firstName: field(form, 'first_name'),
        lastName: field(form, 'last_name'),
      };
      const verdict = await reserveLoginAttempt(
        ctx.deps.db,
        org.id,
        entered.email,
        rateLimitKey(request),
        clock.now(),
      );
      if (!verdict.allowed) {
        const error = 'Too many attempts. Try again later.';
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
          { ...entered, error: signupError(error) },
          { status },
        );
      }
      await loginSucceeded(ctx.deps.db, org.id, entered.email, rateLimitKey(request));
      afterResponse(ctx, request, reply, 'verification mail', () => mailVerification(ctx.deps, org, user.id));
      return signedIn(ctx, org, request, reply, user, pending);
    }),
  );
}
