/** The service's resources as the domain sees them (camelCase, no storage concerns). */

export interface Org {
  id: string;
  slug: string;
  name: string;
  isConsole: boolean;
  allowSignup: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface User {
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

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';

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
  createdAt: number;
  updatedAt: number;
}

/** Who caused a change: a user, a client, or the service itself (CLI, seed, worker). */
export type Actor = { kind: 'user'; id: string } | { kind: 'client'; id: string } | { kind: 'system' };

export const SYSTEM: Actor = Object.freeze({ kind: 'system' });

/**
 * A checked GET /oauth/authorize request, kept while the person signs in and consents; it
 * completes once (an authorization code, or the person declining).
 */
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
  resource: string | null;
  /** OpenID Connect `nonce`, echoed in the ID token. */
  nonce: string | null;
  createdAt: number;
  expiresAt: number;
  completedAt: number | null;
}
