import { requestedScope } from '../../directory/scopes.js';
import { fail } from '../../errors.js';
import { parseUiLocales } from '../../texts/index.js';
import type { AuthorizationRequest, Org } from '../../types.js';
import { parseClaimsParameter } from './claims-parameter.js';
import { usesCodeFlow } from './client.js';
import { parseMaxAge } from './max-age.js';
import { checkPkce } from './pkce.js';
import { parsePrompt } from './prompt.js';
import type { RedirectTarget } from './redirect-target.js';
import { parseResponseMode } from './response-mode.js';

/**
 * The parameters /oauth/authorize understands, in the query (GET), the form (POST) or a request
 * object; anything else is ignored (RFC 6749 §3.1). A name added here travels every way at once.
 */
export const AUTHORIZE_PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'nonce',
  'prompt',
  'max_age',
  'login_hint',
  'id_token_hint',
  'response_mode',
  'request',
  'request_uri',
  'claims',
  'dpop_jkt',
  'ui_locales',
] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMETERS)[number], string>>;

/** The parameters that name where errors go: given twice, a request has no target to send one to. */
export const IDENTIFYING_PARAMETERS: readonly string[] = ['client_id', 'redirect_uri'];

/** An authorization request's parameters as the HTTP layer read them (the query, or a POST's form). */
export interface AuthorizeQuery {
  /** The known parameters given once (empty ones are absent). */
  params: AuthorizeParams;
  /** The names given more than once (RFC 6749 §3.1: such a request is invalid). */
  repeated: readonly string[];
  /** Every `resource` value (RFC 8707 §2: one per resource). */
  resources: readonly string[];
}

/**
 * What the request's `resource` values (RFC 8707) and resource scopes came to, checked beforehand
 * by domain/resources (requested-resources.ts, resource-scope-requests.ts).
 */
export interface CheckedResources {
  /** The resource identifiers, in request order, each once. */
  resources: readonly string[];
  /** The scopes of those resources the request asks for. */
  scopes: readonly string[];
}

/** What step two makes of the parameters: what the request keeps. */
export type CheckedParams = Pick<
  AuthorizationRequest,
  | 'responseMode'
  | 'prompt'
  | 'maxAge'
  | 'loginHint'
  | 'uiLocales'
  | 'codeChallenge'
  | 'scope'
  | 'resources'
  | 'nonce'
  | 'claims'
  | 'dpopJkt'
>;

/**
 * Step two: everything else. Failures now go back to the client through its redirect URI, in the
 * response mode it asked for (read first, so that even its own error travels the default way).
 */
export function checkAuthorizeParams(
  org: Org,
  target: RedirectTarget,
  params: AuthorizeParams,
  resources: CheckedResources = { resources: [], scopes: [] },
): CheckedParams {
  // Request objects by value were opened before (request-object.ts), a pushed request's request_uri
  // taken (pushed-requests.ts). Any other request_uri would be fetched from where the client says:
  // not done, so discovery says request_uri_parameter_supported: false (DESIGN §20).
  if (params.request_uri !== undefined)
    fail('authorize.request_uri.unsupported', 'request_uri is not supported');
  if (params.response_type === undefined) fail('authorize.response_type.missing', 'response_type is missing');
  if (params.response_type !== 'code')
    fail('authorize.response_type.unsupported', 'only response_type=code is supported');
  if (!usesCodeFlow(target.client)) {
    fail('authorize.client.code_flow_refused', 'this application may not use the authorization code flow');
  }
  if (params.state !== undefined && params.state.length > 2048)
    fail('authorize.state.too_long', 'state is too long');
  if (params.nonce !== undefined && params.nonce.length > 2048)
    fail('authorize.nonce.too_long', 'nonce is too long');
  if (params.login_hint !== undefined && params.login_hint.length > 2048)
    fail('authorize.login_hint.too_long', 'login_hint is too long');
  return {
    responseMode: parseResponseMode(params.response_mode),
    prompt: parsePrompt(params.prompt),
    maxAge: parseMaxAge(params.max_age),
    // OIDC Core §3.1.2.1: a hint for the login page's email field; nothing is decided by it.
    loginHint: params.login_hint ?? null,
    // OIDC Core §3.1.2.1: the pages' languages, preferred first; a hint, so garbage is no preference.
    uiLocales: parseUiLocales(params.ui_locales),
    codeChallenge: checkPkce(target.client, params.code_challenge, params.code_challenge_method),
    scope: requestedScope(org, target.client, params.scope, resources.scopes),
    resources: [...resources.resources],
    // OIDC Core §3.1.2.1: echoed unchanged in the ID token.
    nonce: params.nonce ?? null,
    // OIDC Core §5.5 (claims-parameter.ts).
    claims: parseClaimsParameter(params.claims),
    dpopJkt: parseDpopJkt(params.dpop_jkt),
  };
}

/** A SHA-256 JWK thumbprint (RFC 7638) in base64url: 43 characters. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/**
 * RFC 9449 §10 `dpop_jkt`: the thumbprint of the DPoP key the client will redeem the code with;
 * anything that cannot be a SHA-256 thumbprint is `invalid_request`.
 */
function parseDpopJkt(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!THUMBPRINT.test(value))
    fail('authorize.dpop_jkt.invalid', 'dpop_jkt is not the base64url SHA-256 thumbprint of a key');
  return value;
}
