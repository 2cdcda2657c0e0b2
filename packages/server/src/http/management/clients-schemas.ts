import { z } from 'zod';
import {
  canonicalOrigin,
  defaultGrantTypes,
  GRANT_TYPES,
  grantTypesProblem,
  MAX_ALLOWED_ORIGINS,
  MAX_REDIRECT_URIS,
  ORIGIN_RULE,
  redirectUriProblem,
} from '../../domain/directory/index.js';
import { PAGE_FIELDS } from './api-schemas.js';
import { CreatedAt, IsoDateTime } from './instant-fields.js';
import { printableName } from './name-schemas.js';

/**
 * /organizations/{org}/clients: the bodies the routes validate with and the responses they send,
 * declared once; the OpenAPI document is generated from the same objects.
 */

const ClientName = printableName('shown to people on the consent page');

/** One redirect URI, by the rule every registration follows (domain/sign-in/redirect-uris.ts). */
const RedirectUri = z.string().superRefine((uri, issues) => {
  const problem = redirectUriProblem(uri);
  if (problem !== null) issues.addIssue({ code: 'custom', message: problem.rule });
});

const redirectUris = (description: string) =>
  z
    .array(RedirectUri)
    .max(MAX_REDIRECT_URIS, `must hold at most ${MAX_REDIRECT_URIS} URIs`)
    .meta({
      description: `${description}: https, or http on localhost, 127.0.0.1 or [::1]; no fragment; duplicates are dropped`,
    });

const RedirectUris = redirectUris('where the authorization code may be sent');
const PostLogoutRedirectUris = redirectUris('where sign-out (RP-Initiated Logout) may return to');

/** The browser origins CORS answers for the client (domain/directory/allowed-origins.ts). */
const AllowedOrigins = z
  .array(z.string().refine((o) => canonicalOrigin(o) !== null, ORIGIN_RULE))
  .max(MAX_ALLOWED_ORIGINS, `must hold at most ${MAX_ALLOWED_ORIGINS} origins`);

const ALLOWED_ORIGINS =
  'browser origins (scheme://host[:port]) whose pages may call the token, revocation and userinfo ' +
  'endpoints (CORS); https, or http on localhost, 127.0.0.1 or [::1]; duplicates are dropped';

const GrantTypes = z
  .array(z.enum(GRANT_TYPES as [string, ...string[]], `must be one of ${GRANT_TYPES.join(', ')}`))
  .min(1, 'must hold at least one grant type')
  .meta({ description: 'duplicates are dropped' });

/** Public keys for private_key_jwt (RFC 7523): a JWK Set; checked by domain/directory/client-jwks.ts. */
const Jwks = z
  .object({ keys: z.array(z.record(z.string(), z.unknown())) })
  .meta({ description: 'confidential clients only: 1-10 public JWKs (RSA, EC, OKP) for private_key_jwt' });

/** Or where the client publishes them (RFC 7591 `jwks_uri`); checked by domain/directory/client-jwks.ts. */
const JwksUri = z.string().meta({
  format: 'uri',
  description:
    'confidential clients only: the https URL of the JWK Set for private_key_jwt, fetched when an ' +
    'assertion is checked (kept at most 5 minutes; an unknown kid fetches it again); not with jwks',
});

/** OIDC Dynamic Client Registration §2; checked by domain/directory/request-object-signing-alg.ts. */
const RequestObjectSigningAlg = z.string().meta({
  description:
    'the one algorithm its request objects (RFC 9101) must be signed with, from discovery’s ' +
    '`request_object_signing_alg_values_supported` (a confidential client, with keys), or `none` for ' +
    'unsigned ones (any client). Absent: any signed algorithm, never none',
});

/** OIDC Dynamic Client Registration §2 `userinfo_signed_response_alg`: RS256, the org's keys' one algorithm. */
const UserinfoAlg = z.enum(['RS256'], 'must be RS256').meta({
  description:
    'RS256: the userinfo endpoint answers this client a JWT signed with the org’s key; absent: JSON',
});

/** OIDC Back-/Front-Channel Logout 1.0; checked by domain/directory/logout-uris.ts. */
const LOGOUT_URI_RULE =
  'https, or http on localhost, 127.0.0.1 or [::1]; no fragment; not on a host of this service';
const BackchannelLogoutUri = z.string().meta({
  description:
    `OIDC Back-Channel Logout 1.0: where a logout token is POSTed whenever a browser sign-in that ` +
    `signed into this client ends (${LOGOUT_URI_RULE}). Delivered under the webhooks’ address policy and retries`,
});
const FrontchannelLogoutUri = z.string().meta({
  description: `OIDC Front-Channel Logout 1.0: the page the signed-out page frames (${LOGOUT_URI_RULE})`,
});
const BackchannelSessionRequired = z.boolean().meta({
  description: 'logout tokens carry `sid` (they always do here); needs backchannel_logout_uri; default false',
});
const FrontchannelSessionRequired = z.boolean().meta({
  description: 'the framed URL carries `iss` and `sid`; needs frontchannel_logout_uri; default false',
});
/** RFC 9126 §6 client metadata. */
const RequirePushed = z.boolean().meta({
  description:
    'true: the client must push its authorization requests to /oauth/par (RFC 9126); /oauth/authorize ' +
    'refuses its other requests with `invalid_request`. Default false (the org’s setting applies to every client)',
});

/** RFC 9449 §5.2 `dpop_bound_access_tokens`. */
const DpopBound = z.boolean().meta({
  description:
    'true: every token request of this client must carry a DPoP proof (RFC 9449 §5.2), so all its ' +
    'access tokens are DPoP-bound; default false: bound only when it sends a proof',
});

/** RFC 9449 §8 server nonces, asked of this client. */
const DpopNonce = z.boolean().meta({
  description:
    'true: its DPoP proofs must carry a nonce this server hands out (`use_dpop_nonce` with a ' +
    '`DPoP-Nonce` header tells it which); default false',
});

const ClientType = z.enum(['public', 'confidential'], 'must be public or confidential');

export const CreateClientBody = z
  .strictObject({
    client_name: ClientName,
    type: ClientType.meta({ description: 'confidential clients get a secret; public ones use PKCE' }),
    redirect_uris: RedirectUris.optional(),
    post_logout_redirect_uris: PostLogoutRedirectUris.optional(),
    grant_types: GrantTypes.optional().meta({
      description:
        'default: public → authorization_code, refresh_token; confidential → client_credentials ' +
        '(and authorization_code, refresh_token when it has redirect URIs)',
    }),
    first_party: z
      .boolean()
      .optional()
      .meta({ description: 'default true: the org’s own app, whose sign-in asks no consent' }),
    jwks: Jwks.optional(),
    jwks_uri: JwksUri.optional(),
    request_object_signing_alg: RequestObjectSigningAlg.optional(),
    userinfo_signed_response_alg: UserinfoAlg.optional(),
    backchannel_logout_uri: BackchannelLogoutUri.optional(),
    backchannel_logout_session_required: BackchannelSessionRequired.optional(),
    frontchannel_logout_uri: FrontchannelLogoutUri.optional(),
    frontchannel_logout_session_required: FrontchannelSessionRequired.optional(),
    require_pushed_authorization_requests: RequirePushed.optional(),
    dpop_bound_access_tokens: DpopBound.optional(),
    dpop_nonce_required: DpopNonce.optional(),
    allowed_origins: AllowedOrigins.optional().meta({
      description: `${ALLOWED_ORIGINS}. Default: the origins of redirect_uris, following them as they change`,
    }),
  })
  .superRefine((body, issues) => {
    const hasRedirectUris = (body.redirect_uris?.length ?? 0) > 0;
    const grants = body.grant_types ?? defaultGrantTypes(body.type, hasRedirectUris);
    const problem = grantTypesProblem(body.type, grants, hasRedirectUris);
    if (problem !== null) {
      const field = body.grant_types ? 'grant_types' : 'redirect_uris';
      issues.addIssue({ code: 'custom', path: [field], message: problem });
    }
  });

export const UpdateClientBody = z.strictObject({
  client_name: ClientName.optional(),
  redirect_uris: RedirectUris.optional(),
  post_logout_redirect_uris: PostLogoutRedirectUris.optional(),
  grant_types: GrantTypes.optional(),
  jwks: Jwks.nullable().optional().meta({ description: 'null removes the keys' }),
  jwks_uri: JwksUri.nullable().optional().meta({ description: 'null removes the URL' }),
  request_object_signing_alg: RequestObjectSigningAlg.nullable()
    .optional()
    .meta({ description: 'null: back to the default, any signed algorithm' }),
  userinfo_signed_response_alg: UserinfoAlg.nullable().optional().meta({ description: 'null: JSON again' }),
  backchannel_logout_uri: BackchannelLogoutUri.nullable().optional().meta({ description: 'null removes it' }),
  backchannel_logout_session_required: BackchannelSessionRequired.optional(),
  frontchannel_logout_uri: FrontchannelLogoutUri.nullable()
    .optional()
    .meta({ description: 'null removes it' }),
  frontchannel_logout_session_required: FrontchannelSessionRequired.optional(),
  require_pushed_authorization_requests: RequirePushed.optional(),
  dpop_bound_access_tokens: DpopBound.optional(),
  dpop_nonce_required: DpopNonce.optional(),
  allowed_origins: AllowedOrigins.nullable()
    .optional()
    .meta({ description: `${ALLOWED_ORIGINS}. null: back to the default, the origins of redirect_uris` }),
});

export const ClientsQuery = z.strictObject({ ...PAGE_FIELDS });

export const Client = z.object({
  client_id: z.string().meta({ pattern: '^cli_' }),
  client_name: z.string(),
  type: ClientType,
  redirect_uris: z.array(z.string()),
  post_logout_redirect_uris: z.array(z.string()),
  grant_types: z.array(z.enum(GRANT_TYPES as [string, ...string[]])),
  first_party: z.boolean(),
  jwks: Jwks.optional().meta({ description: 'only when the client registered keys' }),
  jwks_uri: JwksUri.optional().meta({ description: 'only when the client registered a key set URL' }),
  request_object_signing_alg: RequestObjectSigningAlg.optional().meta({
    description: 'only when the client registered one',
  }),
  userinfo_signed_response_alg: UserinfoAlg.optional().meta({ description: 'only when registered' }),
  backchannel_logout_uri: BackchannelLogoutUri.optional().meta({ description: 'only when registered' }),
  backchannel_logout_session_required: z
    .boolean()
    .optional()
    .meta({ description: 'with backchannel_logout_uri' }),
  frontchannel_logout_uri: FrontchannelLogoutUri.optional().meta({ description: 'only when registered' }),
  frontchannel_logout_session_required: z
    .boolean()
    .optional()
    .meta({ description: 'with frontchannel_logout_uri' }),
  require_pushed_authorization_requests: z
    .literal(true)
    .optional()
    .meta({ description: 'only when the client must push its authorization requests (RFC 9126)' }),
  dpop_bound_access_tokens: z.literal(true).optional().meta({ description: 'only when set' }),
  dpop_nonce_required: z.literal(true).optional().meta({ description: 'only when set' }),
  allowed_origins: z.array(z.string()).meta({
    description: 'the origins CORS answers: the explicit list, else the origins of redirect_uris',
  }),
  created_at: CreatedAt,
});

const SECRET = 'the client secret (`tcs_…`); in this response only, stored as a hash';

export const CreatedClient = Client.extend({
  client_secret: z
    .string()
    .optional()
    .meta({ description: `confidential clients only: ${SECRET}` }),
});

export const ClientList = z.array(Client);

export const ClientSecret = z.object({ client_secret: z.string().meta({ description: SECRET }) });

export const LogoutDeliveriesQuery = z.strictObject({ ...PAGE_FIELDS });

/** One logout token's delivery to a client's back-channel logout URI: never the token itself. */
export const LogoutDelivery = z.object({
  id: z.string().meta({ pattern: '^lgd_' }),
  url: z.string().meta({ description: 'the back-channel logout URI it is POSTed to' }),
  sub: z.string().meta({ description: 'the person signed out (`sub` of the token)' }),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int().meta({ description: 'attempts made so far' }),
  next_attempt_at: IsoDateTime.nullable().meta({ description: 'pending: when it is (being) attempted' }),
  last_attempt_at: IsoDateTime.nullable(),
  last_status_code: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'null: no answer (refused, timed out…)' }),
  last_error: z.string().nullable().meta({ description: 'why the last attempt failed' }),
  created_at: IsoDateTime,
});

export const LogoutDeliveryList = z.array(LogoutDelivery);
