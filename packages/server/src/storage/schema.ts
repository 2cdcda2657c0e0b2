/** Times are epoch milliseconds; JSON columns are text; booleans are 0/1. Same on SQLite and PostgreSQL. */
export interface OrganizationsTable {
  id: string;
  slug: string;
  name: string;
  is_console: number;
  /** 1: the org's issuer offers POST /oauth/register (DESIGN §15). */
  dynamic_registration: number;
  /** 1: the org's issuer accepts Client ID Metadata Documents as client ids (DESIGN §15). */
  metadata_documents: number;
  /** `open`, `invite_only` or `domains` (migration 025). */
  sign_up: 'open' | 'invite_only' | 'domains';
  /** JSON array of the email domains `domains` lets sign up (migration 025). */
  sign_up_domains: string;
  created_at: number;
  updated_at: number;
  /** 1: every client of the org must push its authorization requests (RFC 9126, migration 042). */
  require_pushed_authorization_requests: number;
  /** `RS256`, `ES256` or `PS256`: ID tokens, logout tokens, ID-JAGs, signed userinfo (migration 049). */
  id_token_signing_alg: string;
  /** The hosted pages' and mails' language when nothing else decides it (migration 050); null: English. */
  default_locale: string | null;
  /** The verified custom domain the org's issuer lives on (migration 053); null: Tessera's host for it. */
  issuer_domain: string | null;
}

export interface MembershipsTable {
  org_id: string;
  /** A user of the console org. */
  user_id: string;
  role: 'owner' | 'member';
  created_at: number;
  /**
   * The user's `email_key`, the list's order; set and kept by triggers (migration 032), never by a
   * statement (null only before the insert trigger has run).
   */
  email_key: string | null;
}

export interface TenantsTable {
  id: string;
  org_id: string;
  name: string;
  logo: string | null;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  id: string;
  org_id: string;
  email: string;
  email_key: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  picture: string | null;
  provider: string;
  created_at: number;
  updated_at: number;
  /** 1: an owner disabled the user; their sign-in is refused (migration 011). */
  disabled: number;
  /** 1: a link mailed to the current address was followed (migration 015). */
  email_verified: number;
  /** Who vouched for the address when the user was made; null: made before migration 036. */
  origin: 'sign_up' | 'owner' | 'invitation' | 'connection' | null;
  /** The connection that made the user on first sign-in (origin `connection`); no foreign key. */
  origin_connection: string | null;
  /** OIDC Core §5.1 claims (migration 037); null: not given. */
  middle_name: string | null;
  nickname: string | null;
  preferred_username: string | null;
  profile: string | null;
  website: string | null;
  gender: string | null;
  /** `YYYY` or `YYYY-MM-DD`. */
  birthdate: string | null;
  zoneinfo: string | null;
  locale: string | null;
  /** E.164. */
  phone_number: string | null;
  /** 1: an owner vouched for the number (migration 037). */
  phone_number_verified: number;
  /** The §5.1.1 address object as JSON. */
  address: string | null;
}

/** Rows of the users and clients lists per org and UTC day or hour of `created_at`, kept by triggers (migration 031). */
export interface ListCountsTable {
  list: 'users' | 'clients';
  org_id: string;
  span: 'day' | 'hour';
  /** `created_at` ÷ the span's length (86,400,000 or 3,600,000 ms), rounded down. */
  bucket: number;
  /** May be 0 once every row of the span was deleted. */
  n: number;
}

/** Each user's searched texts as `lower()` makes them (migrations 057 and 058), kept by triggers on `users`; `row`, a stable integer key, on SQLite only. */
export interface UserSearchRowsTable {
  row: number;
  user_id: string;
  org_id: string;
  created_at: number;
  email: string;
  first_name: string;
  last_name: string;
}

/** SQLite only (migration 057): the FTS5 trigram index of `user_search_rows`' texts, keyed by its `row`. */
export interface UserSearchTable {
  rowid: number;
}

export interface TenantMembersTable {
  tenant_id: string;
  user_id: string;
  role: 'owner' | 'member';
  created_at: number;
}

export interface ClientsTable {
  id: string;
  org_id: string;
  name: string;
  kind: 'public' | 'confidential';
  secret_hash: string | null;
  redirect_uris: string;
  grant_types: string;
  first_party: number;
  created_at: number;
  updated_at: number;
  /** JSON array of the URIs sign-out may return to (migration 012). */
  post_logout_redirect_uris: string;
  /** When the current secret was issued; null for public clients (migration 012). */
  secret_issued_at: number | null;
  /** The client's public keys for private_key_jwt, a JWK Set as JSON; null: none (migration 019). */
  jwks: string | null;
  /** The https URL of the client's public keys, instead of `jwks`; null: none (migration 028). */
  jwks_uri: string | null;
  /** The one algorithm its request objects must use, `none` included; null: any signed one (migration 035). */
  request_object_signing_alg: string | null;
  /** JSON array of the origins CORS answers; null: the redirect URIs' origins (migration 021). */
  allowed_origins: string | null;
  /** `RS256`: userinfo answers a signed JWT; null: JSON (migration 037). */
  userinfo_signed_response_alg: string | null;
  /** OIDC Back-Channel Logout: where logout tokens are POSTed; null: none (migration 044). */
  backchannel_logout_uri: string | null;
  /** 1: its logout tokens must carry `sid` (migration 044). */
  backchannel_logout_session_required: number;
  /** OIDC Front-Channel Logout: the page the logout page frames; null: none (migration 044). */
  frontchannel_logout_uri: string | null;
  /** 1: the frame's URL carries `iss` and `sid` (migration 044). */
  frontchannel_logout_session_required: number;
  /** 1: the client must push its authorization requests (RFC 9126, migration 042). */
  require_pushed_authorization_requests: number;
  /** 1: every token request must carry a DPoP proof (RFC 9449 §5.2; migration 045). */
  dpop_bound_access_tokens: number;
  /** 1: DPoP proofs must carry a nonce this service handed out (RFC 9449 §8; migration 045). */
  dpop_nonce_required: number;
}

/** A console-org client bound to one org's management API (migration 024). */
export interface ServiceAccountsTable {
  client_id: string;
  org_id: string;
  /** Space-separated management scopes. */
  scope: string;
  created_at: number;
}

/** The `jti` of each accepted client assertion, as its SHA-256, kept until it expires (migration 019). */
export interface ClientAssertionJtisTable {
  org_id: string;
  client_id: string;
  jti_hash: string;
  expires_at: number;
}

/** Each accepted DPoP proof's key thumbprint and `jti`, as one SHA-256, kept until it expires (migration 045). */
export interface DpopProofJtisTable {
  jti_hash: string;
  expires_at: number;
}

export interface SigningKeysTable {
  kid: string;
  org_id: string;
  /** `next`: published, not yet signing; `active`: signs; `retired`: published until `expires_at`. */
  status: 'next' | 'active' | 'retired';
  public_jwk: string;
  private_key: string;
  created_at: number;
  expires_at: number | null;
  /** `RS256`, `ES256` or `PS256`: what the key signs with (migration 049). */
  alg: string;
}

export interface AuditEventsTable {
  id: string;
  org_id: string;
  key: string;
  entity: string;
  verb: string;
  at: number;
  actor_kind: 'user' | 'client' | 'system';
  actor_id: string | null;
  data: string;
  previous: string | null;
  changes: string | null;
  /**
   * The order log streams read entries in (migration 047): the writing transaction's id on PostgreSQL
   * (its column default), a per-org counter taken in the writing transaction on SQLite.
   */
  tx_order?: number;
}

/** A person's sign-in on the hosted pages (the login cookie); separate from the OAuth sessions below. */
export interface BrowserSessionsTable {
  /** SHA-256 of the cookie's secret: a database reader cannot forge the cookie. */
  token_hash: string;
  org_id: string;
  user_id: string;
  /** JSON array of RFC 8176 method names. */
  amr: string;
  acr: string;
  created_at: number;
  expires_at: number;
  /** An impersonated sign-in: the acting owner's console user id (migration 006). */
  actor_id: string | null;
}

/** A validated GET /oauth/authorize waiting for the person to sign in and consent. */
export interface AuthorizationRequestsTable {
  id: string;
  org_id: string;
  client_id: string;
  redirect_uri: string;
  /** 1 when the client sent redirect_uri (the token request must then repeat it, RFC 6749 §4.1.3). */
  redirect_uri_given: number;
  state: string | null;
  code_challenge: string | null;
  scope: string;
  /** The requested resource identifiers as a JSON array, in request order; null: none (migration 038). */
  resources: string | null;
  /** The resource grant decided at the consent page, JSON `[{resource, scopes}]`; null: not yet (migration 038). */
  resource_grant: string | null;
  created_at: number;
  expires_at: number;
  completed_at: number | null;
  /** OpenID Connect `nonce`, echoed in the ID token (migration 007). */
  nonce: string | null;
  /** OIDC `prompt` values understood, space-separated (migration 020). */
  prompt: string | null;
  /** OIDC `max_age` in seconds (migration 020). */
  max_age: number | null;
  /** OIDC `login_hint`: fills the login page's email field (migration 020). */
  login_hint: string | null;
  /** OIDC `ui_locales`: the supported locales it named, space-separated, preferred first (migration 050). */
  ui_locales: string | null;
  /** `query`, `fragment` or `form_post` (migration 020). */
  response_mode: string;
  /** The OIDC `claims` parameter, normalized, as JSON; null: none (migration 037). */
  claims: string | null;
  /** RFC 9449 §10 `dpop_jkt`: the DPoP key the code is bound to; null: none (migration 049). */
  dpop_jkt: string | null;
}

export interface AuthorizationCodesTable {
  code_hash: string;
  org_id: string;
  client_id: string;
  /** The OAuth session the code opened: revoked if the code is presented twice. */
  session_id: string;
  redirect_uri: string;
  redirect_uri_given: number;
  code_challenge: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The authorization request's `nonce`, for the ID token (migration 007). */
  nonce: string | null;
  /** The DPoP key thumbprint the code is redeemed with only (RFC 9449 §10, migration 049). */
  dpop_jkt: string | null;
}

/** One person signed in to one client (`sid` in access tokens). */
export interface OAuthSessionsTable {
  id: string;
  org_id: string;
  user_id: string;
  client_id: string;
  /** The tenant tokens act in; null for console sessions (and after the tenant was deleted). */
  tenant_id: string | null;
  amr: string;
  acr: string;
  scope: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** An impersonated session: the acting owner's console user id, the `act.sub` of its tokens. */
  actor_id: string | null;
  /** When the person signed in (`auth_time` of ID tokens); null before migration 007. */
  auth_time: number | null;
  /** The browser sign-in (login cookie hash) it was opened from; null for none (migration 014). */
  browser_session: string | null;
  /** JSON array of {resource, scopes}: the resources its authorization granted; null: none (migration 022). */
  resources: string | null;
  /** The authorization request's OIDC `claims` parameter, normalized, as JSON; null: none (migration 037). */
  claims: string | null;
  /** The `sid` of its ID tokens when opened from a browser sign-in (session_clients); null: the id (migration 044). */
  sid: string | null;
}

/** Which clients a browser sign-in signed into, with the `sid` each was given (migration 044). */
export interface SessionClientsTable {
  sid: string;
  org_id: string;
  /** The login cookie's hash (browser_sessions.token_hash). */
  browser_session: string;
  user_id: string;
  /** A client's id, or a metadata document's URL. */
  client_id: string;
  /** The client's logout endpoints when it signed in: used for a metadata-document client only. */
  backchannel_logout_uri: string | null;
  backchannel_logout_session_required: number;
  frontchannel_logout_uri: string | null;
  frontchannel_logout_session_required: number;
  created_at: number;
}

/** A logout token to POST to a client's back-channel logout URI, with its last attempt (migration 044). */
export interface LogoutDeliveriesTable {
  id: string;
  org_id: string;
  client_id: string;
  url: string;
  sub: string;
  sid: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** Pending: when due; while claimed: the end of the lease. */
  next_attempt_at: number | null;
  claim_token: string | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  client_id: string;
  created_at: number;
  expires_at: number;
  /** Set when rotated (or superseded): presenting it again revokes the session (after the reuse grace). */
  used_at: number | null;
  /** SHA-256 of the token a refresh issued in its place (not set when superseded by a switch). */
  rotated_to: string | null;
  /**
   * Set when retired unused: its predecessor was presented again within the reuse grace and issued
   * another in its place (migration 040). Presenting it is refused without revoking the session.
   */
  retired_at: number | null;
  /** The thumbprint of the DPoP key a public client's token is bound to; null: not bound (migration 045). */
  dpop_jkt: string | null;
}

export interface ConsentsTable {
  org_id: string;
  user_id: string;
  client_id: string;
  scope: string;
  created_at: number;
  updated_at: number;
}

/** Fixed-window counters of password attempts, by account and by IP; shared by every node. */
export interface LoginAttemptsTable {
  org_id: string;
  key: string;
  window_start: number;
  attempts: number;
}

export interface ProfileKeysTable {
  key_hash: string;
  org_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** One-time links mailed to users (migration 015): only the token's SHA-256 is stored. */
export interface MailTokensTable {
  token_hash: string;
  org_id: string;
  user_id: string;
  purpose: 'reset' | 'verify';
  /** The address the link was mailed to: it works only while the user's address is still this one. */
  sent_to: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A `domains`-policy sign-up waiting for its mailed link (migration 036): the token as a SHA-256 only. */
export interface SignUpRequestsTable {
  token_hash: string;
  org_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  created_at: number;
  expires_at: number;
}

/** An invitation (DESIGN §16): its link's token as a SHA-256 only. */
export interface InvitationsTable {
  id: string;
  /** The org the invitee joins (a console member invitation: the org, not the console org). */
  org_id: string;
  kind: 'user' | 'member';
  email: string;
  email_key: string;
  /** `member` invitations: the console role the invitee gets. */
  role: 'owner' | 'member' | null;
  /** `user` invitations: JSON array of the org's `rol_` ids the invitee gets on accepting (`[]`: none). */
  roles: string;
  token_hash: string;
  /** 1 when the link went out by mail (following it then proves the mailbox). */
  mailed: number;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

export interface RateLimitHitsTable {
  bucket: string;
  at: number;
}

/** A user's TOTP authenticator (RFC 6238); unconfirmed until a first code checks out. */
export interface TotpFactorsTable {
  user_id: string;
  org_id: string;
  /** The shared secret, sealed (AES-256-GCM under TESSERA_SECRET). */
  secret: string;
  confirmed_at: number | null;
  /** The last time step a code was accepted for: codes of that step or earlier are refused. */
  last_step: number | null;
  created_at: number;
}

/** A user's passkey (migration 016): a WebAuthn credential whose relying party is the org's host. */
export interface PasskeysTable {
  id: string;
  org_id: string;
  user_id: string;
  /** The credential id, base64url, as the authenticator made it; unique within the org. */
  credential_id: string;
  /** The COSE public key, base64url: all that is kept of the key. */
  public_key: string;
  sign_count: number;
  /** JSON array of the transports the browser reported (`internal`, `hybrid`, `usb`, …). */
  transports: string;
  aaguid: string;
  device_type: 'singleDevice' | 'multiDevice';
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn ceremony in progress (migration 016): single use, short lived, bound to one browser. */
export interface PasskeyChallengesTable {
  challenge_hash: string;
  org_id: string;
  purpose: 'register' | 'sign_in';
  /** Registration only: the user adding a passkey. */
  user_id: string | null;
  /** SHA-256 of the browser's CSRF cookie value. */
  browser_hash: string;
  created_at: number;
  expires_at: number;
}

/** An org's sign-in policy; no row is the default (second factor optional). */
export interface OrgSignInPoliciesTable {
  org_id: string;
  /** 1: every user signs in with a second factor. */
  require_mfa: number;
  updated_at: number;
}

/** One-time recovery codes, stored as SHA-256 of `user:code`. */
export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** The public clients whose user tokens a confidential client may exchange (RFC 8693). */
export interface ClientPromotionsTable {
  client_id: string;
  source_client_id: string;
  created_at: number;
}

/** A pushed authorization request (RFC 9126, migration 042): a one-time key of 60 seconds. */
export interface PushedAuthorizationRequestsTable {
  /** SHA-256 of the random part of its `request_uri`. */
  key_hash: string;
  org_id: string;
  /** The client that pushed it (a metadata-document client's URL included). */
  client_id: string;
  /** JSON: the checked parameters, as /oauth/authorize reads them. */
  parameters: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A one-time impersonation link, waiting to be opened. */
export interface ImpersonationsTable {
  key_hash: string;
  id: string;
  org_id: string;
  user_id: string;
  /** The owner (console user) who acts. */
  actor_id: string;
  /** The authorization request the link completes. */
  request_id: string;
  reason: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** An org's webhook endpoint (migration 004). */
export interface WebhooksTable {
  id: string;
  org_id: string;
  url: string;
  /** JSON array of routing-key patterns. */
  events: string;
  /** The `whsec_…` signing secret, sealed (crypto/sealing.ts). */
  secret_sealed: string;
  active: number;
  created_at: number;
  updated_at: number;
}

/** The webhook outbox: one row per event and matching webhook (migration 005). */
export interface WebhookDeliveriesTable {
  id: string;
  org_id: string;
  webhook_id: string;
  /** The audit event id, sent as `webhook-id` on every attempt. */
  event_id: string;
  event_key: string;
  /** The JSON body, signed and sent byte for byte on every attempt. */
  body: string;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  /** Failed attempts of the current series. */
  attempts: number;
  /** Pending: when due; while claimed: the end of the lease. */
  next_attempt_at: number | null;
  claim_token: string | null;
  created_at: number;
  updated_at: number;
}

/** One delivery attempt, for the delivery log (migration 005). */
export interface WebhookDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** Audit entries per org, UTC day (`at / 86400000`) and key, for sealed days only (migration 004). */
export interface AuditEventCountsTable {
  org_id: string;
  day: number;
  key: string;
  entity: string;
  verb: string;
  n: number;
}

/** Entries of an org's sealed UTC day, of every key: the sum of its audit_event_counts rows (migration 033). */
export interface AuditDayTotalsTable {
  org_id: string;
  day: number;
  n: number;
}

/** Up to where (exclusive, epoch ms, a UTC day boundary) an org's audit_event_counts are complete. */
export interface AuditCountMarksTable {
  org_id: string;
  sealed_until: number;
}

/** An org's API (RFC 8707 resource) with its scopes (migration 022). */
export interface ApiResourcesTable {
  id: string;
  org_id: string;
  /** The resource indicator: an absolute URI, unique within the org, never changed. */
  identifier: string;
  name: string;
  /** JSON array of {name, description}. */
  scopes: string;
  /** Seconds. */
  access_token_ttl: number;
  created_at: number;
  updated_at: number;
}

/** A role of an org's end users (migration 022). */
export interface RolesTable {
  id: string;
  org_id: string;
  name: string;
  description: string;
  created_at: number;
  updated_at: number;
}

/** One scope of one resource a role allows (migration 022). */
export interface RolePermissionsTable {
  role_id: string;
  resource_id: string;
  scope: string;
}

/** A role a user holds (migration 022). */
export interface UserRolesTable {
  user_id: string;
  role_id: string;
  created_at: number;
}

/** One scope of one resource a machine client may get tokens for (migration 022). */
export interface ClientPermissionsTable {
  client_id: string;
  resource_id: string;
  scope: string;
}

/** A value sealed with the master secret, to refuse a process started with another one. */
/** Settings of the service as a whole (migration 041): `served_url`, the URL settings serve started with. */
export interface ServiceSettingsTable {
  name: string;
  /** JSON. */
  value: string;
  updated_at: number;
}

export interface SealedChecksTable {
  name: string;
  sealed: string;
  created_at: number;
}

/** An org's enterprise sign-in connection (migration 027). */
export interface ConnectionsTable {
  id: string;
  org_id: string;
  type: 'oidc' | 'saml';
  name: string;
  /** JSON array of the email domains the connection claims. */
  domains: string;
  jit: number;
  /** JSON array of role ids given to a user made on first sign-in. */
  default_roles: string;
  /** JSON of the type's settings, nothing secret. */
  settings: string;
  /** 1: JIT may create users outside `domains` too (never in another connection's; migration 036). */
  jit_any_domain: number;
  /** The OIDC client secret, sealed; null for SAML. */
  sealed_secret: string | null;
  created_at: number;
  updated_at: number;
}

/** A person at a connection, linked to a user (migration 027). */
export interface FederatedIdentitiesTable {
  connection_id: string;
  subject: string;
  user_id: string;
  created_at: number;
}

/** A sign-in sent to an upstream, waiting for its answer (migration 027). */
export interface FederationRequestsTable {
  /**
   * SHA-256 of the OIDC state, of the SAML request id, or of `answer:` and the one-time id of a
   * verified SAML answer waiting for the browser that started the sign-in.
   */
  key_hash: string;
  connection_id: string;
  /** The authorization request to go on with, if any. */
  request_id: string | null;
  /** Sealed JSON: PKCE verifier, nonce, the browser binding's hash; a waiting answer's identity. */
  sealed_data: string;
  created_at: number;
  expires_at: number;
}

/** An accepted SAML assertion id, kept against replay until it expires (migration 027). */
export interface SamlAssertionIdsTable {
  connection_id: string;
  assertion_id: string;
  expires_at: number;
}

/** An org's SCIM directory (migration 046). */
export interface ScimDirectoriesTable {
  id: string;
  org_id: string;
  name: string;
  connection_id: string | null;
  /** SHA-256 of the bearer token (shown once). */
  token_hash: string;
  created_at: number;
  updated_at: number;
}

/** A user a directory holds, with their SCIM resource (migration 046). */
export interface ScimUsersTable {
  user_id: string;
  directory_id: string;
  user_name: string;
  /** user_name, lower case: unique per directory. */
  user_name_key: string;
  external_id: string | null;
  /** JSON of the SCIM User resource as the directory last set it. */
  resource: string;
  version: number;
  created_at: number;
  updated_at: number;
}

/** One address of a directory user's `emails`, lower case (migration 046). */
export interface ScimUserEmailsTable {
  user_id: string;
  directory_id: string;
  email_key: string;
}

/** A directory's group (migration 046). */
export interface ScimGroupsTable {
  id: string;
  directory_id: string;
  display_name: string;
  external_id: string | null;
  version: number;
  created_at: number;
  updated_at: number;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

export interface ScimGroupRolesTable {
  group_id: string;
  role_id: string;
}

/** A role a user holds because of a group's mapping (migration 046). */
export interface ScimRoleGrantsTable {
  user_id: string;
  role_id: string;
}

/** A device authorization (RFC 8628, migration 043): the device code as its SHA-256, the user code without its dash. */
export interface DeviceAuthorizationsTable {
  id: string;
  org_id: string;
  client_id: string;
  device_code_hash: string;
  user_code: string;
  scope: string;
  /** The requested resource identifiers as a JSON array; null: none. */
  resources: string | null;
  /** `pending`, `approved` or `denied`. */
  status: string;
  user_id: string | null;
  session_id: string | null;
  interval_s: number;
  last_polled_at: number | null;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  redeemed_at: number | null;
}

/** An org's own words for one message of the catalog in one language (migration 050). */
export interface OrgTextsTable {
  org_id: string;
  locale: string;
  key: string;
  /** An ICU message, checked against the catalog's key and arguments when written. */
  message: string;
  updated_at: number;
}

/** A host name an org's owners added (migration 053), verified by a DNS TXT record. */
export interface OrgDomainsTable {
  id: string;
  org_id: string;
  /** Lower-case ASCII (IDNA A-labels), no trailing dot. */
  name: string;
  /** What `_tessera-challenge.<name>` must hold. */
  token: string;
  /** `name` once verified: unique over every org. */
  verified_name: string | null;
  verified_at: number | null;
  created_at: number;
}

/** A host the org's issuer moved away from, serving what verifies its tokens until `serves_until`. */
export interface OrgFormerIssuersTable {
  id: string;
  org_id: string;
  /** null: the org's host under Tessera (`<slug>.<issuer domain>`). */
  domain: string | null;
  moved_at: number;
  serves_until: number;
}

/** An org's brand (`client_id` '') or one of its clients' (migration 052): checked values as JSON. */
export interface BrandingsTable {
  org_id: string;
  client_id: string;
  /** domain/types.ts Branding as JSON. */
  settings: string;
  updated_at: number;
}

/** An image a brand of the org names, by the SHA-256 of its bytes (migration 052). */
export interface BrandImagesTable {
  org_id: string;
  sha256: string;
  media_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  created_at: number;
}

export interface Database {
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  tenants: TenantsTable;
  users: UsersTable;
  list_counts: ListCountsTable;
  user_search_rows: UserSearchRowsTable;
  user_search: UserSearchTable;
  tenant_members: TenantMembersTable;
  clients: ClientsTable;
  client_assertion_jtis: ClientAssertionJtisTable;
  dpop_proof_jtis: DpopProofJtisTable;
  service_accounts: ServiceAccountsTable;
  signing_keys: SigningKeysTable;
  audit_events: AuditEventsTable;
  browser_sessions: BrowserSessionsTable;
  authorization_requests: AuthorizationRequestsTable;
  authorization_codes: AuthorizationCodesTable;
  oauth_sessions: OAuthSessionsTable;
  session_clients: SessionClientsTable;
  logout_deliveries: LogoutDeliveriesTable;
  refresh_tokens: RefreshTokensTable;
  consents: ConsentsTable;
  login_attempts: LoginAttemptsTable;
  profile_keys: ProfileKeysTable;
  mail_tokens: MailTokensTable;
  sign_up_requests: SignUpRequestsTable;
  invitations: InvitationsTable;
  rate_limit_hits: RateLimitHitsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  audit_event_counts: AuditEventCountsTable;
  audit_count_marks: AuditCountMarksTable;
  audit_day_totals: AuditDayTotalsTable;
  org_sign_in_policies: OrgSignInPoliciesTable;
  totp_factors: TotpFactorsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  recovery_codes: RecoveryCodesTable;
  client_promotions: ClientPromotionsTable;
  impersonations: ImpersonationsTable;
  pushed_authorization_requests: PushedAuthorizationRequestsTable;
  sealed_checks: SealedChecksTable;
  service_settings: ServiceSettingsTable;
  log_streams: LogStreamsTable;
  trusted_apps: TrustedAppsTable;
  org_domains: OrgDomainsTable;
  org_former_issuers: OrgFormerIssuersTable;
  org_texts: OrgTextsTable;
  brandings: BrandingsTable;
  brand_images: BrandImagesTable;
  api_resources: ApiResourcesTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  client_permissions: ClientPermissionsTable;
  connections: ConnectionsTable;
  federated_identities: FederatedIdentitiesTable;
  federation_requests: FederationRequestsTable;
  saml_assertion_ids: SamlAssertionIdsTable;
  scim_directories: ScimDirectoriesTable;
  scim_users: ScimUsersTable;
  scim_user_emails: ScimUserEmailsTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  scim_group_roles: ScimGroupRolesTable;
  scim_role_grants: ScimRoleGrantsTable;
  device_authorizations: DeviceAuthorizationsTable;
}

/** An org's audit-log stream to a SIEM (migration 047): its destination and its durable cursor. */
export interface LogStreamsTable {
  id: string;
  org_id: string;
  name: string;
  type: 'https' | 'splunk_hec' | 'datadog';
  url: string;
  /** The https type's `whsec_…` secret, Splunk's HEC token or Datadog's API key, sealed. */
  secret_sealed: string;
  /** JSON: the type's own settings. */
  settings: string;
  active: number;
  backfill_from: number;
  /** The last entry accepted by the destination: (tx_order, id); null before the first. */
  cursor_order: number | null;
  cursor_id: string | null;
  claim_token: string | null;
  lease_until: number | null;
  next_attempt_at: number;
  failures: number;
  last_error: string | null;
  last_error_at: number | null;
  last_sent_at: number | null;
  sent_entries: number;
  created_at: number;
  updated_at: number;
}

/** A target application the org issues ID-JAGs for (DESIGN §20, migration 048). */
export interface TrustedAppsTable {
  id: string;
  org_id: string;
  name: string;
  /** The target authorization server's issuer: the ID-JAG's `aud`. */
  audience: string;
  /** The client id the target knows the asking clients by: the ID-JAG's `client_id`. */
  target_client_id: string;
  /** JSON arrays: the org's clients that may ask; the resources and scopes they may ask for. */
  client_ids: string;
  resources: string;
  scopes: string;
  created_at: number;
  updated_at: number;
}
