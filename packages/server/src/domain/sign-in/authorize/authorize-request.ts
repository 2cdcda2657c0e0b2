import { type ErrorSituation, fail, ServiceError } from '../../errors.js';
import { issuerOf } from '../../issuers.js';
import { requestedResources } from '../../resources/requested-resources.js';
import { resourceScopesAsked } from '../../resources/resource-scope-requests.js';
import type { Org } from '../../types.js';
import { type PendingAuthorization, saveAuthorizationRequest } from '../authorization-requests.js';
import type { SignInDeps } from '../deps.js';
import { hintedUserId } from '../next-step.js';
import { signInClient } from './client.js';
import {
  type AuthorizeParams,
  type AuthorizeQuery,
  type CheckedResources,
  checkAuthorizeParams,
  IDENTIFYING_PARAMETERS,
} from './parameters.js';
import { errorTargetOf, type RedirectTarget, redirectTargetOf } from './redirect-target.js';
import { type OpenedRequest, openRequestObject } from './request-object.js';
import { type AnswerTarget, type AuthorizationAnswer, authorizationAnswer } from './response-mode.js';

/**
 * What becomes of an authorization request:
 * - `refused`: the client or redirect URI does not check out; shown on a page, never redirected
 *   (RFC 6749 §4.1.2.1);
 * - `error`: anything else wrong: the answer sending it back to the client (with `state` and `iss`,
 *   in the response mode asked for);
 * - `accepted`: kept; the person goes on (sign in, consent, or straight back with a code), with
 *   the user `id_token_hint` names when `prompt=none`.
 */
export type AuthorizeOutcome =
  | { kind: 'refused'; detail: string; situation: ErrorSituation }
  | { kind: 'error'; answer: AuthorizationAnswer }
  | { kind: 'accepted'; pending: PendingAuthorization; hinted: string | null };

/** The answer carrying `error` back to the client at `back`. */
const errorAnswer = (
  deps: SignInDeps,
  org: Org,
  back: AnswerTarget,
  error: ServiceError,
): AuthorizeOutcome => {
  const result = { error: error.code, description: error.detail ?? error.code, situation: error.situation };
  return { kind: 'error', answer: authorizationAnswer(issuerOf(deps.config, org), back, result) };
};

/**
 * The request's resources (each a registered resource of the org, else `invalid_target`) and the
 * resource scopes it asks for (each of a resource it names, else `invalid_scope`). The console
 * issuer records the indicators as given (its tokens are for the management API).
 */
async function checkResources(
  deps: SignInDeps,
  org: Org,
  params: AuthorizeParams,
  values: readonly string[],
): Promise<CheckedResources> {
  const resources = await requestedResources(deps, org, values);
  const scopes = await resourceScopesAsked(deps, org, params.scope, resources);
  const identifiers = org.isConsole ? [...new Set(values)] : resources.map((r) => r.identifier);
  return { resources: identifiers, scopes };
}

/**
 * The checks of /oauth/authorize in their order, each in its own module of this folder: the client
 * (client.ts), its request object (request-object.ts: a verified one's values supersede the
 * query's) and its redirect URI (redirect-target.ts) first, then the resources, the parameters
 * (parameters.ts: response type, PKCE in pkce.ts, scope, prompt, max_age, response mode), the
 * `id_token_hint`; an accepted request is saved.
 */
export async function authorizeRequest(
  deps: SignInDeps,
  org: Org,
  query: AuthorizeQuery,
): Promise<AuthorizeOutcome> {
  let target: RedirectTarget;
  let opened: OpenedRequest;
  try {
    const ambiguous = query.repeated.find((name) => IDENTIFYING_PARAMETERS.includes(name));
    if (ambiguous) fail('authorize.identifying_parameter.repeated', `${ambiguous} is given more than once`);
    const clientId = query.params.client_id ?? fail('authorize.client_id.missing', 'client_id is missing');
    const client = await signInClient(deps, org, clientId);
    opened = await openRequestObject(deps, org, client, query);
    // A refused object's redirect URI is not taken: its error goes where the query says.
    target = redirectTargetOf(client, (opened.ok ? opened.query : query).params);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { kind: 'refused', detail: error.detail ?? error.code, situation: error.situation };
  }
  if (!opened.ok) {
    const { echo } = opened;
    const back = errorTargetOf(
      target,
      echo.state ?? query.params.state,
      echo.responseMode ?? query.params.response_mode,
    );
    return errorAnswer(deps, org, back, opened.error);
  }
  const { params, repeated, resources } = opened.query;
  try {
    if (repeated.length > 0) fail('authorize.parameter.repeated', `${repeated[0]} is given more than once`);
    const checkedResources = await checkResources(deps, org, params, resources);
    const checked = checkAuthorizeParams(org, target, params, checkedResources);
    const hinted = await hintedUserId(deps, org, checked.prompt, params.id_token_hint);
    const saved = await saveAuthorizationRequest(deps, org, target, params.state, checked);
    return { kind: 'accepted', pending: { request: saved, client: target.client }, hinted };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return errorAnswer(deps, org, errorTargetOf(target, params.state, params.response_mode), error);
  }
}
