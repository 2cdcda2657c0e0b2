import type { FastifyInstance } from 'fastify';
import {
  answerDestination,
  consentResources,
  decideConsent,
  scopesToShow,
  signedInFor,
} from '../../domain/sign-in/index.js';
import {
  browserSessionOf,
  field,
  formOf,
  type PageContext,
  pageLink,
  pageRoute,
  queryValue,
} from './context.js';
import { formTargets, pendingRequest, sendOutcome } from './flow.js';
import { textsOf } from './page-texts.js';
import { sendErrorPage, sendPage } from './respond.js';
import { consentView } from './views.js';

/**
 * GET and POST /consent: the client's name, every scope it asks for in plain words, the host the
 * answer goes back to and, for a client a third party registered, a warning; Allow or Deny. The CSRF
 * token is bound to the browser session and the request, so a form rendered for one person
 * cannot grant anything for another.
 */
export function consentPages(app: FastifyInstance, ctx: PageContext) {
  app.get(
    '/consent',
    pageRoute(ctx, async (org, request, reply) => {
      const pending = await pendingRequest(ctx.deps, org, queryValue(request, 'req'), request);
      const params = { req: pending.request.id };
      const session = await browserSessionOf(ctx, org, request);
      if (!signedInFor(pending.request, session)) {
        return reply.redirect(pageLink(ctx, request, '/login', params), 303);
      }
      const resources = await consentResources(ctx.deps, org, pending, session.user.id);
      const body = consentView(textsOf(request), {
        action: pageLink(ctx, request, '/consent', params),
        csrf: ctx.csrf.token(request, reply, 'consent', [session.id, pending.request.id]),
        clientName: pending.client.name,
        email: session.user.email,
        scopes: scopesToShow(pending.request),
        resources,
        firstParty: pending.client.firstParty,
        redirectHost: new URL(answerDestination(pending)).host,
        documentHost: pending.client.metadataDocument ? new URL(pending.client.id).host : null,
      });
      return sendPage(reply, org.name, textsOf(request).t('consent.title'), body, {
        formTargets: formTargets(pending),
      });
    }),
  );

  app.post(
    '/consent',
    pageRoute(ctx, async (org, request, reply) => {
      const form = formOf(request);
      const pending = await pendingRequest(ctx.deps, org, queryValue(request, 'req'), request);
      const session = await browserSessionOf(ctx, org, request);
      if (!signedInFor(pending.request, session)) {
        return reply.redirect(pageLink(ctx, request, '/login', { req: pending.request.id }), 303);
      }
      if (!ctx.csrf.check(request, 'consent', [session.id, pending.request.id], field(form, 'csrf'))) {
        return sendErrorPage(reply, org.name, 403, textsOf(request).t('error.csrf'), 'page.csrf.rejected');
      }
      const decision = field(form, 'decision');
      if (decision !== 'allow' && decision !== 'deny') {
        return sendErrorPage(
          reply,
          org.name,
          400,
          textsOf(request).t('consent.choose'),
          'consent.decision.missing',
        );
      }
      const outcome = await decideConsent(ctx.deps, org, pending, session, decision);
      return sendOutcome(ctx, org, request, reply, outcome, 303);
    }),
  );
}
