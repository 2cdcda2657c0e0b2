import type { FastifyReply, FastifyRequest } from 'fastify';
import { issuerOf } from '../../domain/issuers.js';
import {
  checkLogoutRequest,
  frontChannelLogoutUrl,
  type LogoutParameters,
  postLogoutRedirect,
  signOut,
} from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { LogoutRequest } from '../openapi/described-schemas.js';
import { htmlPage } from '../openapi/oauth-responses.js';
import type { Operation } from '../openapi/operation.js';
import { operation } from '../served-operation.js';
import {
  browserSessionOf,
  field,
  formOf,
  type PageContext,
  pageLink,
  pageRoute,
  queryValue,
} from './context.js';
import { type LogoutFields, logoutConfirmView, signedOutView } from './logout-views.js';
import { textsOf } from './page-texts.js';
import { equivalentGet, getOrPostOperation } from './post-as-get.js';
import { formTargetOf, sendPage } from './respond.js';

/** The CSRF form name of every sign-out form (the confirmation, the profile page's button). */
export const LOGOUT_FORM = 'logout';

/**
 * The CSRF binding of a sign-out form: the fields it carries, so a confirmed form proves they are
 * the ones this service put there (a redirect URI only when it was allowed).
 */
export const logoutBinding = (f: LogoutFields): string[] => [
  f.clientId ?? '',
  f.postLogoutRedirectUri ?? '',
  f.state ?? '',
];

/**
 * OIDC RP-Initiated Logout 1.0 at /oauth/logout (GET or a form POST): `id_token_hint`, `client_id`,
 * `post_logout_redirect_uri` (registered, exact), `state`. Only this browser's sign-in (its login
 * cookie) and the OAuth sessions opened from it can end: a hint naming the person signed in here
 * signs out at once; anything else (no hint, another person's, a forged request) asks the person
 * first, since a sign-out link could otherwise be planted anywhere; a hint with no sign-in here ends
 * nothing. Then the registered URI with `state` when a hint of that client or a first-party client
 * allows it (domain/sign-in/logout.ts), else a "signed out" page.
 */
async function logOut(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  params: LogoutParameters,
  confirmed: boolean,
) {
  const checked = await checkLogoutRequest(ctx.deps, org, params);
  // A confirmed form carries a redirect URI only when the confirmation allowed it, and its CSRF
  // token is bound to it (logoutBinding).
  const redirect = postLogoutRedirect(confirmed ? { ...checked, redirectAllowed: true } : checked);
  const session = await browserSessionOf(ctx, org, request);
  if (session && !confirmed && checked.hint?.userId !== session.user.id) {
    const fields: LogoutFields = {
      clientId: checked.client?.id ?? null,
      postLogoutRedirectUri: redirect === null ? null : checked.postLogoutRedirectUri,
      state: redirect === null ? null : checked.state,
    };
    const body = logoutConfirmView(textsOf(request), {
      ...fields,
      action: pageLink(ctx, request, '/oauth/logout', {}),
      csrf: ctx.csrf.token(request, reply, LOGOUT_FORM, logoutBinding(fields)),
      email: session.user.email,
      clientName: checked.client?.name ?? null,
    });
    const formTargets = redirect === null ? [] : [formTargetOf(redirect)];
    return sendPage(reply, org.name, textsOf(request).t('logout.title'), body, { formTargets });
  }
  const frames = session
    ? (await signOut(ctx.deps, session.id, { kind: 'user', id: session.user.id })).frames
    : [];
  ctx.cookies.clear(reply, ctx.cookies.session);
  ctx.cookies.clear(reply, ctx.cookies.profile, '/profile');
  if (frames.length === 0) {
    if (redirect !== null) return reply.redirect(redirect, 303);
    return sendPage(reply, org.name, textsOf(request).t('signed_out.title'), signedOutView(textsOf(request)));
  }
  // Front-channel logout (OIDC Front-Channel Logout 1.0 §2): the page frames each client's logout
  // URI, its CSP allowing exactly those origins; a redirect follows after a moment (no script runs
  // here), with a link to go at once.
  const issuer = issuerOf(ctx.deps.config, org);
  const urls = frames.map((f) => frontChannelLogoutUrl(issuer, f));
  return sendPage(
    reply,
    org.name,
    textsOf(request).t('signed_out.title'),
    signedOutView(textsOf(request), { frames: urls, next: redirect }),
    {
      frameSources: urls.map((u) => new URL(u).origin),
      ...(redirect === null ? {} : { headers: { refresh: `${FRAME_WAIT_S};url=${redirect}` } }),
    },
  );
}

/** How long the signed-out page lets front-channel frames load before it follows the redirect. */
const FRAME_WAIT_S = 2;

/** /oauth/logout as documented for `method`: the parameters in the query (GET) or a form (POST). */
const logoutOperation = (method: 'get' | 'post'): Operation => ({
  ...getOrPostOperation(method, '/oauth/logout', 'logout', LogoutRequest),
  summary: 'End session endpoint (OIDC RP-Initiated Logout 1.0)',
  description:
    'Ends the browser’s sign-in (its login cookie) and the OAuth sessions opened from it, nothing ' +
    'else. With an `id_token_hint` naming the person signed in, at once; otherwise after the person ' +
    'confirms on a page. Redirects only with a hint of the client, or for a first-party client. Every ' +
    'client the sign-in signed into that registered a `backchannel_logout_uri` is sent a logout token ' +
    '(OIDC Back-Channel Logout 1.0); those with a `frontchannel_logout_uri` are framed by the ' +
    '“signed out” page (OIDC Front-Channel Logout 1.0), which then follows the redirect after two seconds.',
  responses: {
    200: htmlPage(
      'the confirmation page, or the “signed out” page: when no redirect URI may be followed, or when it ' +
        'frames front-channel logout URIs (`frame-src` their origins; a `Refresh` header to the redirect)',
    ),
    303: {
      description:
        method === 'get'
          ? 'to `post_logout_redirect_uri`, with `state`, when no front-channel frame is shown'
          : 'to `post_logout_redirect_uri`, with `state`, when no front-channel frame is shown; or, for a form without `confirm`, to the same ' +
            'request as a GET of /oauth/logout on this host, so the browser sends its login cookie',
    },
    400: htmlPage('an invalid hint, client or redirect URI: an error page, never a redirect'),
  },
});

export const logoutGet = operation(logoutOperation('get'), ({ pages: ctx }) =>
  pageRoute(ctx, (org, request, reply) =>
    logOut(
      ctx,
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

/** The parameters /oauth/logout reads (RP-Initiated Logout §2). */
const LOGOUT_PARAMETERS = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'];

/**
 * POST /oauth/logout: a confirmation (this service's own forms, which carry `confirm` and a CSRF
 * token, posted from this host) is answered here; a relying party's form, usually posted
 * cross-site without the login cookie, gets a 303 to the same request as a GET (post-as-get.ts), so
 * that it ends this browser's sign-in as a GET would instead of finding nobody signed in.
 */
export const logoutPost = operation(logoutOperation('post'), ({ pages: ctx }) =>
  pageRoute(ctx, async (org, request, reply) => {
    const form = formOf(request);
    if (!form.has('confirm')) {
      const location = equivalentGet(ctx, request, '/oauth/logout', LOGOUT_PARAMETERS, form);
      if (location !== null) return reply.redirect(location, 303);
    }
    const value = (name: string) => field(form, name) || undefined;
    // A confirmation (this page's own form, or the profile page's button) carries its CSRF token.
    const binding = logoutBinding({
      clientId: field(form, 'client_id'),
      postLogoutRedirectUri: field(form, 'post_logout_redirect_uri'),
      state: field(form, 'state'),
    });
    const confirmed =
      field(form, 'confirm') === 'yes' && ctx.csrf.check(request, LOGOUT_FORM, binding, field(form, 'csrf'));
    return logOut(
      ctx,
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
