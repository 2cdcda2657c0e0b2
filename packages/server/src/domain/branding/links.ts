import { isHttpsOrLoopbackHttp } from '../directory/redirect-uris.js';
import { fail } from '../errors.js';

/** Longest terms or privacy address an org may set. */
export const MAX_LINK_LENGTH = 2000;

/**
 * A terms or privacy link for `field`: an absolute https URL, or http on localhost, 127.0.0.1 or
 * [::1] (as redirect URIs and tenant logos), without credentials, at most 2,000 characters. So
 * `javascript:`, `data:` and every other scheme are refused, and the page's `href` is a web page.
 */
export function brandLink(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail('branding.link.invalid', `${field}: must be an absolute https URL`);
  }
  if (value.length > MAX_LINK_LENGTH)
    fail('branding.link.invalid', `${field}: at most ${MAX_LINK_LENGTH} characters`);
  if (!isHttpsOrLoopbackHttp(url))
    fail('branding.link.invalid', `${field}: must be https, or http on localhost, 127.0.0.1 or [::1]`);
  if (url.username !== '' || url.password !== '')
    fail('branding.link.invalid', `${field}: must not carry credentials`);
  return url.href;
}
