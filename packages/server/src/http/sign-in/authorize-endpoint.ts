import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail, ServiceError } from '../../domain/errors.js';
import { requestedResources } from '../../domain/resources/requested-resources.js';
import { resourceScopesAsked } from '../../domain/resources/resource-scope-requests.js';
import {
  AUTHORIZE_PARAMETERS,
  type AuthorizeParams,
  type CheckedResources,
  checkAuthorizeParams,
  type RedirectTarget,
  resolveRedirectTarget,
  saveAuthorizationRequest,
} from '../../domain/sign-in/authorization-requests.js';
import { hintedUserId } from '../../domain/sign-in/next-step.js';
import { errorResponseMode } from '../../domain/sign-in/response-mode.js';
import type { Org } from '../../domain/types.js';
import { parseForm } from '../form.js';
import { browserSessionOf, type PageContext, pageRoute } from './context.js';
import { answerFor, nextStep, sendAnswer } from './flow.js';
import { sendErrorPage } from './respond.js';

/**
 * The query's known parameters, and the names given more than once (RFC 6749 §3.1: such a
 * request is invalid). Unknown parameters are ignored, as §3.1 requires; empty ones are absent.
 */
function authorizeQuery(request: FastifyRequest): {
  params: AuthorizeParams;
  repeated: string[];
  resources: string[];
} {
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
 * The request's resources (each a registered resource of the org, else `invalid_target`) and the
 * resource scopes it asks for (each of a resource it names, else `invalid_scope`). The console
 * issuer records the indicators as given (its tokens are for the management API).
 */
async function checkResources(
  ctx: PageContext,
  org: Org,
  params: AuthorizeParams,
  values: string[],
): Promise<CheckedResources> {
  const resources = await requestedResources(ctx.deps, org, values);
  const scopes = await resourceScopesAsked(ctx.deps, org, params.scope, resources);
  const identifiers = org.isConsole ? [...new Set(values)] : resources.map((r) => r.identifier);
  return { resource: identifiers.length === 0 ? null : identifiers.join(' '), scopes };
}

const IDENTIFYING = ['client_id', 'redirect_uri'];

/**
 * GET /oauth/authorize, as named steps: read the query; establish the client and redirect URI
 * (failures show a page and never redirect); check the rest (failures go back to the client
 * with `error`, `state` and `iss`, in the response mode asked for); keep the request; send the
 * person on — to sign in, to consent, or straight back with a code (or, with `prompt=none`, the
 * error that a page would have been needed).
 */
export function authorizeEndpoint(app: FastifyInstance, ctx: PageContext) {
  app.get(
    '/oauth/authorize',
    pageRoute(ctx, async (org, request, reply) => {
      const { params, repeated, resources } = authorizeQuery(request);
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
        const checkedResources = await checkResources(ctx, org, params, resources);
        const checked = checkAuthorizeParams(org, target, params, checkedResources);
        const hinted = await hintedUserId(ctx.deps, org, checked.prompt, params.id_token_hint);
        const saved = await saveAuthorizationRequest(ctx.deps, org, target, params.state, checked);
        const session = await browserSessionOf(ctx, org, request);
        const pending = { request: saved, client: target.client };
        return sendAnswer(reply, org, await nextStep(ctx, org, request, pending, session, hinted));
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        const back = {
          redirectUri: target.redirectUri,
          state: params.state ?? null,
          responseMode: errorResponseMode(params.response_mode),
        };
        const result = { error: error.code, description: error.detail ?? error.code };
        return sendAnswer(reply, org, answerFor(ctx.deps, org, back, result));
      }
    }),
  );
}
