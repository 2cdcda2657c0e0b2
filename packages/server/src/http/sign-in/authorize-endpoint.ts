import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail, ServiceError } from '../../domain/errors.js';
import {
  AUTHORIZE_PARAMETERS,
  type AuthorizeParams,
  checkAuthorizeParams,
  type RedirectTarget,
  resolveRedirectTarget,
  saveAuthorizationRequest,
} from '../../domain/sign-in/authorization-requests.js';
import { parseForm } from '../form.js';
import { browserSessionOf, type PageContext, pageRoute } from './context.js';
import { authorizationResponse, nextStep } from './flow.js';
import { sendErrorPage } from './respond.js';

/**
 * The query's known parameters, and the names given more than once (RFC 6749 §3.1: such a
 * request is invalid). Unknown parameters are ignored, as §3.1 requires; empty ones are absent.
 */
function authorizeQuery(request: FastifyRequest): { params: AuthorizeParams; repeated: string[] } {
  const query = parseForm(request.url.split('?')[1] ?? '');
  const params: AuthorizeParams = {};
  const repeated: string[] = [];
  for (const name of AUTHORIZE_PARAMETERS) {
    const values = query.get(name) ?? [];
    if (values.length > 1) repeated.push(name);
    else if (values[0]) params[name] = values[0];
  }
  return { params, repeated };
}

const IDENTIFYING = ['client_id', 'redirect_uri'];

/**
 * GET /oauth/authorize, as named steps: read the query; establish the client and redirect URI
 * (failures show a page and never redirect); check the rest (failures go back to the client
 * with `error`, `state` and `iss`); keep the request; send the person on — to sign in, to
 * consent, or straight back with a code.
 */
export function authorizeEndpoint(app: FastifyInstance, ctx: PageContext) {
  app.get(
    '/oauth/authorize',
    pageRoute(ctx, async (org, request, reply) => {
      const { params, repeated } = authorizeQuery(request);
      let target: RedirectTarget;
      try {
        const ambiguous = repeated.find((name) => IDENTIFYING.includes(name));
        if (ambiguous) fail('invalid_request', `${ambiguous} is given more than once`);
        target = await resolveRedirectTarget(ctx.deps, org, params);
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        return sendErrorPage(reply, org.name, 400, `This sign-in link is not valid: ${error.detail}.`);
      }
      try {
        if (repeated.length > 0) fail('invalid_request', `${repeated[0]} is given more than once`);
        const checked = checkAuthorizeParams(org, target, params);
        const saved = await saveAuthorizationRequest(ctx.deps, org, target, params.state, checked);
        const session = await browserSessionOf(ctx, org, request);
        return reply.redirect(
          await nextStep(ctx, org, request, { request: saved, client: target.client }, session),
        );
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        const back = { redirectUri: target.redirectUri, state: params.state ?? null };
        const result = { error: error.code, description: error.detail ?? error.code };
        return reply.redirect(authorizationResponse(ctx.deps, org, back, result));
      }
    }),
  );
}
