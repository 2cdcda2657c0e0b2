import type { FastifyRequest } from 'fastify';
import {
  AUTHORIZE_PARAMETERS,
  type AuthorizeParams,
  type AuthorizeQuery,
  authorizeRequest,
} from '../../domain/sign-in/index.js';
import { parseForm } from '../form.js';
import { AuthorizeQuery as AuthorizeQuerySchema } from '../openapi/described-schemas.js';
import { htmlPage } from '../openapi/oauth-responses.js';
import { operation } from '../served-operation.js';
import { browserSessionOf, pageRoute } from './context.js';
import { answerFor, nextStep, sendAnswer } from './flow.js';
import { sendErrorPage } from './respond.js';

/**
 * The query's known parameters, and the names given more than once (RFC 6749 §3.1: such a
 * request is invalid). Unknown parameters are ignored, as §3.1 requires; empty ones are absent.
 */
function authorizeQuery(request: FastifyRequest): AuthorizeQuery {
  const query = parseForm(request.url.split('?')[1] ?? '');
  const params: AuthorizeParams = {};
  const repeated: string[] = [];
  for (const name of AUTHORIZE_PARAMETERS) {
    const values = query.get(name) ?? [];
    // RFC 8707 §2: `resource` may be given several times, once per resource.
    if (values.length > 1 && name !== 'resource') repeated.push(name);
    else if (values[0]) params[name] = values[0];
  }
  return { params, repeated, resources: (query.get('resource') ?? []).filter((v) => v !== '') };
}

/**
 * GET /oauth/authorize: reads the query, lets the domain decide (domain/sign-in/authorize/), and
 * renders what it decided: a page for a request that names no valid target, the error sent back
 * to the client, or the person sent on — to sign in, to consent, or straight back with a code (or,
 * with `prompt=none`, the error that a page would have been needed).
 */
export const authorize = operation(
  {
    method: 'get',
    path: '/oauth/authorize',
    operationId: 'authorize',
    summary: 'Authorization endpoint (RFC 6749 §4.1, PKCE S256, OIDC Core §3.1.2.1)',
    description:
      'Unknown parameters are ignored (RFC 6749 §3.1); a repeated one is an error. `prompt`, ' +
      '`max_age`, `login_hint`, `id_token_hint` and `response_mode` as OIDC Core §3.1.2.1; ' +
      '`request` and `request_uri` are refused (`request_not_supported`, `request_uri_not_supported`).',
    tag: 'oauth',
    hosts: 'every',
    auth: 'none',
    query: AuthorizeQuerySchema,
    responses: {
      200: htmlPage('`response_mode=form_post`: a page whose form posts the answer to the redirect URI'),
      302: {
        description:
          'to the login or consent page, or back to the client with `code` or `error` (in the query, ' +
          'or the fragment with `response_mode=fragment`)',
      },
      400: htmlPage('an invalid client or redirect URI: an error page, never a redirect'),
    },
  },
  ({ pages: ctx }) =>
    pageRoute(ctx, async (org, request, reply) => {
      const outcome = await authorizeRequest(ctx.deps, org, authorizeQuery(request));
      switch (outcome.kind) {
        case 'refused':
          return sendErrorPage(reply, org.name, 400, `This sign-in link is not valid: ${outcome.detail}.`);
        case 'error': {
          const { error } = outcome;
          const result = { error: error.code, description: error.detail ?? error.code };
          return sendAnswer(reply, org, answerFor(ctx.deps, org, outcome.back, result));
        }
        case 'accepted': {
          const session = await browserSessionOf(ctx, org, request);
          const { pending, hinted } = outcome;
          return sendAnswer(reply, org, await nextStep(ctx, org, request, pending, session, hinted));
        }
      }
    }),
);
