import type { FastifyInstance } from 'fastify';
import { completeAuthentication, IMPERSONATION_PATH, openImpersonation } from '../../domain/sign-in/index.js';
import type { PageContext } from './context.js';
import { pageRoute, queryValue } from './context.js';
import { textsOf } from './page-texts.js';
import { sendErrorPage } from './respond.js';
import { sendSignIn } from './session-start.js';

/**
 * GET /login/impersonation?key=… opens the one-time link of an impersonation: it signs this
 * browser in as the user (a login cookie of at most one hour, `act` on every token) and completes
 * the authorization request the link was made for, redirecting to the client with a code. No
 * consent is asked: the owner acts with the org's authority (domain/sign-in/next-step.ts).
 */
export function impersonationPages(app: FastifyInstance, ctx: PageContext) {
  app.get(
    IMPERSONATION_PATH,
    pageRoute(ctx, async (org, request, reply) => {
      const key = queryValue(request, 'key');
      const opened = key === undefined ? null : await openImpersonation(ctx.deps, org, key);
      if (opened === null)
        return sendErrorPage(
          reply,
          org.name,
          400,
          textsOf(request).t('error.impersonation_closed'),
          'impersonation.link.closed',
        );
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const proven = { user: opened.user, method: opened.method };
      const completed = await completeAuthentication(ctx.deps, org, proven, opened.pending);
      return sendSignIn(ctx, org, request, reply, completed);
    }),
  );
}
