import type { FastifyReply, FastifyRequest } from 'fastify';
import { signUpOffered } from '../../domain/directory/index.js';
import {
  checkPassword,
  completeAuthentication,
  loginHintOf,
  PASSWORD_SIGN_IN,
  type PendingSignIn,
  resumePendingSignIn,
} from '../../domain/sign-in/index.js';
import type { Org, User } from '../../domain/types.js';
import { rateLimitKey } from '../client-ip.js';
import { browserSessionOf, type PageContext, pageLink } from './context.js';
import { discoveredConnection, loginConnections } from './federation-login.js';
import { formTargets, pageRequest, pendingBinding, requestParams, sendOutcome } from './flow.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { textsOf } from './page-texts.js';
import { loginPasskeySection } from './passkeys.js';
import { type PageOptions, sendPage, throttledPage } from './respond.js';
import { sendSignIn } from './session-start.js';
import { loginView, signedInView } from './views.js';

export async function renderLogin(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  pending: PendingSignIn | null,
  state: { email: string; error: string | null },
  options: PageOptions = {},
) {
  const params = requestParams(pending);
  const passkey = loginPasskeySection(ctx, request, reply, pending);
  const sso = await loginConnections(ctx, org, request, pending === null ? null : pendingBinding(pending));
  const body = loginView(textsOf(request), {
    action: pageLink(ctx, request, '/login', params),
    csrf: ctx.csrf.token(request, reply, 'login', [pendingBinding(pending)]),
    email: state.email,
    error: state.error,
    signupHref: signUpOffered(org) ? pageLink(ctx, request, '/signup', params) : null,
    forgotHref: pageLink(ctx, request, '/password/forgot', params),
    passkey,
    connections: sso.buttons,
    discovery: sso.discovery,
  });
  const scripts = passkey !== null;
  return sendPage(reply, org.name, textsOf(request).t('login.title'), body, {
    formTargets: [...formTargets(pending), ...sso.upstreams],
    scripts,
    ...options,
  });
}

/**
 * After a correct password or a sign-up: the domain decides the rest (on to the second factor when
 * the user has one or the org requires one, else signed in and on with the request).
 */
export async function signedIn(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  user: User,
  pending: PendingSignIn | null,
) {
  const proven = { user, method: PASSWORD_SIGN_IN };
  const completed = await completeAuthentication(ctx.deps, org, proven, pending);
  return sendSignIn(ctx, org, request, reply, completed);
}

/*
 * GET and POST /login: email and password, throttled, generic on failure.
 */

/** The login form: on with the request when this browser may go on without it, else asked. */
async function showLogin(visit: Visit, pending: PendingSignIn | null) {
  const { ctx, org, request, reply } = visit;
  const session = await browserSessionOf(ctx, org, request);
  const resumed = pending === null ? null : await resumePendingSignIn(ctx.deps, org, pending, session);
  if (resumed !== null) return sendOutcome(ctx, org, request, reply, resumed, 303);
  if (session && !pending) {
    const texts = textsOf(request);
    return sendPage(reply, org.name, texts.t('signed_in.title'), signedInView(texts, session.user.email));
  }
  // Signing in again (prompt=login, max_age): the hint, else the address signed in now.
  const email = (pending && loginHintOf(pending)) ?? session?.user.email ?? '';
  return renderLogin(ctx, org, request, reply, pending, { email, error: null });
}

/** The password checked (and throttled): signed in, or the form again in the same words for every address. */
async function passwordSignIn(visit: Visit, pending: PendingSignIn | null, email: string, password: string) {
  const { ctx, org, request, reply } = visit;
  const device = ctx.cookies.readDevice(request);
  const outcome = await checkPassword(ctx.deps, org, email, password, rateLimitKey(request), device);
  if (outcome.ok) return signedIn(ctx, org, request, reply, outcome.user, pending);
  if (outcome.reason === 'throttled') {
    const { error, options } = throttledPage(textsOf(request), outcome.retryAfterS, 'login.throttled');
    return renderLogin(ctx, org, request, reply, pending, { email, error }, options);
  }
  const error = textsOf(request).t('login.invalid');
  return renderLogin(ctx, org, request, reply, pending, { email, error }, { status: 400 });
}

export const loginPage = hostedPage(
  {
    path: '/login',
    summary: 'the login form (email and password, passkey, enterprise sign-in)',
  },
  async (visit) => {
    const { pending } = await pageRequest(visit);
    return showLogin(visit, pending);
  },
);

export const login = hostedPage(
  {
    path: '/login',
    summary: 'sign in with email and password, or go on to the connection that claims the address',
    form: ['csrf', 'email', 'password'],
  },
  async (visit) => {
    const { ctx, org, request, reply, form } = visit;
    const { reqId, pending } = await pageRequest(visit);
    if (!ctx.csrf.check(request, 'login', [reqId ?? ''], form.csrf)) return refuseForm(visit);
    const email = form.email.trim();
    // Email-domain discovery (DESIGN §17): an address a connection claims signs in there.
    const upstream = await discoveredConnection(ctx, org, request, email, reqId);
    if (upstream !== null) return reply.redirect(upstream, 303);
    return passwordSignIn(visit, pending, email, form.password);
  },
);
