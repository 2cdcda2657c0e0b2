/**
 * The spec's "Client SDK record shapes", and how each is read from a server answer. Results carry
 * exactly these fields: anything else the server adds is dropped, so callers code against the contract.
 */

/**
 * What a token request yields (camelCase of RFC 6749 §5.1). Keep the newest `refreshToken`: refresh
 * tokens rotate on every use, and presenting an old one ends the session.
 *
 * @example
 * ```ts
 * const tokens: TokenSet = { accessToken: 'eyJ…', tokenType: 'Bearer', expiresIn: 900, refreshToken: 'rt…' };
 * ```
 */
export interface TokenSet {
  accessToken: string;
  tokenType: string;
  /** Seconds until `accessToken` expires; absent when the server did not say. */
  expiresIn?: number;
  /** Absent on client-credentials tokens. */
  refreshToken?: string;
}

/**
 * The signed-in user, as `users.me` returns it.
 *
 * @example
 * ```ts
 * const user: User = { email: 'ada@example.com', firstName: 'Ada', lastName: null, picture: null, provider: 'password' };
 * ```
 */
export interface User {
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** URL of the user's picture. */
  picture: string | null;
  /** How the user signs in, such as `password`. */
  provider: string;
}

/**
 * A tenant the user belongs to, with the user's role in it.
 *
 * @example
 * ```ts
 * const tenant: Tenant = { id: 'tnt_8f2k', name: 'Acme EU', role: 'owner', logo: null };
 * ```
 */
export interface Tenant {
  id: string;
  name: string;
  role: 'owner' | 'member' | (string & {});
  /** URL of the tenant's logo. */
  logo: string | null;
}

/**
 * An org the console user is a member of, with their role in it.
 *
 * @example
 * ```ts
 * const org: Organization = { id: 'org_3d9a', slug: 'acme', role: 'owner' };
 * ```
 */
export interface Organization {
  id: string;
  slug: string;
  role: 'owner' | 'member' | (string & {});
}

/**
 * A short-lived key that opens the hosted profile page for the user.
 *
 * @example
 * ```ts
 * const session: ProfileSession = { key: 'pk_…' };
 * ```
 */
export interface ProfileSession {
  key: string;
}

type Fields = Record<string, unknown>;

function fieldsOf(json: unknown): Fields | null {
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Fields) : null;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
/** A nullable text field: absent and `null` both read as `null`; anything else but a string is malformed. */
const nullableText = (value: unknown): string | null | undefined =>
  value === undefined || value === null ? null : typeof value === 'string' ? value : undefined;

/**
 * Reads an RFC 6749 §5.1 token response into a {@link TokenSet}, or `null` when it is not one.
 *
 * @example
 * ```ts
 * parseTokenSet({ access_token: 'eyJ…', token_type: 'Bearer', expires_in: 900 });
 * ```
 */
export function parseTokenSet(json: unknown): TokenSet | null {
  const f = fieldsOf(json);
  if (f === null || !isText(f.access_token) || !isText(f.token_type)) return null;
  const set: TokenSet = { accessToken: f.access_token, tokenType: f.token_type };
  if (f.expires_in !== undefined) {
    if (typeof f.expires_in !== 'number' || !Number.isFinite(f.expires_in)) return null;
    set.expiresIn = f.expires_in;
  }
  if (f.refresh_token !== undefined) {
    if (!isText(f.refresh_token)) return null;
    set.refreshToken = f.refresh_token;
  }
  return set;
}

/**
 * Reads a {@link User}, or `null`.
 *
 * @example
 * ```ts
 * parseUser({ email: 'ada@example.com', firstName: 'Ada', lastName: null, picture: null, provider: 'password' });
 * ```
 */
export function parseUser(json: unknown): User | null {
  const f = fieldsOf(json);
  if (f === null || !isText(f.email) || !isText(f.provider)) return null;
  const firstName = nullableText(f.firstName);
  const lastName = nullableText(f.lastName);
  const picture = nullableText(f.picture);
  if (firstName === undefined || lastName === undefined || picture === undefined) return null;
  return { email: f.email, firstName, lastName, picture, provider: f.provider };
}

/**
 * Reads a {@link Tenant}, or `null`.
 *
 * @example
 * ```ts
 * parseTenant({ id: 'tnt_8f2k', name: 'Acme EU', role: 'owner', logo: null });
 * ```
 */
export function parseTenant(json: unknown): Tenant | null {
  const f = fieldsOf(json);
  if (f === null || !isText(f.id) || typeof f.name !== 'string' || !isText(f.role)) return null;
  const logo = nullableText(f.logo);
  if (logo === undefined) return null;
  return { id: f.id, name: f.name, role: f.role, logo };
}

/**
 * Reads a JSON array of tenants, or `null` when it or any entry is malformed.
 *
 * @example
 * ```ts
 * parseTenants([{ id: 'tnt_8f2k', name: 'Acme EU', role: 'owner', logo: null }]);
 * ```
 */
export function parseTenants(json: unknown): Tenant[] | null {
  if (!Array.isArray(json)) return null;
  const tenants = json.map(parseTenant);
  return tenants.every((t): t is Tenant => t !== null) ? tenants : null;
}

/**
 * Reads an {@link Organization}, or `null`.
 *
 * @example
 * ```ts
 * parseOrganization({ id: 'org_3d9a', slug: 'acme', role: 'owner' });
 * ```
 */
export function parseOrganization(json: unknown): Organization | null {
  const f = fieldsOf(json);
  if (f === null || !isText(f.id) || !isText(f.slug) || !isText(f.role)) return null;
  return { id: f.id, slug: f.slug, role: f.role };
}

/**
 * Reads a {@link ProfileSession}, or `null`.
 *
 * @example
 * ```ts
 * parseProfileSession({ key: 'pk_…' });
 * ```
 */
export function parseProfileSession(json: unknown): ProfileSession | null {
  const f = fieldsOf(json);
  return f !== null && isText(f.key) ? { key: f.key } : null;
}
