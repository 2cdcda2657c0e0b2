import { completeAuthentication, IMPERSONATION_PATH, openImpersonation } from '../../domain/sign-in/index.js';
import { queryValue } from './context.js';
import { hostedPage } from './hosted-page.js';
import { textsOf } from './page-texts.js';
import { sendErrorPage } from './respond.js';
import { sendSignIn } from './session-start.js';

/**
 * GET /login/impersonation?key=… opens the one-time link of an impersonation: it signs this
 * browser in as the user (a login cookie of at most one hour, `act` on every token) and completes
 * the authorization request the link was made for, redirecting to the client with a code. No
 * consent is asked: the owner acts with the org's authority (domain/sign-in/next-step.ts).
 */
export const impersonationPage = hostedPage(
  { path: IMPERSONATION_PATH, summary: 'an impersonation link: signs in as the user' },
  async ({ ctx, org, request, reply }) => {
    const key = queryValue(request, 'key');
    const opened = key === undefined ? null : await openImpersonation(ctx.deps, org, key);
    if (opened === null) {
      const words = textsOf(request).t('error.impersonation_closed');
      return sendErrorPage(reply, org.name, 400, words, 'impersonation.link.closed');
    }
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const proven = { user: opened.user, method: opened.method };
    const completed = await completeAuthentication(ctx.deps, org, proven, opened.pending);
    return sendSignIn(ctx, org, request, reply, completed);
  },
);
