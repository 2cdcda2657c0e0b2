import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { issuerOf, originOf } from '../../domain/directory/issuers.js';
import { publicJwks } from '../../domain/keys/keys.js';
import { MANAGEMENT_SCOPES } from '../../domain/tokens/console-scopes.js';
import { CLAIMS_SUPPORTED } from '../../domain/tokens/openid-claims.js';
import { ACR_IMPERSONATION, ACR_MFA, ACR_PASSWORD } from '../../domain/tokens/tokens-policy.js';
import type { Org } from '../../domain/types.js';
import { orgOf } from '../org-routing.js';
import { GRANTS } from './grants/registry.js';

/** The discovery document (OIDC Discovery and RFC 8414 share it). */
export function discoveryDocument(deps: Deps, org: Org): Record<string, unknown> {
  const origin = originOf(deps.config, org);
  const doc: Record<string, unknown> = {
    issuer: issuerOf(deps.config, org),
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
    userinfo_endpoint: `${origin}/oauth/userinfo`,
    // OIDC RP-Initiated Logout 1.0 (http/sign-in/logout.ts).
    end_session_endpoint: `${origin}/oauth/logout`,
    jwks_uri: `${origin}/.well-known/jwks.json`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANTS.keys()],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    claims_supported: CLAIMS_SUPPORTED,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'none'],
    code_challenge_methods_supported: ['S256'],
    // The console issuer also grants the management API's scopes; org issuers never do.
    scopes_supported: [
      'openid',
      'profile',
      'email',
      'offline_access',
      ...(org.isConsole ? Object.keys(MANAGEMENT_SCOPES) : []),
    ],
    authorization_response_iss_parameter_supported: true,
    acr_values_supported: [ACR_PASSWORD, ACR_MFA, ACR_IMPERSONATION],
  };
  if (org.isConsole) {
    doc.registration_endpoint = `${origin}/oauth/register`;
    // Client ID Metadata Documents (DESIGN §13): a client_id may be the https URL of the client's metadata.
    doc.client_id_metadata_document_supported = true;
  }
  return doc;
}

export function wellKnownRoutes(app: FastifyInstance, deps: Deps) {
  const discovery = async (request: Parameters<typeof orgOf>[1]) =>
    discoveryDocument(deps, await orgOf(deps, request));
  app.get('/.well-known/openid-configuration', (request) => discovery(request));
  app.get('/.well-known/oauth-authorization-server', (request) => discovery(request));
  app.get('/.well-known/jwks.json', async (request, reply) => {
    const org = await orgOf(deps, request);
    reply.header('cache-control', 'public, max-age=300');
    return publicJwks(deps.db, org.id);
  });
}
