import type { Deps } from '../../domain/context.js';
import { IDENTITY_SCOPES, MANAGEMENT_SCOPES } from '../../domain/directory/index.js';
import {
  ID_JAG_GRANT_PROFILE,
  ID_JAG_TOKEN_TYPE,
  JWT_BEARER_GRANT,
} from '../../domain/enterprise-access/index.js';
import { issuerOf, originOf } from '../../domain/issuers.js';
import { publicJwks } from '../../domain/keys/index.js';
import { LOCALES } from '../../domain/locales.js';
import { resourceScopesOf } from '../../domain/resources/index.js';
import {
  PKCE_METHODS,
  PROMPT_VALUES,
  REQUEST_OBJECT_ALGORITHMS,
  RESPONSE_MODES,
} from '../../domain/sign-in/index.js';
import {
  ASSERTION_ALGORITHMS,
  CLAIMS_SUPPORTED,
  CLIENT_AUTH_METHODS,
  DPOP_ALGORITHMS,
} from '../../domain/tokens/index.js';
import { ACR_FEDERATED, ACR_IMPERSONATION, ACR_MFA, ACR_PASSWORD } from '../../domain/tokens-policy.js';
import type { Org } from '../../domain/types.js';
import { anyOrigin } from '../cors.js';
import { Discovery, Jwks } from '../openapi/described-schemas.js';
import { noOrgAtHost } from '../openapi/oauth-responses.js';
import { orgOf } from '../org-routing.js';
import { operation } from '../served-operation.js';
import { GRANTS } from './grants/registry.js';

/**
 * The discovery document (OIDC Discovery and RFC 8414 share it). `resourceScopes`: every scope of
 * the org's API resources (DESIGN §15), listed after the identity scopes.
 */
export function discoveryDocument(
  deps: Deps,
  org: Org,
  resourceScopes: readonly string[] = [],
): Record<string, unknown> {
  const origin = originOf(deps.config, org);
  const doc: Record<string, unknown> = {
    issuer: issuerOf(deps.config, org),
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    // RFC 8628 §4 (http/oauth/device-authorization-endpoint.ts).
    device_authorization_endpoint: `${origin}/oauth/device_authorization`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    // RFC 7662: for the org's confidential clients, so every method but `none`.
    introspection_endpoint: `${origin}/oauth/introspect`,
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS.filter((m) => m !== 'none'),
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    userinfo_endpoint: `${origin}/oauth/userinfo`,
    // OIDC RP-Initiated Logout 1.0 (http/sign-in/logout.ts).
    end_session_endpoint: `${origin}/oauth/logout`,
    // OIDC Back-Channel Logout 1.0 §2.1 and Front-Channel Logout 1.0 §3: logout tokens and frames
    // carry `sid` (and frames `iss`) when the client asks.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: true,
    frontchannel_logout_session_supported: true,
    jwks_uri: `${origin}/.well-known/jwks.json`,
    response_types_supported: ['code'],
    // OIDC Core §3.1.2.1 (domain/sign-in/authorize/response-mode.ts, prompt.ts).
    response_modes_supported: RESPONSE_MODES,
    prompt_values_supported: PROMPT_VALUES,
    // Request objects by value, signed with the client's registered keys (never `none`); by
    // reference only a pushed request's request_uri (RFC 9126), never one fetched from the client.
    request_parameter_supported: true,
    request_uri_parameter_supported: false,
    // RFC 9126 §5: authenticated as at the token endpoint; required by the org's setting (or a client's own).
    pushed_authorization_request_endpoint: `${origin}/oauth/par`,
    require_pushed_authorization_requests: org.requirePushedRequests,
    request_object_signing_alg_values_supported: REQUEST_OBJECT_ALGORITHMS,
    // The console has no enterprise connections: no jwt-bearer grant there.
    grant_types_supported: [...GRANTS.keys()].filter((g) => !(org.isConsole && g === JWT_BEARER_GRANT)),
    subject_types_supported: ['public'],
    // DESIGN §20: the org's one algorithm for ID tokens (and logout tokens, signed userinfo).
    id_token_signing_alg_values_supported: [org.idTokenSigningAlg],
    claims_supported: CLAIMS_SUPPORTED,
    // OIDC Core §5.5 (domain/sign-in/authorize/claims-parameter.ts).
    claims_parameter_supported: true,
    // OIDC Core §5.3.2: a client that registered userinfo_signed_response_alg gets a JWT.
    userinfo_signing_alg_values_supported: [org.idTokenSigningAlg],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    code_challenge_methods_supported: [...PKCE_METHODS],
    // RFC 9449 §5.1: the token endpoint binds tokens to DPoP proofs' keys signed with these.
    dpop_signing_alg_values_supported: [...DPOP_ALGORITHMS],
    // The console issuer also grants the management API's scopes; org issuers never do.
    scopes_supported: [
      ...Object.keys(IDENTITY_SCOPES),
      ...(org.isConsole ? Object.keys(MANAGEMENT_SCOPES) : []),
      ...resourceScopes,
    ],
    authorization_response_iss_parameter_supported: true,
    acr_values_supported: [ACR_PASSWORD, ACR_MFA, ACR_FEDERATED, ACR_IMPERSONATION],
    // OIDC Discovery §3: `ui_locales` picks the pages' language (docs/languages.md).
    ui_locales_supported: [...LOCALES],
    claims_locales_supported: [...LOCALES],
  };
  // The console's registration is the spec's; an org's is there only while its settings open it (§15).
  if (org.isConsole || org.dynamicRegistration) doc.registration_endpoint = `${origin}/oauth/register`;
  // Enterprise-Managed Authorization (DESIGN §20; draft-ietf-oauth-identity-assertion-authz-grant §7):
  // every org issuer issues ID-JAGs for its trusted apps and takes them from connections it trusts.
  if (!org.isConsole) {
    doc.identity_chaining_requested_token_types_supported = [ID_JAG_TOKEN_TYPE];
    doc.authorization_grant_profiles_supported = [ID_JAG_GRANT_PROFILE];
  }
  // Client ID Metadata Documents (DESIGN §13): a client_id may be the https URL of the client's metadata.
  if (org.isConsole || org.metadataDocuments) doc.client_id_metadata_document_supported = true;
  return doc;
}

/** What every discovery operation is: public (no credentials), on every org's host. */
const DISCOVERY = { tag: 'discovery', hosts: 'every', auth: 'none' } as const;

/** GET of a discovery document: the org's, with its resources' scopes; any page may read it (DESIGN §14). */
const discovery = (path: string, operationId: string, summary: string) =>
  operation(
    {
      method: 'get',
      path,
      operationId,
      summary,
      ...DISCOVERY,
      responses: { 200: { description: 'the issuer’s metadata', schema: Discovery }, 404: noOrgAtHost },
    },
    ({ deps }) => ({
      onSend: [anyOrigin],
      handler: async (request) => {
        const org = await orgOf(deps, request);
        return discoveryDocument(deps, org, await resourceScopesOf(deps, org));
      },
    }),
  );

export const openidConfiguration = discovery(
  '/.well-known/openid-configuration',
  'openidConfiguration',
  'OpenID Connect discovery',
);
export const oauthServerMetadata = discovery(
  '/.well-known/oauth-authorization-server',
  'oauthServerMetadata',
  'RFC 8414 metadata (same)',
);

/** GET /.well-known/jwks.json: the org's public signing keys; public, any page may read them. */
export const jwks = operation(
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    operationId: 'jwks',
    summary: 'The org’s signing keys (RFC 7517)',
    ...DISCOVERY,
    responses: { 200: { description: 'public keys; select by `kid`', schema: Jwks }, 404: noOrgAtHost },
  },
  ({ deps }) => ({
    onSend: [anyOrigin],
    handler: async (request, reply) => {
      const org = await orgOf(deps, request);
      reply.header('cache-control', 'public, max-age=300');
      return publicJwks(deps.store, org.id);
    },
  }),
);
