import { z } from 'zod';
import { PAGE_FIELDS } from './api-schemas.js';
import { IsoDateTime } from './instant-fields.js';

/** Enterprise sign-in connections (DESIGN §17): what the management API takes and gives. */

const Name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const Domains = z
  .array(z.string().max(253))
  .max(50, 'must hold at most 50 domains')
  .meta({ description: 'email domains the connection claims: an address in one signs in through it' });
const Jit = z.boolean().meta({
  description:
    'create the user on their first sign-in (default false), only at an address in `domains` unless `jit_any_domain`',
});
const JitAnyDomain = z.boolean().meta({
  description:
    'JIT may also create users at addresses outside `domains` (default false); never in a domain another connection of the org claims',
});
const HostedDomain = z.string().max(253).nullable().meta({
  description:
    'OIDC, Google Workspace: the domain every ID token’s `hd` claim must name (default null: not checked)',
});
const DefaultRoles = z.array(z.string().min(1).max(100)).max(50).meta({
  description:
    'end-user role ids of the org given to a user created on first sign-in (`jit`); each must be a role of the org. Linking an existing user leaves their roles as they are.',
});
const Url = z.string().max(2000);
const Scopes = z.array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be a scope token')).max(20);
const AllowedEndpointHosts = z.array(z.string().min(1).max(260)).max(20, 'must hold at most 20 hosts').meta({
  description:
    'hosts (`host` or `host:port`) besides the issuer’s own origin that its discovery document may name as endpoints (token, userinfo, keys, authorization); e.g. Google’s `oauth2.googleapis.com`, `openidconnect.googleapis.com`, `www.googleapis.com`. A document naming any other host is refused.',
});
const Secret = z.string().min(1).max(2000).meta({ description: 'stored sealed; never shown again' });
const Certificate = z
  .string()
  .max(20_000)
  .meta({ description: 'the IdP signing certificate, PEM or base64 DER' });
const MetadataXml = z.string().max(500_000).meta({ description: 'the IdP metadata XML' });

/** OIDC only (DESIGN §20): the provider's ID-JAGs are taken at the jwt-bearer grant. */
const AcceptIdJag = z.boolean().meta({
  description:
    'OIDC only: the org takes Identity Assertion JWT Authorization Grants (ID-JAGs) this provider signs at its `jwt-bearer` grant, for users linked through this connection',
});

export const CreateOidcConnectionBody = z.strictObject({
  type: z.literal('oidc'),
  name: Name,
  domains: Domains.optional(),
  jit: Jit.optional(),
  jit_any_domain: JitAnyDomain.optional(),
  default_roles: DefaultRoles.optional(),
  issuer: Url.meta({ description: 'the provider’s issuer; its configuration is found by discovery' }),
  client_id: z.string().min(1).max(500),
  client_secret: Secret,
  scopes: Scopes.optional().meta({ description: 'default `openid email profile`; `openid` is always asked' }),
  hosted_domain: HostedDomain.optional(),
  allowed_endpoint_hosts: AllowedEndpointHosts.optional(),
  accept_id_jag: AcceptIdJag.optional().meta({ description: 'default false' }),
});

export const CreateSamlConnectionBody = z.strictObject({
  type: z.literal('saml'),
  name: Name,
  domains: Domains.optional(),
  jit: Jit.optional(),
  jit_any_domain: JitAnyDomain.optional(),
  default_roles: DefaultRoles.optional(),
  metadata_xml: MetadataXml.optional(),
  idp_entity_id: z.string().min(1).max(1000).optional(),
  sso_url: Url.optional(),
  certificate: Certificate.optional(),
});

export const CreateConnectionBody = z.discriminatedUnion('type', [
  CreateOidcConnectionBody,
  CreateSamlConnectionBody,
]);

/**
 * "Test connection": the body of a create (so the console sends its form as it stands), every field
 * optional but the type and, for OIDC, the issuer; only the provider's settings are read.
 */
export const TestConnectionBody = z.discriminatedUnion('type', [
  CreateOidcConnectionBody.partial().extend({
    type: z.literal('oidc'),
    issuer: CreateOidcConnectionBody.shape.issuer,
  }),
  CreateSamlConnectionBody.partial().extend({ type: z.literal('saml') }),
]);

export const ConnectionTestResult = z.object({
  type: z.enum(['oidc', 'saml']),
  oidc: z
    .object({
      issuer: z.string(),
      authorization_endpoint: z.string(),
      token_endpoint: z.string(),
      jwks_uri: z.string(),
      userinfo_endpoint: z.string().nullable(),
      id_token_signing_alg_values_supported: z.array(z.string()),
      scopes_supported: z.array(z.string()),
    })
    .optional()
    .meta({ description: 'OIDC: what the issuer’s discovery document names (its endpoints checked)' }),
  saml: z
    .object({
      idp_entity_id: z.string(),
      sso_url: z.string(),
      certificates: z.array(z.object({ subject: z.string(), valid_to: IsoDateTime })),
    })
    .optional()
    .meta({ description: 'SAML: what the metadata names' }),
});

/** PATCH: any field of the connection's type, each optional; the type never changes. */
export const UpdateConnectionBody = z.strictObject({
  name: Name.optional(),
  domains: Domains.optional(),
  jit: Jit.optional(),
  jit_any_domain: JitAnyDomain.optional(),
  default_roles: DefaultRoles.optional(),
  issuer: Url.optional(),
  client_id: z.string().min(1).max(500).optional(),
  client_secret: Secret.optional(),
  scopes: Scopes.optional(),
  hosted_domain: HostedDomain.optional(),
  allowed_endpoint_hosts: AllowedEndpointHosts.optional(),
  accept_id_jag: AcceptIdJag.optional(),
  metadata_xml: MetadataXml.optional(),
  idp_entity_id: z.string().min(1).max(1000).optional(),
  sso_url: Url.optional(),
  certificate: Certificate.optional(),
});

export const ConnectionRecord = z.object({
  id: z.string().meta({ pattern: '^con_' }),
  type: z.enum(['oidc', 'saml']),
  name: z.string(),
  domains: z.array(z.string()),
  jit: z.boolean(),
  jit_any_domain: z.boolean(),
  default_roles: z.array(z.string()),
  oidc: z
    .object({
      issuer: z.string(),
      client_id: z.string(),
      scopes: z.array(z.string()),
      hosted_domain: z.string().nullable(),
      allowed_endpoint_hosts: z.array(z.string()),
      accept_id_jag: z.boolean(),
    })
    .optional()
    .meta({ description: 'an OIDC connection’s settings (never its secret)' }),
  saml: z
    .object({ idp_entity_id: z.string(), sso_url: z.string(), certificates: z.array(z.string()) })
    .optional()
    .meta({ description: 'a SAML connection’s IdP' }),
  callback_url: z.string().optional().meta({ description: 'OIDC: the redirect URI to register upstream' }),
  acs_url: z
    .string()
    .optional()
    .meta({ description: 'SAML: the assertion consumer service URL (HTTP-POST)' }),
  sp_entity_id: z.string().optional().meta({ description: 'SAML: this service’s entity id (the audience)' }),
  sp_metadata_url: z.string().optional().meta({ description: 'SAML: this service’s SP metadata' }),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});

export const ConnectionList = z.array(ConnectionRecord);

export const ConnectionsQuery = z.strictObject({ ...PAGE_FIELDS });
