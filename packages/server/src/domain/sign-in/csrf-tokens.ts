import { randomBytes } from 'node:crypto';
import { constantTimeEqual, hmac } from '../../crypto/derived-keys.js';

/**
 * The CSRF token rule of the hosted pages' forms: a double-submit cookie holds a random value, and
 * the form carries an HMAC (under the pages' CSRF key, derived from TESSERA_SECRET) of the form's
 * name, that value and what the form acts on (the authorization request, the browser session, the
 * profile's user). A token cannot be forged without the key, nor replayed on another form, another
 * cookie or another binding.
 */

/** A new value for the double-submit cookie: 32 random bytes, base64url. */
export function newCsrfCookieValue(): string {
  return randomBytes(32).toString('base64url');
}

/** The token of `form` for this cookie value and binding. */
export function mintCsrfToken(
  key: Buffer,
  form: string,
  cookieValue: string,
  binding: readonly string[],
): string {
  return hmac(key, ['csrf', form, cookieValue, ...binding]);
}

/** True when `submitted` was minted for this form, cookie value and binding; compared in constant time. */
export function verifyCsrfToken(
  key: Buffer,
  form: string,
  cookieValue: string,
  binding: readonly string[],
  submitted: string,
): boolean {
  if (cookieValue === '' || submitted === '') return false;
  return constantTimeEqual(mintCsrfToken(key, form, cookieValue, binding), submitted);
}
