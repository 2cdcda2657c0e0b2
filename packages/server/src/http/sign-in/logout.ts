import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  checkLogoutRequest,
  type LogoutParameters,
  postLogoutRedirect,
  signOut,
} from '../../domain/sign-in/logout.js';
import { type Org, SYSTEM } from '../../domain/types.js';
import {
  browserSessionOf,
  field,
  formOf,
  type PageContext,
  pageLink,
  pageRoute,
  queryValue,
} from './context.js';
import { logoutConfirmView, signedOutView } from './logout-views.js';
import { formTargetOf, sendPage } from './respond.js';

/** The CSRF binding of every sign-out form (the confirmation, the profile page's button). */
export const LOGOUT_FORM = 'logout';

/**
 * OIDC RP-Initiated Logout 1.0 at /oauth/logout (GET or a form POST): `id_token_hint`, `client_id`,
 * `post_logout_redirect_uri` (registered, exact), `state`. A hint naming the person signed in here
 * signs out at once; anything else (no hint, another person's, a forged request) asks the person
 * first, since a sign-out link could otherwise be planted anywhere. Signing out ends the browser's
 * sign-in and the OAuth sessions opened from it, then lands on the registered URI with `state`, or
 * on a "signed out" page.
 */
export function logoutEndpoint(app: FastifyInstance, ctx: PageContext) {
  const handle = async (
    org: Org,
    request: FastifyRequest,
    reply: FastifyReply,
    params: LogoutParameters,
    confirmed: boolean,
  ) => {
    const checked = await checkLogoutRequest(ctx.deps, org, params);
    const session = await browserSessionOf(ctx, org, request);
    const redirect = postLogoutRedirect(checked);
    if (session && !confirmed && checked.hint?.userId !== session.user.id) {
      const body = logoutConfirmView({
        action: pageLink(ctx, request, '/oauth/logout', {}),
        csrf: ctx.csrf.token(request, reply, LOGOUT_FORM, []),
        email: session.user.email,
        clientName: checked.client?.name ?? null,
        clientId: checked.client?.id ?? null,
        postLogoutRedirectUri: checked.postLogoutRedirectUri,
        state: checked.state,
      });
      const formTargets = redirect === null ? [] : [formTargetOf(redirect)];
      return sendPage(reply, org.name, 'Sign out?', body, { formTargets });
    }
    const userId = session?.user.id ?? checked.hint?.userId;
    await signOut(
      ctx.deps,
      org,
      session?.id ?? null,
      checked.hint,
      userId ? { kind: 'user', id: userId } : SYSTEM,
    );
    ctx.cookies.clear(reply, ctx.cookies.session);
    ctx.cookies.clear(reply, ctx.cookies.profile, '/profile');
    if (redirect !== null) return reply.redirect(redirect, 303);
    return sendPage(reply, org.name, 'Signed out', signedOutView());
  };

  app.get(
    '/oauth/logout',
    pageRoute(ctx, (org, request, reply) =>
      handle(
        org,
        request,
        reply,
        {
          idTokenHint: queryValue(request, 'id_token_hint'),
          clientId: queryValue(request, 'client_id'),
          postLogoutRedirectUri: queryValue(request, 'post_logout_redirect_uri'),
          state: queryValue(request, 'state'),
        },
        false,
      ),
    ),
  );

  app.post(
    '/oauth/logout',
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const value = (name: string) => field(form, name) || undefined;
      // A confirmation (this page's own form, or the profile page's button) carries its CSRF token.
      const confirmed =
        field(form, 'confirm') === 'yes' && ctx.csrf.check(request, LOGOUT_FORM, [], field(form, 'csrf'));
      return handle(
        org,
        request,
        reply,
        {
          idTokenHint: value('id_token_hint'),
          clientId: value('client_id'),
          postLogoutRedirectUri: value('post_logout_redirect_uri'),
          state: value('state'),
        },
        confirmed,
      );
    }),
  );
}
