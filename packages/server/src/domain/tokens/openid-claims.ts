import type { User } from '../types.js';

/** The scope that makes an authorization request an OpenID Connect one (ID token, userinfo). */
export const OPENID_SCOPE = 'openid';

/** A stored scope string (space-separated) as a list. */
export const scopesOf = (scope: string): string[] => scope.split(' ').filter((s) => s !== '');

const present = (claims: Record<string, string | null>) =>
  Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== null && value !== ''));

const fullName = (u: User) => [u.firstName, u.lastName].filter((n) => n).join(' ') || null;

/**
 * What each scope releases about the person (OIDC Core §5.4), from the stored user. A claim
 * without a value is left out rather than sent as null (§5.3.2). `email_verified` is the stored
 * value: true once a link mailed to the current address was followed (domain/mail/), false again
 * after an address change.
 */
const SCOPE_CLAIMS: Readonly<Record<string, (u: User) => Record<string, unknown>>> = {
  email: (u) => ({ email: u.email, email_verified: u.emailVerified }),
  profile: (u) =>
    present({ name: fullName(u), given_name: u.firstName, family_name: u.lastName, picture: u.picture }),
};

/** The claims the granted scopes permit, for the ID token and the userinfo endpoint alike. */
export function scopedClaims(user: User, scopes: readonly string[]): Record<string, unknown> {
  const released = scopes.filter((s) => Object.hasOwn(SCOPE_CLAIMS, s));
  return Object.assign({}, ...released.map((s) => SCOPE_CLAIMS[s]?.(user)));
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
  'email',
  'email_verified',
  'name',
  'given_name',
  'family_name',
  'picture',
]);
