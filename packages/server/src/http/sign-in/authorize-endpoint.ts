import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTHORIZE_PARAMETERS, authorizeRequest, continueAuthorization } from '../../domain/sign-in/index.js';
import type { Org } from '../../domain/types.js';
import { authorizeQuery } from '../authorize-query.js';
import { type FormParams, parseForm } from '../form.js';
import { AuthorizeQuery as AuthorizeQuerySchema } from '../openapi/described-schemas.js';
import { htmlPage } from '../openapi/oauth-responses.js';
import type { Operation } from '../openapi/operation.js';
import { operation } from '../served-operation.js';
import { browserSessionOf, formOf, type PageContext, pageRoute } from './context.js';
import { sendAnswer, sendOutcome } from './flow.js';
import { textsOf } from './page-texts.js';
import { equivalentGet, getOrPostOperation } from './post-as-get.js';
import { sendErrorPage } from './respond.js';

/**
 * Lets the domain decide (domain/sign-in/authorize/) and renders what it decided: a page for a
 * request that names no valid target, the error sent back to the client, or the person sent on —
 * to sign in, to consent, or straight back with a code (or, with `prompt=none`, the error that a
 * page would have been needed).
 */
async function answerAuthorization(
  ctx: PageContext,
  org: Org,
  request: FastifyRequest,
  reply: FastifyReply,
  given: FormParams,
) {
  const outcome = await authorizeRequest(ctx.deps, org, authorizeQuery(given));
  switch (outcome.kind) {
    case 'refused':
      return sendErrorPage(
        reply,
        org.name,
        400,
        textsOf(request).t('error.request_invalid', { detail: outcome.detail }),
        outcome.situation,
      );
    case 'error':
      return sendAnswer(reply, org, outcome.answer);
    case 'accepted': {
      const session = await browserSessionOf(ctx, org, request);
      const next = await continueAuthorization(ctx.deps, org, outcome.pending, session, outcome.hinted);
      return sendOutcome(ctx, org, request, reply, next);
    }
  }
}

const DESCRIPTION =
  'Unknown parameters are ignored (RFC 6749 §3.1); a repeated one is an error. `prompt`, ' +
  '`max_age`, `login_hint`, `id_token_hint` and `response_mode` as OIDC Core §3.1.2.1. `request`: a ' +
  'request object (RFC 9101, OIDC Core §6.1) signed with a key the client registered, whose values ' +
  'supersede these; unsigned ones only from a client registered with `request_object_signing_alg` ' +
  '`none` (else `request_not_supported`). `request_uri`: one /oauth/par handed out (RFC 9126), with the ' +
  '`client_id` that pushed it, used once within 60 s (else an error page, `invalid_request_uri`); its ' +
  'parameters are the request and the others here are ignored; any other `request_uri` is ' +
  '`request_uri_not_supported`. A client or org that requires pushed requests gets `invalid_request` ' +
  'for any other.';

/** /oauth/authorize as documented for `method`: the parameters in the query (GET) or a form (POST). */
const authorizeOperation = (method: 'get' | 'post'): Operation => ({
  ...getOrPostOperation(method, '/oauth/authorize', 'authorize', AuthorizeQuerySchema),
  summary: 'Authorization endpoint (RFC 6749 §4.1, PKCE S256, OIDC Core §3.1.2.1)',
  description:
    method === 'get'
      ? DESCRIPTION
      : `${DESCRIPTION} A POST (OIDC Core §3.1.2.1) is answered with a 303 to the same request as a GET ` +
        'on this host, so that the browser sends its login cookie (SameSite=Lax keeps it off a ' +
        'cross-site POST); a form too long for a URL is answered where it arrives.',
  responses: {
    200: htmlPage('`response_mode=form_post`: a page whose form posts the answer to the redirect URI'),
    302: {
      description:
        'to the login or consent page, or back to the client with `code` or `error` (in the query, ' +
        'or the fragment with `response_mode=fragment`)',
    },
    ...(method === 'post'
      ? { 303: { description: 'to the same request as a GET of /oauth/authorize' } }
      : {}),
    400: htmlPage('an invalid client or redirect URI: an error page, never a redirect'),
  },
});

/** GET /oauth/authorize: the parameters in the query. */
export const authorize = operation(authorizeOperation('get'), ({ pages: ctx }) =>
  pageRoute(ctx, (org, request, reply) =>
    answerAuthorization(ctx, org, request, reply, parseForm(request.url.split('?')[1] ?? '')),
  ),
);

/**
 * POST /oauth/authorize (OIDC Core §3.1.2.1: the endpoint MUST take both): a 303 to the same
 * request as a GET on this host (post-as-get.ts: so the login cookie comes along), or, for a form
 * too long for a URL, answered in place (the person may then have to sign in again).
 */
export const authorizePost = operation(authorizeOperation('post'), ({ pages: ctx }) =>
  pageRoute(ctx, async (org, request, reply) => {
    const form = formOf(request);
    const location = equivalentGet(ctx, request, '/oauth/authorize', AUTHORIZE_PARAMETERS, form);
    if (location !== null) return reply.redirect(location, 303);
    return answerAuthorization(ctx, org, request, reply, form);
  }),
);
