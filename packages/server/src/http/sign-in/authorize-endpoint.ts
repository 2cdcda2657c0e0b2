import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AUTHORIZE_PARAMETERS,
  type AuthorizeParams,
  type AuthorizeQuery,
  authorizeRequest,
} from '../../domain/sign-in/index.js';
import { parseForm } from '../form.js';
import { browserSessionOf, type PageContext, pageRoute } from './context.js';
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
export function authorizeEndpoint(app: FastifyInstance, ctx: PageContext) {
  app.get(
    '/oauth/authorize',
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
}
