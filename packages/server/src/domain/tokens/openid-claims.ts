import type { ClaimRequest, User } from '../types.js';

/** The scope that makes an authorization request an OpenID Connect one (ID token, userinfo). */
export const OPENID_SCOPE = 'openid';

/** A stored scope string (space-separated) as a list. */
export const scopesOf = (scope: string): string[] => scope.split(' ').filter((s) => s !== '');

const fullName = (u: User) =>
  [u.firstName, u.middleName, u.lastName].filter((n) => n !== null && n !== '').join(' ') || null;

/**
 * Every claim about the person Tessera can release (OIDC Core §5.1), read from the stored user;
 * null: the user has none. `email_verified` is the stored value (a link mailed to the current
 * address was followed); `phone_number_verified` an owner's word, sent only beside a number;
 * `updated_at` is seconds, like every §5.1 time.
 */
const USER_CLAIMS: Readonly<Record<string, (u: User) => unknown>> = {
  name: fullName,
  given_name: (u) => u.firstName,
  family_name: (u) => u.lastName,
  middle_name: (u) => u.middleName,
  nickname: (u) => u.nickname,
  preferred_username: (u) => u.preferredUsername,
  profile: (u) => u.profile,
  picture: (u) => u.picture,
  website: (u) => u.website,
  gender: (u) => u.gender,
  birthdate: (u) => u.birthdate,
  zoneinfo: (u) => u.zoneinfo,
  locale: (u) => u.locale,
  updated_at: (u) => Math.floor(u.updatedAt / 1000),
  email: (u) => u.email,
  email_verified: (u) => u.emailVerified,
  address: (u) => u.address,
  phone_number: (u) => u.phoneNumber,
  phone_number_verified: (u) => (u.phoneNumber === null ? null : u.phoneNumberVerified),
};

/** What each scope releases (OIDC Core §5.4). */
export const SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: [
    'name',
    'family_name',
    'given_name',
    'middle_name',
    'nickname',
    'preferred_username',
    'profile',
    'picture',
    'website',
    'gender',
    'birthdate',
    'zoneinfo',
    'locale',
    'updated_at',
  ],
  email: ['email', 'email_verified'],
  address: ['address'],
  phone: ['phone_number', 'phone_number_verified'],
};

/** The claims named, with the user's values; a claim without a value is left out rather than sent as null (§5.3.2). */
function valuesOf(user: User, names: Iterable<string>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const name of names) {
    const value = Object.hasOwn(USER_CLAIMS, name) ? USER_CLAIMS[name]?.(user) : null;
    if (value !== null && value !== undefined && value !== '') claims[name] = value;
  }
  return claims;
}

/**
 * What an ID token or the userinfo endpoint tells about the person: the claims the granted scopes
 * release, and those the `claims` parameter (§5.5) asked of this target by name. A requested claim
 * the user has no value for is left out, essential or not (§5.5.1: essential shapes the person's
 * experience, not the answer); a `value` or `values` is a wish, answered with the stored value.
 * What the parameter asks beyond the scopes was shown on the consent page (claimScopes).
 */
export function releasedClaims(
  user: User,
  scopes: readonly string[],
  requested: Readonly<Record<string, ClaimRequest | null>> = {},
): Record<string, unknown> {
  const names = new Set(scopes.flatMap((s) => SCOPE_CLAIMS[s] ?? []));
  for (const name of Object.keys(requested)) names.add(name);
  return valuesOf(user, names);
}

/** The identity scopes whose claims `requested` names (the consent page describes them). */
export function claimScopes(requested: readonly string[]): string[] {
  return Object.keys(SCOPE_CLAIMS).filter((scope) => SCOPE_CLAIMS[scope]?.some((c) => requested.includes(c)));
}

/** Discovery's `claims_supported`: what an ID token or the userinfo endpoint can hold. */
export const CLAIMS_SUPPORTED: readonly string[] = Object.freeze([
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'sid',
  'amr',
  'acr',
  'at_hash',
  ...Object.keys(USER_CLAIMS),
]);
