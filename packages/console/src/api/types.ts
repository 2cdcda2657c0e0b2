/**
 * The management API's shapes, by the names the screens use: each is a schema of the OpenAPI document
 * the server serves at /openapi.json, typed by openapi-typescript into ./generated/openapi.d.ts
 * (scripts/api-types.mjs, run before every build and typecheck; not in git).
 */
import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

export type OrganizationOfCaller = Schemas['OrganizationOfCaller'];
export type CreatedOrganization = Schemas['CreatedOrganization'];
export type OrganizationSettings = Schemas['OrganizationSettings'];
/** Who may create their own account on the hosted pages. */
export type SignUpPolicy = OrganizationSettings['sign_up'];
/** What the org signs ID tokens (and logout tokens, signed userinfo) with; access tokens stay RS256. */
export type IdTokenSigningAlg = OrganizationSettings['id_token_signing_alg'];
/** A console role: an owner's or a member's (not an end user's role, `UserRole`). */
export type Role = Schemas['Member']['role'];
export type Member = Schemas['Member'];

export type ServiceAccount = Schemas['ServiceAccount'];
export type CreatedServiceAccount = Schemas['CreatedServiceAccount'];
/** The management scopes a service account may hold. */
export type ServiceAccountScope = ServiceAccount['scopes'][number];

/** An invitation (`user`: to be a user of the org; `member`: a console member of it). */
export type Invitation = Schemas['Invitation'];
/** The answer to an invitation: its one-time `url` only when it was not mailed. */
export type CreatedInvitation = Schemas['CreatedInvitation'];

export type Client = Schemas['Client'];
export type CreatedClient = Schemas['CreatedClient'];
export type GrantType = Client['grant_types'][number];
export type CreateClientBody = Schemas['CreateClientBody'];
export type UpdateClientBody = Schemas['UpdateClientBody'];
/** One logout token's delivery to a client's back-channel logout URI. */
export type LogoutDelivery = Schemas['LogoutDelivery'];

export type User = Schemas['User'];
export type SigningKey = Schemas['SigningKey'];

export type Webhook = Schemas['Webhook'];
/** A new webhook: its signing secret, in this answer only. */
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type Delivery = Schemas['Delivery'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];

/** A SCIM directory (`dir_…`): never its token, which the API answers once (create, rotate). */
export type Directory = Schemas['DirectoryRecord'];
/** A directory with its bearer token: in the answer to create or rotate only. */
export type DirectoryWithToken = Schemas['DirectoryWithToken'];
/** A group the identity provider pushed to a directory, and the org roles its members hold by it. */
export type DirectoryGroup = Schemas['DirectoryGroup'];

/** An audit-log stream (`lst_…`) with its health: never its token, API key or signing secret. */
export type LogStream = Schemas['LogStreamRecord'];
/** A new stream: an https stream's signing secret, in this answer only. */
export type CreatedLogStream = Schemas['CreatedLogStream'];
export type LogStreamType = LogStream['type'];
export type CreateLogStreamBody = Schemas['CreateLogStreamBody'];
export type UpdateLogStreamBody = Schemas['UpdateLogStreamBody'];

export type AuditEvent = Schemas['AuditEntry'];
export type Actor = AuditEvent['actor'];

export type Impersonation = Schemas['Impersonation'];

/** An API or MCP server the org protects (RFC 8707 resource indicator `identifier`). */
export type ApiResource = Schemas['Resource'];
/** One scope of an API resource, in the owner's words (shown on the consent page). */
export type ResourceScope = Schemas['ResourceScope'];
/** A scope of one resource, named by the resource's identifier: what roles and machine clients are given. */
export type Permission = Schemas['Permission'];
/** A role of the org's end users (`rol_…`), distinct from an owner's or member's console role. */
export type UserRole = Schemas['EndUserRole'];

// Narrowed here: the document gives a connection record every part as optional, whichever its type;
// the server fills the parts of its type (http/management/connections-schemas.ts), which the screens read.

type ConnectionRecord = Schemas['ConnectionRecord'];
type ConnectionParts = 'oidc' | 'callback_url' | 'saml' | 'acs_url' | 'sp_entity_id' | 'sp_metadata_url';
type ConnectionBase = Omit<ConnectionRecord, 'type' | ConnectionParts>;

/** An upstream OpenID provider; never its client secret, which the API takes and never shows again. */
export type OidcConnection = ConnectionBase & { type: 'oidc' } & Required<
    Pick<ConnectionRecord, 'oidc' | 'callback_url'>
  >;
export type SamlConnection = ConnectionBase & { type: 'saml' } & Required<
    Pick<ConnectionRecord, 'saml' | 'acs_url' | 'sp_entity_id' | 'sp_metadata_url'>
  >;
/** An enterprise sign-in connection (`con_…`): an upstream OIDC provider or SAML IdP (DESIGN §17). */
export type Connection = OidcConnection | SamlConnection;

/** A connection record as the screens read it, once its type's parts are seen to be there. */
export function connectionOf(record: ConnectionRecord): Connection {
  const { oidc, callback_url, saml, acs_url, sp_entity_id, sp_metadata_url } = record;
  if (record.type === 'oidc' && oidc && callback_url) return { ...record, type: 'oidc', oidc, callback_url };
  if (record.type === 'saml' && saml && acs_url && sp_entity_id && sp_metadata_url) {
    return { ...record, type: 'saml', saml, acs_url, sp_entity_id, sp_metadata_url };
  }
  throw new Error(`The connection ${record.id} came without the settings of its type.`);
}

/** What "Test connection" found at the provider (POST …/connections/test); nothing is stored. */
export type ConnectionTestResult = Schemas['ConnectionTestResult'];
export type ConnectionTest =
  | { type: 'oidc'; oidc: NonNullable<ConnectionTestResult['oidc']> }
  | { type: 'saml'; saml: NonNullable<ConnectionTestResult['saml']> };

/** A test's answer as the screen reads it, once its type's part is seen to be there. */
export function connectionTestOf(result: ConnectionTestResult): ConnectionTest {
  if (result.type === 'oidc' && result.oidc) return { type: 'oidc', oidc: result.oidc };
  if (result.type === 'saml' && result.saml) return { type: 'saml', saml: result.saml };
  throw new Error('The test came back without what it found.');
}

/**
 * A trusted app (`tap_…`): a target authorization server some of the org's confidential clients may get
 * ID-JAGs for (Enterprise-Managed Authorization, DESIGN §20).
 */
export type TrustedApp = Schemas['TrustedAppRecord'];
export type Domain = Schemas['DomainRecord'];

/** An org's (or one client's) brand on the hosted pages and mails (docs/branding.md). */
export type OrganizationBranding = Schemas['OrganizationBranding'];
export type UpdateOrganizationBrandingBody = Schemas['UpdateOrganizationBrandingBody'];
