/** The service's resources as the domain sees them (camelCase, no storage concerns). */

/** A language the hosted pages and mails speak (domain/locales.ts), as its BCP 47 tag. */
export type Locale = 'en' | 'de' | 'fr' | 'es' | 'ja' | 'pt-BR' | 'ar';

export interface Org {
  id: string;
  slug: string;
  name: string;
  isConsole: boolean;
  /** The org's issuer offers POST /oauth/register (DESIGN §15); always off on the console, which has its own. */
  dynamicRegistration: boolean;
  /** The org's issuer takes a metadata document's URL as a client id (DESIGN §15). */
  metadataDocuments: boolean;
  /** Who may create their own account on the hosted pages (domain/sign-in/sign-up-policy.ts). */
  signUp: SignUpPolicy;
  /** The email domains (lower case) `domains` lets sign up; empty under the other policies. */
  signUpDomains: string[];
  /**
   * Every client of the org must push its authorization requests (RFC 9126): /oauth/authorize takes
   * only a `request_uri` of /oauth/par (domain/sign-in/authorize/pushed-requests.ts).
   */
  requirePushedRequests: boolean;
  /**
   * What the org signs its ID tokens, logout tokens, ID-JAGs and signed userinfo with (DESIGN §20);
   * its access tokens are RS256 whatever this says.
   */
  idTokenSigningAlg: SigningAlgorithm;
  /** The language of its pages and mails when nothing else decides it (domain/texts); null: English. */
  defaultLocale: Locale | null;
  /**
   * The verified custom domain the org's issuer lives on (DESIGN §21, domain/custom-domains/); null:
   * Tessera's own host for the org (domain/issuers.ts).
   */
  issuerDomain: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A host name an org's owners added (DESIGN §21), proven theirs by a DNS TXT record. */
export interface OrgDomain {
  id: string;
  orgId: string;
  /** Lower-case ASCII (IDNA A-labels), no trailing dot: `login.acme.com`. */
  name: string;
  /** The random value `_tessera-challenge.<name>` must hold. */
  token: string;
  verifiedAt: number | null;
  createdAt: number;
}

/** A host the org's issuer moved away from: it serves what verifies its tokens until `servesUntil`. */
export interface FormerIssuer {
  /** null: the org's host under Tessera. */
  domain: string | null;
  movedAt: number;
  servesUntil: number;
}

/** `open`: anyone; `invite_only`: invited people only; `domains`: addresses at the listed domains. */
export type SignUpPolicy = 'open' | 'invite_only' | 'domains';

/** The address claim (OIDC Core §5.1.1): each part optional, at least one given. */
export interface PostalAddress {
  formatted?: string;
  street_address?: string;
  locality?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

/**
 * The OIDC Core §5.1 claims a user may have beyond the names, email and picture (each null when
 * not given); domain/directory/standard-claims.ts holds their rules.
 */
export interface StandardClaims {
  middleName: string | null;
  nickname: string | null;
  preferredUsername: string | null;
  /** http(s) URL of the person's profile page. */
  profile: string | null;
  website: string | null;
  gender: string | null;
  /** `YYYY` or `YYYY-MM-DD` (`0000` for a year left out). */
  birthdate: string | null;
  /** An IANA time zone (`Europe/Paris`). */
  zoneinfo: string | null;
  /** A BCP 47 language tag (`fr-CA`). */
  locale: string | null;
  /** E.164 (`+14155550100`). */
  phoneNumber: string | null;
  /** An owner vouched for the number; false again when it changes. */
  phoneNumberVerified: boolean;
  address: PostalAddress | null;
}

/** A user with none of the standard claims (a new user, a user stored before migration 037). */
export const NO_STANDARD_CLAIMS: Readonly<StandardClaims> = Object.freeze({
  middleName: null,
  nickname: null,
  preferredUsername: null,
  profile: null,
  website: null,
  gender: null,
  birthdate: null,
  zoneinfo: null,
  locale: null,
  phoneNumber: null,
  phoneNumberVerified: false,
  address: null,
});

/** The standard claims' fields, in the order a user's audit snapshot holds them. */
export const STANDARD_CLAIM_KEYS = Object.keys(NO_STANDARD_CLAIMS) as readonly (keyof StandardClaims)[];

export interface User extends StandardClaims {
  id: string;
  orgId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  picture: string | null;
  provider: string;
  /** Disabled by an owner: password sign-in is refused. */
  disabled: boolean;
  /** A link mailed to the current address was followed (`email_verified` of ID tokens and userinfo). */
  emailVerified: boolean;
  createdAt: number;
  updatedAt: number;
}

export type Role = 'owner' | 'member';

export interface Tenant {
  id: string;
  orgId: string;
  name: string;
  logo: string | null;
  createdAt: number;
  updatedAt: number;
}

/** RFC 8628 §3.4: the device authorization grant's `grant_type`. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type GrantType =
  | 'authorization_code'
  | 'refresh_token'
  | 'client_credentials'
  | typeof DEVICE_CODE_GRANT;

export interface Client {
  id: string;
  orgId: string;
  name: string;
  kind: 'public' | 'confidential';
  redirectUris: string[];
  /** Where sign-out may send people back to (RP-Initiated Logout). */
  postLogoutRedirectUris: string[];
  grantTypes: GrantType[];
  firstParty: boolean;
  /**
   * Known by its Client ID Metadata Document (DESIGN §13): its id is the document's https URL, it
   * has no row in `clients` (domain/directory/client-metadata-documents.ts).
   */
  metadataDocument?: true;
  /** When the current secret was issued; null for a public client, which has none. */
  secretIssuedAt: number | null;
  /** Its public keys for `private_key_jwt` (RFC 7523), when it registered any. */
  jwks?: PublicKeySet;
  /** Or the https URL where it publishes them (never both): fetched under the metadata-document policy. */
  jwksUri?: string;
  /**
   * The one algorithm its request objects must use (`request_object_signing_alg`, OIDC Dynamic
   * Client Registration §2), `none` included; absent: any signed one (never `none`).
   */
  requestObjectSigningAlg?: string;
  /**
   * The browser origins (`scheme://host[:port]`) the token, revocation and userinfo endpoints
   * answer with CORS; null: the origins of `redirectUris` (domain/directory/allowed-origins.ts).
   */
  allowedOrigins: string[] | null;
  /** `RS256`: the userinfo endpoint answers it a JWT signed with the org's key; absent: JSON. */
  userinfoSignedResponseAlg?: 'RS256';
  /** OIDC Back-Channel Logout 1.0: where its logout tokens are POSTed, when it registered one. */
  backchannelLogout?: LogoutEndpoint;
  /** OIDC Front-Channel Logout 1.0: the page the logout page frames, when it registered one. */
  frontchannelLogout?: LogoutEndpoint;
  /** It must push its authorization requests (RFC 9126 `require_pushed_authorization_requests`); absent: no. */
  requirePushedRequests?: true;
  /** `dpop_bound_access_tokens` (RFC 9449 §5.2): every token request must carry a DPoP proof. */
  dpopBoundAccessTokens?: true;
  /** Its DPoP proofs must carry a nonce this service handed out (RFC 9449 §8). */
  dpopNonceRequired?: true;
  createdAt: number;
  updatedAt: number;
}

/** A client's logout URI (back- or front-channel) and whether it needs the session's `sid` (and `iss`). */
export interface LogoutEndpoint {
  uri: string;
  sessionRequired: boolean;
}

/**
 * A client a browser sign-in signed into, with the `sid` its ID tokens carry and its logout
 * endpoints as they are now (a metadata-document client's: as they were when it signed in).
 */
export interface SessionClient {
  sid: string;
  orgId: string;
  userId: string;
  clientId: string;
  backchannelLogout?: LogoutEndpoint;
  frontchannelLogout?: LogoutEndpoint;
}

/** A logout token on its way to a client's back-channel logout URI, as the delivery log shows it. */
export interface LogoutDelivery {
  id: string;
  orgId: string;
  clientId: string;
  url: string;
  /** The person signed out (`sub` of the token). */
  sub: string;
  /** The sign-in's `sid` for that client, when known. */
  sid: string | null;
  status: 'pending' | 'delivered' | 'failed';
  /** Attempts made so far. */
  attempts: number;
  /** Pending: when it is due next. */
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatusCode: number | null;
  /** Why the last attempt failed, safe to show: never a header, body or token. */
  lastError: string | null;
  createdAt: number;
}

/** A JSON Web Key Set of public keys (RFC 7517 §5), as a client registered it. */
export interface PublicKeySet {
  keys: Record<string, unknown>[];
}

/** Who caused a change: a user, a client, or the service itself (CLI, seed, worker). */
export type Actor = { kind: 'user'; id: string } | { kind: 'client'; id: string } | { kind: 'system' };

export const SYSTEM: Actor = Object.freeze({ kind: 'system' });

/**
 * A checked GET /oauth/authorize request, kept while the person signs in and consents; it
 * completes once (an authorization code, or the person declining).
 */
/** `query` (the default for `code`), `fragment` or `form_post`. */
export type ResponseMode = 'query' | 'fragment' | 'form_post';

export interface AuthorizationRequest {
  id: string;
  orgId: string;
  clientId: string;
  redirectUri: string;
  /** Whether the client sent redirect_uri; the token request must then repeat it (RFC 6749 §4.1.3). */
  redirectUriGiven: boolean;
  state: string | null;
  codeChallenge: string | null;
  /** Space-separated, as granted. */
  scope: string;
  /** The requested resource identifiers (RFC 8707), in request order, each once. */
  resources: string[];
  /**
   * The resource grant as the consent page showed it (DESIGN §15, decided once); null until then
   * (a request without a consent page decides it when its code is issued).
   */
  grant: ResourceGrant[] | null;
  /** OpenID Connect `nonce`, echoed in the ID token. */
  nonce: string | null;
  /** OIDC `prompt` values (`login`, `consent`, `select_account`; `none` never waits for a person). */
  prompt: string[];
  /** OIDC `max_age` in seconds: a sign-in older than this when the request was made must be repeated. */
  maxAge: number | null;
  /** OIDC `login_hint`: the email the login page starts with. */
  loginHint: string | null;
  /** OIDC `ui_locales`: the supported locales it named, preferred first (domain/texts/negotiation.ts). */
  uiLocales: Locale[];
  /** How the answer reaches the client (OAuth 2.0 Multiple Response Types, Form Post Response Mode). */
  responseMode: ResponseMode;
  /** The OIDC `claims` parameter (Core §5.5); null: none. */
  claims: ClaimsRequest | null;
  /**
   * RFC 9449 §10: the thumbprint of the DPoP key the code will be bound to (`dpop_jkt`, or a pushed
   * request's DPoP proof); null: not bound.
   */
  dpopJkt: string | null;
  createdAt: number;
  expiresAt: number;
  completedAt: number | null;
}

/**
 * A device authorization (RFC 8628): a device without a browser asked for tokens; the person enters
 * `userCode` on `{issuer}device`, signs in and allows or denies it; the device polls with its device
 * code (stored hashed, never here).
 */
export interface DeviceAuthorization {
  id: string;
  orgId: string;
  clientId: string;
  /** 8 letters of the user-code alphabet, without the dash. */
  userCode: string;
  scope: string;
  resources: string[];
  status: 'pending' | 'approved' | 'denied';
  userId: string | null;
  /** The OAuth session opened when it was allowed. */
  sessionId: string | null;
  /** Seconds the client must wait between polls (5, plus 5 per `slow_down`). */
  intervalS: number;
  lastPolledAt: number | null;
  createdAt: number;
  expiresAt: number;
  decidedAt: number | null;
  redeemedAt: number | null;
}

/** One scope of an API resource, with the words the consent page shows for it (DESIGN §15). */
export interface ResourceScope {
  name: string;
  description: string;
}

/** An org's API: an RFC 8707 resource indicator with its scopes (DESIGN §15). */
export interface ApiResource {
  id: string;
  orgId: string;
  identifier: string;
  name: string;
  scopes: ResourceScope[];
  /** Seconds an access token for this resource lives. */
  accessTokenTtl: number;
  createdAt: number;
  updatedAt: number;
}

/** One scope of one resource, the resource named by its identifier. */
export interface Permission {
  resource: string;
  scope: string;
}

/** A role of an org's end users, and the permissions it gives (DESIGN §15). */
export interface EndUserRole {
  id: string;
  orgId: string;
  name: string;
  description: string;
  permissions: Permission[];
  createdAt: number;
  updatedAt: number;
}

/** What an authorization granted for one resource: its identifier and scopes. */
export interface ResourceGrant {
  resource: string;
  scopes: string[];
}

/** Who an invitation makes the invitee: a user of the org, or a console member of it (DESIGN §16). */
export type InvitationKind = 'user' | 'member';

/** An invitation as stored (DESIGN §16): its link only as the token's SHA-256. */
export interface InvitationRecord {
  id: string;
  /** The org the invitee joins (a console member invitation: the org, not the console org). */
  orgId: string;
  kind: InvitationKind;
  email: string;
  emailKey: string;
  /** `member` invitations: the console role the invitee gets. */
  role: Role | null;
  /** `user` invitations: the org's end-user role ids (`rol_`) the invitee gets on accepting. */
  roles: string[];
  tokenHash: string;
  /** The link went out by mail (following it then proves the mailbox). */
  mailed: boolean;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
  acceptedBy: string | null;
  revokedAt: number | null;
}

/** An OIDC connection's upstream provider: its issuer, Tessera's client there, the scopes asked for. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  scopes: string[];
  /**
   * Google Workspace: the `hd` claim every ID token must carry (hosted-domain.ts); absent: not
   * checked. Stored with the other settings (connections saved before it have none).
   */
  hostedDomain?: string | null;
  /**
   * Hosts besides the issuer's origin that its discovery document may name as endpoints
   * (domain/federation/upstream-endpoints.ts); absent on connections stored before the setting.
   */
  allowedEndpointHosts?: string[];
  /**
   * The org takes Identity Assertion JWT Authorization Grants (ID-JAGs) this provider signs, at the
   * `jwt-bearer` grant (DESIGN §20, domain/enterprise-access/); absent: it does not.
   */
  acceptIdJag?: boolean;
}

/** What a SAML connection needs of its IdP: who it is, where to send people, what signs. */
export interface IdpSettings {
  entityId: string;
  ssoUrl: string;
  /** PEM bodies (base64 DER, no armour) of the IdP's signing certificates. */
  certificates: string[];
}

/** What every enterprise sign-in connection has (DESIGN §17), whatever its type. */
export interface ConnectionBase {
  id: string;
  orgId: string;
  name: string;
  /** Email domains, lower case: an address in one of them signs in here. */
  domains: string[];
  /** Create the user on their first sign-in. */
  jit: boolean;
  /**
   * JIT may create users at addresses outside `domains` too, never in a domain another
   * connection claims (jit-domains.ts). False unless an owner says so.
   */
  jitAnyDomain: boolean;
  /** End-user role ids of the org given to a user created on first sign-in. */
  defaultRoles: string[];
  createdAt: number;
  updatedAt: number;
}

/**
 * An org's enterprise sign-in connection (DESIGN §17): an upstream OIDC provider or SAML IdP. The
 * OIDC client secret is not part of it: it is stored sealed beside it.
 */
export type Connection =
  | (ConnectionBase & { type: 'oidc'; oidc: OidcSettings })
  | (ConnectionBase & { type: 'saml'; saml: IdpSettings });

/** What a mailed one-time link is for: a password reset, or proving an address. */
export type MailPurpose = 'reset' | 'verify';

/** A mailed one-time link as stored: its token as a SHA-256 only. */
export interface MailLinkRecord {
  tokenHash: string;
  orgId: string;
  userId: string;
  purpose: MailPurpose;
  /** The address the link was mailed to: it works only while the user's address is still this one. */
  sentTo: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** An authorization code as stored: the code as a SHA-256 only, single use. */
export interface AuthorizationCode {
  codeHash: string;
  orgId: string;
  clientId: string;
  /** The OAuth session the code opened: revoked if the code is presented twice. */
  sessionId: string;
  redirectUri: string;
  /** The authorization request carried redirect_uri: the token request must repeat it (RFC 6749 §4.1.3). */
  redirectUriGiven: boolean;
  codeChallenge: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  /** The authorization request's `nonce`, for the ID token. */
  nonce: string | null;
  /** RFC 9449 §10: only a token request proving this key (its thumbprint) redeems the code; null: any. */
  dpopJkt: string | null;
}

/** A user's WebAuthn credential as stored (DESIGN §12): its public key, never a secret. */
export interface PasskeyCredential {
  id: string;
  orgId: string;
  userId: string;
  /** The credential id, base64url, as the authenticator made it; unique within the org. */
  credentialId: string;
  /** The COSE public key, base64url: all that is kept of the key. */
  publicKey: string;
  signCount: number;
  /** The transports the browser reported (`internal`, `hybrid`, `usb`, …). */
  transports: string[];
  aaguid: string;
  /** Synced between devices (`multiDevice`) or bound to one. */
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** What a WebAuthn ceremony is for. */
export type PasskeyPurpose = 'register' | 'sign_in';

/** A WebAuthn ceremony in progress: single use, short lived, bound to one browser; hashes only. */
export interface PasskeyChallenge {
  challengeHash: string;
  orgId: string;
  purpose: PasskeyPurpose;
  /** Registration only: the user adding a passkey. */
  userId: string | null;
  /** SHA-256 of the browser's CSRF cookie value. */
  browserHash: string;
  createdAt: number;
  expiresAt: number;
}

/** An audit entry as stored: its time in epoch ms, its snapshots as objects (domain/audit-entry.ts shapes it for the API). */
export interface AuditRecord {
  id: string;
  orgId: string;
  /** `entity.verb`. */
  key: string;
  entity: string;
  verb: string;
  at: number;
  actor: Actor;
  data: Record<string, unknown>;
  /** Updates only: the state before, and the fields that changed. */
  previous: Record<string, unknown> | null;
  changes: Record<string, unknown> | null;
}

/** Where an audit-log stream sends (DESIGN §19): generic HTTPS, Splunk HEC, Datadog's logs intake. */
export type LogStreamType = 'https' | 'splunk_hec' | 'datadog';

/** A log stream's settings of its own type (each optional; defaults in domain/log-streams/). */
export interface LogStreamSettings {
  /** splunk_hec: the index; absent, the token's default index. */
  index?: string;
  /** splunk_hec: `source` (default `tessera`). */
  source?: string;
  /** splunk_hec: `sourcetype` (default `tessera:audit`). */
  sourcetype?: string;
  /** datadog: `service` (default `tessera`). */
  service?: string;
  /** datadog: `ddsource` (default `tessera`). */
  ddsource?: string;
  /** datadog: `ddtags`, comma-separated `key:value` tags. */
  ddtags?: string;
  /** datadog: send gzip-compressed bodies (`Content-Encoding: gzip`). */
  gzip?: boolean;
}

/** A position in an org's audit entries as streams read them: `(txOrder, id)`. */
export interface StreamCursor {
  order: number;
  id: string;
}

/** An org's audit-log stream as its owners see it; its secret is stored sealed, read by the stream worker only. */
export interface LogStream {
  id: string;
  orgId: string;
  name: string;
  type: LogStreamType;
  /** https: the endpoint; splunk_hec: the HEC base URL; datadog: the intake's origin. */
  url: string;
  settings: LogStreamSettings;
  active: boolean;
  /** Entries at or after this time (epoch ms) are streamed. */
  backfillFrom: number;
  /** The last entry the destination accepted; null before the first. */
  cursor: StreamCursor | null;
  /** Failed attempts since the last success. */
  failures: number;
  lastError: string | null;
  lastErrorAt: number | null;
  lastSentAt: number | null;
  sentEntries: number;
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
}

/** A log stream a worker holds until `leaseUntil`, with its sealed secret. */
export interface ClaimedLogStream extends LogStream {
  sealedSecret: string;
}

/** An audit entry as a stream reads it: with its place in the streams' order. */
/**
 * An audit entry as a log stream reads it: its JSON fields as the stored text (what `JSON.stringify`
 * wrote), which a stream sends as it is, and its place in the streams' order.
 */
export interface StreamEntry extends Omit<AuditRecord, 'orgId' | 'data' | 'previous' | 'changes'> {
  dataJson: string;
  previousJson: string | null;
  changesJson: string | null;
  txOrder: number;
}

/** A webhook as its org sees it; its signing secret is stored sealed and read by the delivery worker only. */
export interface Webhook {
  id: string;
  orgId: string;
  url: string;
  /** Routing-key patterns (domain/webhooks/routing-keys.ts). */
  events: string[];
  active: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A webhook as the delivery worker needs it: with its signing secret, sealed. */
export interface DeliveryTarget extends Webhook {
  sealedSecret: string;
}

/** Where a delivery stands: due (`pending`), or done one of three ways. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

/** One audited event queued for one webhook (the outbox), and where its delivery stands. */
export interface WebhookDelivery {
  id: string;
  orgId: string;
  webhookId: string;
  /** The audit event id, sent as `webhook-id` on every attempt. */
  eventId: string;
  eventKey: string;
  /** The JSON body, signed and sent byte for byte on every attempt. */
  body: string;
  status: DeliveryStatus;
  /** Failed attempts of the current series. */
  attempts: number;
  /** Pending: when due; while claimed: the end of the lease. */
  nextAttemptAt: number | null;
  /** The claim of the worker sending it, while one is. */
  claimToken: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A delivery a worker claimed: what it signs and sends. */
export type ClaimedDelivery = Pick<WebhookDelivery, 'id' | 'webhookId' | 'eventId' | 'body' | 'attempts'>;

/** One attempt at a delivery, for the delivery log. */
export interface DeliveryAttempt {
  id: string;
  deliveryId: string;
  attemptedAt: number;
  /** The receiver's HTTP status; null when none came (refused, timed out). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/**
 * An OAuth session: one person signed in to one client, the `sid` of its access tokens. Every
 * refresh token belongs to one; revoking it ends them all. (The login cookie of the hosted pages
 * is a separate thing: a browser session.)
 */
export interface OAuthSession {
  id: string;
  orgId: string;
  userId: string;
  clientId: string;
  tenantId: string | null;
  amr: string[];
  acr: string;
  scope: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** An impersonated session: the acting owner's console user id (`act.sub` of its tokens). */
  actorId: string | null;
  /** When the person signed in (`auth_time` of its ID tokens). */
  authTime: number;
  /** The resources its authorization granted, with their scopes, in request order (DESIGN §15). */
  resources: ResourceGrant[];
  /** The authorization request's OIDC `claims` parameter (userinfo and refreshed ID tokens answer it). */
  claims: ClaimsRequest | null;
  /**
   * The `sid` of its ID tokens when it was opened from a browser sign-in: the one that sign-in gave
   * its client (OIDC Back-/Front-Channel Logout); absent: its ID tokens carry its id.
   */
  sid?: string;
}

/** One entry of the OIDC `claims` parameter (Core §5.5.1): null asks for the claim plainly. */
export interface ClaimRequest {
  essential?: boolean;
  value?: unknown;
  values?: unknown[];
}

/** The OIDC `claims` parameter (Core §5.5), as checked: what each of the two targets asks for. */
export interface ClaimsRequest {
  userinfo?: Record<string, ClaimRequest | null>;
  id_token?: Record<string, ClaimRequest | null>;
}

/** A refresh token as stored: the token as a SHA-256 only, single use (rotated on each refresh). */
export interface RefreshToken {
  tokenHash: string;
  sessionId: string;
  clientId: string;
  createdAt: number;
  expiresAt: number;
  /** Set when rotated (or superseded): presenting it again revokes the session (after the reuse grace). */
  usedAt: number | null;
  /** SHA-256 of the token a refresh issued in its place (not set when superseded by a switch). */
  rotatedTo: string | null;
  /**
   * Set when it was retired unused: its predecessor, presented again within the reuse grace by the
   * same client, was given another successor (the answer carrying this one never arrived).
   */
  retiredAt: number | null;
  /** The thumbprint (RFC 7638) of the DPoP key a public client's token is bound to (RFC 9449 §5); null: none. */
  dpopJkt: string | null;
}

/** A service account's binding: the org its client acts in and the scope it holds (its client is a `Client`). */
export interface ServiceAccountBinding {
  clientId: string;
  orgId: string;
  scope: string;
  createdAt: number;
}

/** What the client_credentials grant reads about a client: the client, its secret hash, its org's active key id. */
export interface MachineClient {
  client: Client;
  secretHash: string | null;
  activeKid: string | null;
}

/** A browser sign-in (the hosted pages' login cookie) as stored: the cookie secret as a SHA-256 only. */
export interface BrowserSessionRecord {
  tokenHash: string;
  orgId: string;
  userId: string;
  /** RFC 8176 method names. */
  amr: string[];
  acr: string;
  createdAt: number;
  expiresAt: number;
  /** An impersonated sign-in: the acting owner's console user id. */
  actorId: string | null;
}

/** What a person granted a client (space-separated scopes, the union of every grant). */
export interface Consent {
  orgId: string;
  userId: string;
  clientId: string;
  scope: string;
  createdAt: number;
  updatedAt: number;
}

/** A user's TOTP second factor as stored: its shared secret sealed (the domain seals and opens it). */
export interface TotpFactor {
  userId: string;
  orgId: string;
  sealedSecret: string;
  confirmedAt: number | null;
  /** The last time step a code was accepted for: codes of that step or earlier are refused. */
  lastStep: number | null;
  createdAt: number;
}

/** `next`: published, not yet signing; `active`: signs; `retired`: published until it expires. */
export type KeyStatus = 'next' | 'active' | 'retired';

/** An org's signing key as stored: its private key sealed (the domain opens it), its public JWK. */
export interface SigningKey {
  kid: string;
  orgId: string;
  status: KeyStatus;
  publicJwk: Record<string, unknown>;
  sealedPrivateKey: string;
  createdAt: number;
  /** Retired keys: when they stop being published. */
  expiresAt: number | null;
  /** What it signs with: access tokens always RS256, the rest the org's `idTokenSigningAlg`. */
  alg: SigningAlgorithm;
}

/**
 * The algorithms an org's tokens may be signed with (DESIGN §20): access tokens always RS256 (the
 * spec's verifier takes nothing else); ID tokens, logout tokens, ID-JAGs and signed userinfo the
 * org's choice of these.
 */
export const SIGNING_ALGORITHMS = ['RS256', 'ES256', 'PS256'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

/** A sign-in sent to an upstream of a connection, waiting for its answer: keyed by a SHA-256, its data sealed. */
export interface FederationRequest {
  /**
   * SHA-256 of the OIDC state, of the SAML request id, or of `answer:` and the one-time id of a
   * verified SAML answer waiting for the browser that started the sign-in.
   */
  keyHash: string;
  connectionId: string;
  /** The authorization request to go on with, if any. */
  requestId: string | null;
  /** Sealed JSON (the domain seals and opens it). */
  sealedData: string;
  createdAt: number;
  expiresAt: number;
}

/** A single-use key opening the hosted profile page (POST /profile/session), stored as its SHA-256. */
export interface ProfileKey {
  keyHash: string;
  orgId: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/**
 * A pushed authorization request (RFC 9126), stored as the SHA-256 of its `request_uri`'s random
 * part: the checked parameters, used once within 60 seconds by the client that pushed them.
 */
export interface PushedAuthorizationRequest {
  keyHash: string;
  orgId: string;
  clientId: string;
  /** The authorization request's parameters (a request object's values merged in), each once. */
  params: Record<string, string>;
  /** Every `resource` value, in order (RFC 8707). */
  resources: string[];
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** An owner's impersonation link (docs/delegation.md), stored as its key's SHA-256: single use. */
export interface ImpersonationLink {
  keyHash: string;
  id: string;
  orgId: string;
  userId: string;
  /** The owner (console user) who acts. */
  actorId: string;
  /** The authorization request the link completes. */
  requestId: string;
  reason: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** An org's SCIM directory (DESIGN §19): its token is stored as a hash only. */
export interface ScimDirectory {
  id: string;
  orgId: string;
  name: string;
  /** The connection whose domains the directory may create users in, and whose sign-in links them. */
  connectionId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What a directory keeps of a user it holds: the SCIM resource as last set, and its version (the ETag). */
export interface ScimUserRecord {
  userId: string;
  directoryId: string;
  userName: string;
  externalId: string | null;
  /** The SCIM attributes as stored (core and enterprise extension; never id, meta or a password). */
  resource: Record<string, unknown>;
  version: number;
  createdAt: number;
  updatedAt: number;
}

/** A directory's group (DESIGN §19). */
export interface ScimGroup {
  id: string;
  directoryId: string;
  displayName: string;
  externalId: string | null;
  version: number;
  createdAt: number;
  updatedAt: number;
}

/**
 * A target application the org, as an enterprise identity provider, issues ID-JAGs for (DESIGN §20):
 * the authorization server `audience` (its issuer), the client id it knows the asking clients by,
 * which of the org's clients may ask, and the resources and scopes they may ask for.
 */
export interface TrustedApp {
  id: string;
  orgId: string;
  name: string;
  audience: string;
  targetClientId: string;
  clientIds: string[];
  resources: string[];
  scopes: string[];
  createdAt: number;
  updatedAt: number;
}

/** An image of a brand as stored (domain/branding/images.ts): named by its SHA-256, per org. */
export interface BrandImage {
  sha256: string;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

/**
 * An org's brand, or one client's (DESIGN §21, domain/branding/): each field null when not set. A
 * client's set fields win over its org's, field by field, on the pages reached for that client.
 */
export interface Branding {
  displayName: string | null;
  logo: BrandImage | null;
  favicon: BrandImage | null;
  /** `#rrggbb`, checked for contrast (domain/branding/colours.ts). */
  primary: string | null;
  background: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
}
