import { newId } from '../../crypto/random.js';
import {
  completeAuthorizationRequest,
  findPendingAuthorizationRequest,
  insertAuthorizationRequest,
  purgeAuthorizationRequests,
} from '../../storage/repos/authorization-requests.js';
import { findClientWithSecret } from '../../storage/repos/clients.js';
import { clock } from '../clock.js';
import type { Deps } from '../context.js';
import { isUrlClientId, metadataDocumentClient } from '../directory/client-metadata-documents.js';
import { fail, ServiceError } from '../errors.js';
import { purgeAtMostEveryMinute } from '../purge-schedule.js';
import { mayUseGrant } from '../tokens/client-grants.js';
import { requestedScope } from '../tokens/scopes.js';
import { AUTHORIZATION_REQUEST_TTL_MS } from '../tokens/tokens-policy.js';
import type { AuthorizationRequest, Client, Org } from '../types.js';
import { parseMaxAge } from './max-age.js';
import { parsePrompt } from './prompt.js';
import { findRedirectUri } from './redirect-uris.js';
import { parseResponseMode } from './response-mode.js';

/** The parameters GET /oauth/authorize understands; anything else is ignored (RFC 6749 §3.1). */
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
] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMETERS)[number], string>>;

/** Where errors may be sent: known only once the client and its redirect URI check out. */
export interface RedirectTarget {
  client: Client;
  redirectUri: string;
  /** Whether the client sent redirect_uri, or it was its single registered one. */
  given: boolean;
}

/**
 * Step one: the client and its redirect URI. A failure here must never redirect (RFC 6749
 * §4.1.2.1): the page shows it instead.
 */
export async function resolveRedirectTarget(deps: Deps, org: Org, params: AuthorizeParams) {
  const clientId = params.client_id ?? fail('invalid_request', 'client_id is missing');
  const client = await signInClient(deps, org, clientId);
  if (params.redirect_uri === undefined) {
    // RFC 6749 §3.1.2.3: may be omitted when exactly one is registered.
    const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
    if (only === undefined) return fail('invalid_request', 'redirect_uri is missing');
    return { client, redirectUri: only, given: false } satisfies RedirectTarget;
  }
  const redirectUri = findRedirectUri(client, params.redirect_uri);
  if (redirectUri === null)
    return fail('invalid_request', 'redirect_uri is not registered for this application');
  return { client, redirectUri, given: true } satisfies RedirectTarget;
}

/**
 * The client a sign-in names: a registered one by its id, or — on the console issuer — one known by
 * its metadata document URL (DESIGN §13). Unknown, or a document that cannot be used, is `invalid_client`.
 */
export async function signInClient(deps: Deps, org: Org, clientId: string): Promise<Client> {
  if (isUrlClientId(clientId)) return metadataDocumentClient(deps.clientMetadata, org, clientId);
  const found = await findClientWithSecret(deps.db, org.id, clientId);
  return found?.client ?? fail('invalid_client', 'this application is not known here');
}

/** signInClient, with null for a client that is unknown or whose metadata document cannot be used. */
export async function findSignInClient(deps: Deps, org: Org, clientId: string): Promise<Client | null> {
  return signInClient(deps, org, clientId).catch((error: unknown) => {
    if (error instanceof ServiceError && error.code === 'invalid_client') return null;
    throw error;
  });
}

// RFC 7636 §4.2: 43-128 characters of the unreserved set (S256 always yields 43).
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

function checkPkce(client: Client, challenge: string | undefined, method: string | undefined): string | null {
  if (challenge === undefined) {
    if (method !== undefined) fail('invalid_request', 'code_challenge_method given without code_challenge');
    if (client.kind === 'public') fail('invalid_request', 'PKCE is required: send code_challenge (S256)');
    return null;
  }
  // An absent method means `plain` (RFC 7636 §4.3), which is refused (RFC 9700 §2.1.1).
  if (method !== 'S256')
    fail('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
  if (!CODE_CHALLENGE.test(challenge)) fail('invalid_request', 'code_challenge is malformed');
  return challenge;
}

/**
 * What the request's `resource` values (RFC 8707) and resource scopes came to, checked beforehand
 * by domain/resources (requested-resources.ts, resource-scope-requests.ts).
 */
export interface CheckedResources {
  /** The resource identifiers, space-separated, as stored; null for none. */
  resource: string | null;
  /** The scopes of those resources the request asks for. */
  scopes: readonly string[];
}

/**
 * Step two: everything else. Failures now go back to the client through its redirect URI, in the
 * response mode it asked for (read first, so that even its own error travels the default way).
 */
export function checkAuthorizeParams(
  org: Org,
  target: RedirectTarget,
  params: AuthorizeParams,
  resources: CheckedResources = { resource: null, scopes: [] },
) {
  // OIDC Core §6: request objects are not supported, by value or by reference; discovery says so.
  if (params.request !== undefined) fail('request_not_supported', 'request objects are not supported');
  if (params.request_uri !== undefined) fail('request_uri_not_supported', 'request_uri is not supported');
  if (params.response_type === undefined) fail('invalid_request', 'response_type is missing');
  if (params.response_type !== 'code')
    fail('unsupported_response_type', 'only response_type=code is supported');
  if (!mayUseGrant(target.client, 'authorization_code')) {
    fail('unauthorized_client', 'this application may not use the authorization code flow');
  }
  if (params.state !== undefined && params.state.length > 2048) fail('invalid_request', 'state is too long');
  if (params.nonce !== undefined && params.nonce.length > 2048) fail('invalid_request', 'nonce is too long');
  if (params.login_hint !== undefined && params.login_hint.length > 2048)
    fail('invalid_request', 'login_hint is too long');
  return {
    responseMode: parseResponseMode(params.response_mode),
    prompt: parsePrompt(params.prompt),
    maxAge: parseMaxAge(params.max_age),
    // OIDC Core §3.1.2.1: a hint for the login page's email field; nothing is decided by it.
    loginHint: params.login_hint ?? null,
    codeChallenge: checkPkce(target.client, params.code_challenge, params.code_challenge_method),
    scope: requestedScope(org, target.client, params.scope, resources.scopes),
    resource: resources.resource,
    // OIDC Core §3.1.2.1: echoed unchanged in the ID token.
    nonce: params.nonce ?? null,
  };
}

/** Keeps the validated request while the person signs in and consents; returns its id. */
export async function saveAuthorizationRequest(
  deps: Deps,
  org: Org,
  target: RedirectTarget,
  state: string | undefined,
  checked: ReturnType<typeof checkAuthorizeParams>,
): Promise<AuthorizationRequest> {
  const now = clock.now();
  const request: AuthorizationRequest = {
    id: newId('arq'),
    orgId: org.id,
    clientId: target.client.id,
    redirectUri: target.redirectUri,
    redirectUriGiven: target.given,
    state: state ?? null,
    codeChallenge: checked.codeChallenge,
    scope: checked.scope,
    resource: checked.resource,
    nonce: checked.nonce,
    prompt: checked.prompt,
    maxAge: checked.maxAge,
    loginHint: checked.loginHint,
    responseMode: checked.responseMode,
    createdAt: now,
    expiresAt: now + AUTHORIZATION_REQUEST_TTL_MS,
    completedAt: null,
  };
  await purgeAtMostEveryMinute(deps.db, 'authorization_requests', now, () =>
    purgeAuthorizationRequests(deps.db, now),
  );
  await insertAuthorizationRequest(deps.db, request);
  return request;
}

export interface PendingAuthorization {
  request: AuthorizationRequest;
  client: Client;
}

/** A pending request of this org with its client, or null when unknown, expired or completed. */
export async function loadAuthorizationRequest(
  deps: Deps,
  org: Org,
  id: string,
): Promise<PendingAuthorization | null> {
  const request = await findPendingAuthorizationRequest(deps.db, org.id, id, clock.now());
  if (!request) return null;
  // A metadata document that can no longer be read ends the request like a deleted client does.
  const client = await findSignInClient(deps, org, request.clientId);
  return client ? { request, client } : null;
}

/** Closes a request the person declined, so it cannot be completed afterwards. */
export async function closeAuthorizationRequest(deps: Deps, pending: PendingAuthorization): Promise<void> {
  if (!(await completeAuthorizationRequest(deps.db, pending.request.id, clock.now()))) {
    fail('invalid_request', 'this sign-in was already completed');
  }
}
