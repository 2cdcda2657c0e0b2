import {
  ACCOUNT_LINK_TTL_MS,
  type Connection,
  completeLinkedSignIn,
  FederationRefused,
  offerAccountLink,
  peekAccountLink,
  requireConnection,
  takeAccountLink,
  type UpstreamIdentity,
} from '../../domain/federation/index.js';
import { reserveMail } from '../../domain/mail/index.js';
import type { User } from '../../domain/types.js';
import { afterResponse } from './after-response.js';
import { pageLink, queryValue } from './context.js';
import { boundBrowser, keepBrowserBinding } from './federation-binding.js';
import { showRefusal } from './federation-refusal.js';
import { linkConfirmView, linkSentView } from './federation-views.js';
import { hostedPage, refuseForm, type Visit } from './hosted-page.js';
import { renderLogin } from './login.js';
import { textsOf } from './page-texts.js';
import { reserveForRequester } from './requester-throttle.js';
import { sendPage, throttledPage } from './respond.js';
import { sendSignIn } from './session-start.js';

/**
 * Proving an existing account before an upstream sign-in is linked to it (DESIGN §17,
 * domain/federation/account-link-proofs.ts): the page that says a link was mailed, and the link's
 * own page, GET (a button: mail scanners follow links, they do not submit forms) and POST (links,
 * then signs in and goes on with the authorization request). Both work only in the browser that
 * signed in upstream; elsewhere they say so and leave the link for that browser.
 */

/** After an upstream sign-in whose account must be proved: mails the link (throttled) and says so. */
export async function offerLinkPage(
  visit: Visit,
  c: Connection,
  answer: { identity: UpstreamIdentity; requestId: string | null },
  user: User,
) {
  const { ctx, org, request, reply } = visit;
  const binding = boundBrowser(ctx, request);
  // The way back checked this cookie already; without it no link could ever be followed here.
  if (binding === null)
    return showRefusal(
      ctx,
      org,
      request,
      reply,
      null,
      new FederationRefused(
        'federation.link.lost',
        'This browser did not keep the cookie of its sign-in. Sign in again.',
        400,
      ),
    );
  const verdict = await reserveForRequester(reserveMail, visit, user.email);
  if (!verdict.allowed) {
    const { error, options } = throttledPage(textsOf(request), verdict.retryAfterS, 'throttled.links');
    return renderLogin(ctx, org, request, reply, null, { email: '', error }, options);
  }
  keepBrowserBinding(ctx, reply, binding, ACCOUNT_LINK_TTL_MS);
  const { minutes, send } = await offerAccountLink(ctx.deps, org, c, { ...answer, user, binding });
  afterResponse(ctx, request, reply, 'account link mail', send);
  return sendPage(
    reply,
    org.name,
    textsOf(request).t('federation.link_sent.title'),
    linkSentView(textsOf(request), { email: user.email, connection: c.name, minutes }),
  );
}

export const accountLinkPage = hostedPage(
  { path: '/sso/:con/link', summary: 'an account-link mail’s link: the button that links' },
  async ({ ctx, org, request, reply, params }) => {
    const c = await requireConnection(ctx.deps, org, params.con);
    const token = queryValue(request, 'token') ?? '';
    try {
      const held = await peekAccountLink(ctx.deps, c.id, token, boundBrowser(ctx, request));
      const body = linkConfirmView(textsOf(request), {
        action: pageLink(ctx, request, `/sso/${c.id}/link`, {}),
        csrf: ctx.csrf.token(request, reply, 'account-link', []),
        token,
        email: held.link.sentTo,
        connection: c.name,
      });
      const title = textsOf(request).t('federation.link.title', { connection: c.name });
      return sendPage(reply, org.name, title, body);
    } catch (error) {
      return showRefusal(ctx, org, request, reply, null, error);
    }
  },
);

export const accountLink = hostedPage(
  {
    path: '/sso/:con/link',
    summary: 'link the upstream sign-in to the proved account, then sign in',
    form: ['csrf', 'token'],
  },
  async (visit) => {
    const { ctx, org, request, reply, params, form } = visit;
    const c = await requireConnection(ctx.deps, org, params.con);
    if (!ctx.csrf.check(request, 'account-link', [], form.csrf)) return refuseForm(visit);
    try {
      const held = await takeAccountLink(ctx.deps, c.id, form.token, boundBrowser(ctx, request));
      return sendSignIn(ctx, org, request, reply, await completeLinkedSignIn(ctx.deps, org, c, held));
    } catch (error) {
      return showRefusal(ctx, org, request, reply, null, error);
    }
  },
);
