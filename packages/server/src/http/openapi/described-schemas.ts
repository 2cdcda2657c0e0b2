import { z } from 'zod';
import { AUTHORIZE_PARAMETERS } from '../../domain/sign-in/index.js';
import { GRANTS } from '../oauth/grants/registry.js';

/**
 * Schemas of the routes that check their input by hand (the OAuth endpoints follow their RFCs'
 * own error rules), written for the OpenAPI document only. Where a route's rules live in code
 * (the grants' parameters, the authorize parameters), the schema is built from that code.
 */

const text = (description?: string) => (description ? z.string().meta({ description }) : z.string());

export const OAuthError = z.object({
  error: z.string(),
  error_description: z.string().optional(),
});

/** POST /oauth/token: `grant_type` plus the union of every grant's parameters. */
/** Client authentication in the body (DESIGN §14); `client_secret_basic` is the Authorization header instead. */
const CLIENT_AUTH = {
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  client_assertion: z.string().optional(),
  client_assertion_type: z.literal('urn:ietf:params:oauth:client-assertion-type:jwt-bearer').optional(),
};

export const TokenRequest = z.object({
  grant_type: z.enum([...GRANTS.keys()] as [string, ...string[]]),
  ...Object.fromEntries(
    [...new Set([...GRANTS.values()].flatMap((g) => g.parameters))].map((name) => [
      name,
      z.string().optional(),
    ]),
  ),
  ...CLIENT_AUTH,
});

export const TokenResponse = z.object({
  access_token: z.string(),
  token_type: z.enum(['Bearer', 'DPoP', 'N_A']).meta({
    description:
      '`DPoP` when the request carried a DPoP proof (RFC 9449): the token is bound to its key; `N_A` for an ID-JAG from token exchange (RFC 8693 §2.2.1), which is no access token',
  }),
  expires_in: z.number().int(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  id_token: z.string().optional(),
  issued_token_type: z.string().optional(),
});

export const AuthorizeQuery = z.object(
  Object.fromEntries(AUTHORIZE_PARAMETERS.map((name) => [name, z.string().optional()])),
);

/** POST /oauth/par (RFC 9126 §2.1): an authorization request's parameters and the client's authentication. */
export const PushedAuthorizationRequest = z.object({
  ...Object.fromEntries(
    AUTHORIZE_PARAMETERS.filter((name) => name !== 'request_uri').map((name) => [
      name,
      z.string().optional(),
    ]),
  ),
  ...CLIENT_AUTH,
});

/** RFC 9126 §2.2. */
export const PushedAuthorizationResponse = z.object({
  request_uri: text('`urn:ietf:params:oauth:request_uri:` and a random part; single use'),
  expires_in: z.number().int().meta({ description: 'seconds the request_uri may be used: 60' }),
});

/** OIDC RP-Initiated Logout 1.0 §2: the query (GET) or form (POST) of /oauth/logout. */
export const LogoutRequest = z.object({
  id_token_hint: z
    .string()
    .optional()
    .meta({ description: 'an ID token this issuer gave the client, expired at most 12 hours ago' }),
  client_id: z
    .string()
    .optional()
    .meta({ description: 'the client asking; the hint’s audience when both are given' }),
  post_logout_redirect_uri: z
    .string()
    .optional()
    .meta({ description: 'one of the client’s registered post-logout redirect URIs, exactly' }),
  state: z.string().optional().meta({ description: 'added to post_logout_redirect_uri' }),
});

/** RFC 8628 §3.1: the device authorization request. */
export const DeviceAuthorizationRequest = z.object({
  scope: text(
    'space-separated; the code flow’s rules (identity scopes, resource scopes with their `resource`)',
  ).optional(),
  resource: text('RFC 8707: an API resource of the org; may be repeated').optional(),
  ...CLIENT_AUTH,
});

/** RFC 8628 §3.2: the device authorization response. */
export const DeviceAuthorizationResponse = z.object({
  device_code: text('the code the device polls the token endpoint with'),
  user_code: text('8 letters of BCDFGHJKLMNPQRSTVWXZ as `BCDF-GHJK`; case and the dash do not matter'),
  verification_uri: text('`{issuer}device`, where the person enters the user code'),
  verification_uri_complete: text('the same with the user code filled in'),
  expires_in: z.number().int().meta({ description: '600' }),
  interval: z.number().int().meta({ description: 'seconds between polls: 5' }),
});

export const RevokeRequest = z.object({
  token: z.string(),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  ...CLIENT_AUTH,
});

/** RFC 7009 §2.2: the client ignores the body; an empty object serves clients that parse it. */
export const RevokeAnswer = z.object({});

export const IntrospectRequest = RevokeRequest;

export const Introspection = z.looseObject({
  active: z.boolean(),
  token_type: z.string().optional(),
  client_id: z.string().optional(),
  scope: z.string().optional(),
  sub: z.string().optional(),
  aud: z.string().optional(),
  iss: z.string().optional(),
  exp: z.number().int().optional(),
  iat: z.number().int().optional(),
  cnf: z
    .object({ jkt: z.string() })
    .optional()
    .meta({ description: 'a token bound to a DPoP key (RFC 9449 §6): the key’s RFC 7638 thumbprint' }),
});

export const RegisteredClient = z.object({
  client_id: z.string(),
  client_id_issued_at: z.number().int(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.literal('none'),
  grant_types: z.array(z.string()),
  response_types: z.array(z.literal('code')),
  post_logout_redirect_uris: z.array(z.string()).optional().meta({ description: 'only when registered' }),
  application_type: z.enum(['web', 'native']).optional().meta({ description: 'only when sent' }),
  userinfo_signed_response_alg: z.literal('RS256').optional().meta({ description: 'only when sent' }),
});

export const Discovery = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  revocation_endpoint: z.string(),
  end_session_endpoint: z.string(),
  backchannel_logout_supported: z.literal(true),
  backchannel_logout_session_supported: z.literal(true),
  frontchannel_logout_supported: z.literal(true),
  frontchannel_logout_session_supported: z.literal(true),
  jwks_uri: z.string(),
  registration_endpoint: text(
    'the console issuer, and an org issuer while its `dynamic_registration` setting is on',
  ).optional(),
  device_authorization_endpoint: text('RFC 8628 §4: every issuer'),
  pushed_authorization_request_endpoint: text('RFC 9126: `{issuer}oauth/par`'),
  require_pushed_authorization_requests: z.boolean().meta({
    description:
      'the org’s `require_pushed_authorization_requests` setting (a client may require it of itself too)',
  }),
  identity_chaining_requested_token_types_supported: z.array(z.string()).optional().meta({
    description: 'org issuers: `urn:ietf:params:oauth:token-type:id-jag` (ID-JAGs by token exchange)',
  }),
  authorization_grant_profiles_supported: z.array(z.string()).optional().meta({
    description:
      'org issuers: `urn:ietf:params:oauth:grant-profile:id-jag` (the jwt-bearer grant takes ID-JAGs)',
  }),
  ui_locales_supported: z
    .array(z.string())
    .meta({ description: 'the languages of the hosted pages and mails (docs/languages.md)' }),
  claims_locales_supported: z
    .array(z.string())
    .meta({ description: 'the same languages; claim values are returned as stored, without language tags' }),
});

export const Jwks = z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string() })) });

export const UserInfo = z.looseObject({ sub: z.string() });

export const Health = z.object({
  status: z.literal('ok'),
  database: z.enum(['sqlite', 'postgres']),
});

export const Readiness = z.object({
  status: z.enum(['ready', 'unavailable', 'not_migrated']),
  database: z.enum(['sqlite', 'postgres']),
});

export const UserRecord = z.object({
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  picture: z.string().nullable(),
  provider: z.string(),
});

export const TenantRecord = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['owner', 'member']),
  logo: z.string().nullable(),
});

export const TenantRecordList = z.array(TenantRecord);

export const OrganizationMembership = z.object({
  id: z.string(),
  slug: z.string(),
  role: z.enum(['owner', 'member']),
});

export const ProfileSession = z.object({ key: text('opens the hosted profile page once, shortly') });

export const OpenApiDocument = z.looseObject({ openapi: z.string() });
