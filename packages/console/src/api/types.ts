/** The management API's shapes, as packages/server/src/http/management/*-schemas.ts declare them. */

export type Role = 'owner' | 'member';

export interface OrganizationOfCaller {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

export interface CreatedOrganization {
  id: string;
  slug: string;
  name: string;
  issuer: string;
}

export interface OrganizationSettings {
  id: string;
  slug: string;
  name: string;
  issuer: string;
  require_mfa: boolean;
  dynamic_registration: boolean;
  metadata_documents: boolean;
  sign_up: SignUpPolicy;
  sign_up_domains: string[];
}

/** Who may create their own account on the hosted pages. */
export type SignUpPolicy = 'open' | 'invite_only' | 'domains';

/** The management scopes a service account may hold. */
export type ServiceAccountScope = 'org:read' | 'events:read' | 'org:write';

export interface ServiceAccount {
  client_id: string;
  name: string;
  scopes: ServiceAccountScope[];
  token_endpoint: string;
  secret_issued_at: string;
  created_at: string;
}

export interface CreatedServiceAccount extends ServiceAccount {
  client_secret: string;
}

export interface Member {
  user_id: string;
  email: string;
  role: Role;
}

/** An invitation (`user`: to be a user of the org; `member`: a console member of it). */
export interface Invitation {
  id: string;
  kind: 'user' | 'member';
  email: string;
  role: Role | null;
  /** `user` invitations: the end-user role ids (`rol_`) granted on accepting; empty when none. */
  roles: string[];
  state: 'pending' | 'accepted' | 'expired';
  mailed: boolean;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
}

/** The answer to an invitation: its one-time `url` only when it was not mailed. */
export interface CreatedInvitation extends Invitation {
  url?: string;
}

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

export interface Client {
  client_id: string;
  client_name: string;
  type: 'public' | 'confidential';
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  grant_types: GrantType[];
  first_party: boolean;
  /** The browser origins CORS answers: the explicit list, else the redirect URIs' origins. */
  allowed_origins: string[];
  /** Public keys for private_key_jwt, registered inline (API only) or as a URL. */
  jwks?: { keys: Record<string, unknown>[] };
  jwks_uri?: string;
  created_at: string;
}

export interface CreatedClient extends Client {
  client_secret?: string;
}

export interface User {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  disabled: boolean;
  created_at: string;
}

export interface SigningKey {
  kid: string;
  state: 'next' | 'active' | 'retired';
  created_at: string;
}

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
  secret?: string;
}

export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  created_at: string;
  next_attempt_at: string | null;
  attempts: DeliveryAttempt[];
}

export type Actor = { kind: 'user' | 'client'; id: string } | { kind: 'system' };

export interface AuditEvent {
  id: string;
  key: string;
  entity: string;
  verb: 'created' | 'updated' | 'deleted' | 'login';
  at: string;
  actor: Actor;
  data: Record<string, unknown>;
  previous?: Record<string, unknown>;
  changes?: Record<string, unknown>;
}

export interface Impersonation {
  id: string;
  user_id: string;
  client_id: string;
  url: string;
  expires_at: string;
}

/** One scope of an API resource, in the owner's words (shown on the consent page). */
export interface ResourceScope {
  name: string;
  description: string;
}

/** An API or MCP server the org protects (RFC 8707 resource indicator `identifier`). */
export interface ApiResource {
  id: string;
  identifier: string;
  name: string;
  scopes: ResourceScope[];
  access_token_ttl: number;
  created_at: string;
}

/** A scope of one resource, named by the resource's identifier: what roles and machine clients are given. */
export interface Permission {
  resource: string;
  scope: string;
}

/** A role of the org's end users (`rol_…`), distinct from an owner's or member's console role. */
export interface UserRole {
  id: string;
  name: string;
  description: string;
  permissions: Permission[];
  created_at: string;
}

/** An enterprise sign-in connection (`con_…`): an upstream OIDC provider or SAML IdP (DESIGN §17). */
interface ConnectionBase {
  id: string;
  name: string;
  /** Email domains the connection claims, lower case. */
  domains: string[];
  /** Whether a user is created on their first sign-in. */
  jit: boolean;
  /** Role ids (`rol_…`) a user created on first sign-in is given. */
  default_roles: string[];
  created_at: string;
  updated_at: string;
}

/** Never its client secret: the API takes it and never shows it again. */
export interface OidcConnection extends ConnectionBase {
  type: 'oidc';
  oidc: { issuer: string; client_id: string; scopes: string[] };
  /** The redirect URI to register at the provider. */
  callback_url: string;
}

export interface SamlConnection extends ConnectionBase {
  type: 'saml';
  saml: { idp_entity_id: string; sso_url: string; certificates: string[] };
  acs_url: string;
  sp_entity_id: string;
  sp_metadata_url: string;
}

export type Connection = OidcConnection | SamlConnection;
