import { type ErrorSituation, fail, ServiceError } from '../../errors.js';
import { issuerOf } from '../../issuers.js';
import { requestedResources } from '../../resources/requested-resources.js';
import { resourceScopesAsked } from '../../resources/resource-scope-requests.js';
import type { Client, Org } from '../../types.js';
import { type PendingAuthorization, saveAuthorizationRequest } from '../authorization-requests.js';
import type { SignInDeps } from '../deps.js';
import { hintedUserId } from '../next-step.js';
import { signInClient } from './client.js';
import {
  type AuthorizeParams,
  type AuthorizeQuery,
  type CheckedParams,
  type CheckedResources,
  checkAuthorizeParams,
  IDENTIFYING_PARAMETERS,
} from './parameters.js';
import { isPushedRequestUri, keepPushedRequest, mustPush, takePushedRequest } from './pushed-requests.js';
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

/** A checked request: what it keeps, and whom `id_token_hint` names (prompt=none only). */
interface CheckedRequest {
  checked: CheckedParams;
  hinted: string | null;
}

/**
 * Step two of /oauth/authorize and /oauth/par alike, once the client and its redirect URI check
 * out (a request object's values merged in): no repeated parameter, the resources, the parameters
 * (parameters.ts: response type, PKCE in pkce.ts, scope, prompt, max_age, response mode), the
 * `id_token_hint`. Throws the ServiceError of the first check that fails.
 */
async function checkRequest(
  deps: SignInDeps,
  org: Org,
  target: RedirectTarget,
  query: AuthorizeQuery,
): Promise<CheckedRequest> {
  const { params, repeated, resources } = query;
  if (repeated.length > 0) fail('authorize.parameter.repeated', `${repeated[0]} is given more than once`);
  const checkedResources = await checkResources(deps, org, params, resources);
  const checked = checkAuthorizeParams(org, target, params, checkedResources);
  const hinted = await hintedUserId(deps, org, checked.prompt, params.id_token_hint);
  return { checked, hinted };
}

/** The name repeated among client_id and redirect_uri, which say where errors go: refused before anything else. */
function checkIdentifying(query: AuthorizeQuery): void {
  const ambiguous = query.repeated.find((name) => IDENTIFYING_PARAMETERS.includes(name));
  if (ambiguous) fail('authorize.identifying_parameter.repeated', `${ambiguous} is given more than once`);
}

/**
 * The checks of /oauth/authorize in their order, each in its own module of this folder: the client
 * (client.ts), a pushed request its `request_uri` names (pushed-requests.ts: its parameters are
 * the request), its request object (request-object.ts: a verified one's values supersede the
 * query's) and its redirect URI (redirect-target.ts) first; then a client or org that must push its
 * requests refuses any other (RFC 9126 §4); then checkRequest; an accepted request is saved.
 */
export async function authorizeRequest(
  deps: SignInDeps,
  org: Org,
  query: AuthorizeQuery,
): Promise<AuthorizeOutcome> {
  let target: RedirectTarget;
  let opened: OpenedRequest;
  let asked = query;
  try {
    checkIdentifying(query);
    const clientId = query.params.client_id ?? fail('authorize.client_id.missing', 'client_id is missing');
    const client = await signInClient(deps, org, clientId);
    // With `request` too, the request object's refusal says both cannot be given.
    if (isPushedRequestUri(query.params.request_uri) && query.params.request === undefined)
      asked = await takePushedRequest(deps, org, client, query.params.request_uri);
    opened = await openRequestObject(deps, org, client, asked);
    // A refused object's redirect URI is not taken: its error goes where the query says.
    target = redirectTargetOf(client, (opened.ok ? opened.query : asked).params);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { kind: 'refused', detail: error.detail ?? error.code, situation: error.situation };
  }
  if (!opened.ok) {
    const { echo } = opened;
    const back = errorTargetOf(
      target,
      echo.state ?? asked.params.state,
      echo.responseMode ?? asked.params.response_mode,
    );
    return errorAnswer(deps, org, back, opened.error);
  }
  const { params } = opened.query;
  try {
    // `asked` is the query itself unless a pushed request took its place.
    if (asked === query && mustPush(org, target.client))
      fail(
        'authorize.pushed_request.required',
        'this application must push its authorization requests to /oauth/par and send only client_id and request_uri here',
      );
    const { checked, hinted } = await checkRequest(deps, org, target, opened.query);
    const saved = await saveAuthorizationRequest(deps, org, target, params.state, checked);
    return { kind: 'accepted', pending: { request: saved, client: target.client }, hinted };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return errorAnswer(deps, org, errorTargetOf(target, params.state, params.response_mode), error);
  }
}

/**
 * POST /oauth/par (RFC 9126 §2): the request `client` (authenticated as at the token endpoint)
 * pushes is checked exactly as /oauth/authorize checks one — a request object opened, the redirect
 * URI, then checkRequest — and kept for 60 seconds under a new request_uri. Every refusal throws its
 * ServiceError (RFC 9126 §2.3: an error answer of the token endpoint's form, never a redirect).
 */
export async function pushAuthorizationRequest(
  deps: SignInDeps,
  org: Org,
  client: Client,
  query: AuthorizeQuery,
  proofJkt: string | null = null,
): Promise<{ requestUri: string; expiresIn: number }> {
  // RFC 9126 §2.1: "The request_uri authorization request parameter is one exception, and it MUST NOT be provided."
  if (query.params.request_uri !== undefined)
    fail('par.request_uri.given', 'request_uri must not be pushed: it is what this endpoint answers with');
  checkIdentifying(query);
  // The authenticated client is the request's (RFC 9126 §2.1); a client_id beside its credentials names it too.
  const own: AuthorizeQuery = { ...query, params: { ...query.params, client_id: client.id } };
  const opened = await openRequestObject(deps, org, client, own);
  if (!opened.ok) throw opened.error;
  const pushed = withProofKey(opened.query, proofJkt);
  const target = redirectTargetOf(client, pushed.params);
  await checkRequest(deps, org, target, pushed);
  return keepPushedRequest(deps, org, client, pushed);
}

/**
 * RFC 9449 §10.1: a pushed request's DPoP proof binds the code to its key as `dpop_jkt` would;
 * with both, they must name the same key.
 */
function withProofKey(query: AuthorizeQuery, proofJkt: string | null): AuthorizeQuery {
  if (proofJkt === null) return query;
  const named = query.params.dpop_jkt;
  if (named !== undefined && named !== proofJkt)
    fail('par.dpop_jkt.mismatch', "dpop_jkt is not the thumbprint of the DPoP proof's key");
  return { ...query, params: { ...query.params, dpop_jkt: proofJkt } };
}
