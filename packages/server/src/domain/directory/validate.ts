import { fail } from '../errors.js';
import { redirectUriProblem } from './redirect-uris.js';

/** Rules for values that come from people: one place, one message each. */

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const RESERVED_SLUGS = new Set(['www', 'api', 'admin', 'auth', 'login', 'static', 'assets']);
const EMAIL = /^[^\s@"<>()[\],;:\\]+@[^\s@"<>()[\],;:\\]+\.[a-z0-9-]{2,}$/i;

export function checkSlug(slug: string): string {
  if (!SLUG.test(slug)) {
    fail('input.slug.invalid', 'slug must be 1-40 lowercase letters, digits or inner hyphens');
  }
  if (RESERVED_SLUGS.has(slug) || slug === 'console')
    fail('input.slug.reserved', `slug "${slug}" is reserved`);
  return slug;
}

/**
 * Whether lower-casing `email` turns one of its non-ASCII characters into ASCII (U+212A KELVIN SIGN
 * into `k`, the only such character): an account's unique key is its address in lower case
 * (`emailKey`), so `ni\u212A@acme.test`, another mailbox, would hold `nik@acme.test`'s place, or be
 * found as its account.
 */
export function foldsOntoAscii(email: string): boolean {
  const ascii = (text: string) => [...text].every((ch) => (ch.codePointAt(0) ?? 0) < 0x80);
  return [...email].some((ch) => !ascii(ch) && ascii(ch.toLowerCase()));
}

export function checkEmail(email: string): string {
  const value = email.trim();
  if (value.length > 254 || !EMAIL.test(value) || foldsOntoAscii(value))
    fail('input.email.invalid', 'email is not a valid address');
  return value;
}

/** How long a password may be, in characters. */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;

export function checkPassword(password: string): string {
  if (password.length < PASSWORD_LENGTH.min)
    fail('input.password.too_short', `password must be at least ${PASSWORD_LENGTH.min} characters`);
  if (password.length > PASSWORD_LENGTH.max)
    fail('input.password.too_long', `password must be at most ${PASSWORD_LENGTH.max} characters`);
  return password;
}

export function checkName(field: string, value: string, max = 200): string {
  const v = value.trim();
  if (v.length === 0 || v.length > max) fail('input.name.length', `${field} must be 1-${max} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(v))
    fail('input.name.control_characters', `${field} must not contain control characters`);
  return v;
}

/**
 * A redirect URI given to `tessera client create`: registration's one rule (redirectUriProblem),
 * refused in the CLI's `invalid_body` words.
 */
export function checkRedirectUri(uri: string): string {
  const problem = redirectUriProblem(uri);
  if (problem === null) return uri;
  switch (problem.kind) {
    case 'not_absolute':
      return fail('client.redirect_uri.not_absolute', `redirect URI "${uri}" is not an absolute URL`);
    case 'http_not_loopback':
      return fail('client.redirect_uri.http_not_loopback', 'http redirect URIs are allowed on loopback only');
    case 'scheme':
      return fail('client.redirect_uri.scheme', 'redirect URI scheme refused');
    default:
      return fail('client.redirect_uri.invalid', `a redirect URI ${problem.rule}`);
  }
}
