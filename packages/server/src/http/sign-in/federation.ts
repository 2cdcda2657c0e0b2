import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type Connection,
  completeFederatedSignIn,
  FederationRefused,
  finishOidcSignIn,
  holdSamlAnswer,
  requireConnection,
  startOidcSignIn,
  startSamlSignIn,
  takeFederatedAnswer,
  type UpstreamIdentity,
} from '../../domain/federation/index.js';
import type { Org } from '../../domain/types.js';
import { field, formOf, type PageContext, pageLink, pageRoute, queryValue } from './context.js';
import { bindBrowser, boundBrowser } from './federation-binding.js';
import { continueView } from './federation-continue.js';
import { offerLinkPage } from './federation-link.js';
import { showRefusal } from './federation-refusal.js';
import { formTargets, optionalRequest, pendingBinding } from './flow.js';
import { textsOf } from './page-texts.js';
import { sendPage } from './respond.js';
import { sendSignIn } from './session-start.js';

/**
 * Enterprise sign-in on the hosted pages (DESIGN §17): a button per connection on the login page,
 * email-domain discovery, the way out to the upstream and the way back (OIDC callback, SAML ACS
 * and its continue step; each SAML connection's SP metadata is an operation, saml-metadata.ts). Whatever goes wrong upstream
 * ends on the login page with the reason, never an error page of the server. The way back goes on
 * only in the browser that went out (federation-binding.ts).
 */

/** Signs the person in as the user the upstream vouched for, and goes on with the request. */
async function signInFederated(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  c: Connection,
  answer: { identity: UpstreamIdentity; requestId: string | null },
) {
  const completed = await completeFederatedSignIn(ctx.deps, org, c, answer);
  if ('prove' in completed) return offerLinkPage(ctx, org, request, reply, c, answer, completed.prove);
  return sendSignIn(ctx, org, request, reply, completed);
}

const notSaml = () =>
  new FederationRefused('federation.connection.not_saml', 'This connection does not use SAML.', 400);

export function federationPages(app: FastifyInstance, ctx: PageContext) {
  app.get<{ Params: { con: string } }>(
    '/sso/:con/start',
    pageRoute(ctx, async (org, request, reply) => {
      const { con } = request.params as { con: string };
      const c = await requireConnection(ctx.deps, org, con);
      const pending = await optionalRequest(ctx.deps, org, queryValue(request, 'req'), request);
      const requestId = pending === null ? null : pendingBinding(pending);
      try {
        const binding = bindBrowser(ctx, request, reply);
        const loginHint = queryValue(request, 'login_hint') ?? null;
        const url =
          c.type === 'oidc'
            ? await startOidcSignIn(ctx.deps, org, c, { requestId, loginHint, binding })
            : await startSamlSignIn(ctx.deps, org, c, { requestId, binding });
        return reply.header('cache-control', 'no-store').redirect(url, 303);
      } catch (error) {
        return showRefusal(ctx, org, request, reply, requestId, error);
      }
    }),
  );

  app.get<{ Params: { con: string } }>(
    '/sso/:con/callback',
    pageRoute(ctx, async (org, request, reply) => {
      const { con } = request.params as { con: string };
      const c = await requireConnection(ctx.deps, org, con);
      if (c.type !== 'oidc')
        return showRefusal(
          ctx,
          org,
          request,
          reply,
          null,
          new FederationRefused(
            'federation.connection.not_oidc',
            'This connection does not use OpenID Connect.',
            400,
          ),
        );
      const query = new URLSearchParams(request.raw.url?.split('?')[1] ?? '');
      let answer: Awaited<ReturnType<typeof finishOidcSignIn>> | null = null;
      try {
        answer = await finishOidcSignIn(ctx.deps, org, c, query, boundBrowser(ctx, request));
        return await signInFederated(ctx, org, request, reply, c, answer);
      } catch (error) {
        return showRefusal(ctx, org, request, reply, answer?.requestId ?? null, error);
      }
    }),
  );

  /**
   * The IdP's answer, posted cross-site (no SameSite cookie comes with it): verified here, then
   * kept for the browser that started the sign-in, which the continue page sends on to
   * /sso/{con}/continue with its cookies.
   */
  app.post<{ Params: { con: string } }>(
    '/saml/:con/acs',
    pageRoute(ctx, async (org, request, reply) => {
      const { con } = request.params as { con: string };
      const c = await requireConnection(ctx.deps, org, con);
      if (c.type !== 'saml') return showRefusal(ctx, org, request, reply, null, notSaml());
      const form = formOf(request);
      try {
        const { answerId, pending } = await holdSamlAnswer(ctx.deps, org, c, field(form, 'SAMLResponse'));
        const action = pageLink(ctx, request, `/sso/${c.id}/continue`, {});
        return sendPage(
          reply,
          org.name,
          textsOf(request).t('federation.continue.title'),
          continueView(textsOf(request), action, answerId),
          {
            scripts: true,
            formTargets: formTargets(pending),
          },
        );
      } catch (error) {
        return showRefusal(ctx, org, request, reply, null, error);
      }
    }),
  );

  /** The continue page's POST: same-site, so the binding cookie decides whose answer it is. */
  app.post<{ Params: { con: string } }>(
    '/sso/:con/continue',
    pageRoute(ctx, async (org, request, reply) => {
      const { con } = request.params as { con: string };
      const c = await requireConnection(ctx.deps, org, con);
      if (c.type !== 'saml') return showRefusal(ctx, org, request, reply, null, notSaml());
      const form = formOf(request);
      let answer: Awaited<ReturnType<typeof takeFederatedAnswer>> | null = null;
      try {
        answer = await takeFederatedAnswer(ctx.deps, c.id, field(form, 'answer'), boundBrowser(ctx, request));
        return await signInFederated(ctx, org, request, reply, c, answer);
      } catch (error) {
        return showRefusal(ctx, org, request, reply, answer?.requestId ?? null, error);
      }
    }),
  );
}
