import { isLoopbackHost } from '../loopback.js';

/** What an identifier may be, in the words every refusal uses. */
export const IDENTIFIER_RULE =
  'must be an absolute https URI without a fragment (http only on a loopback host)';

/**
 * Whether `value` may identify an API resource (RFC 8707 §2, DESIGN §15): an absolute https URI
 * without a fragment; http only on loopback (127.0.0.0/8, ::1, localhost, *.localhost). At most
 * 2000 characters. Returns what is wrong, or null.
 */
export function resourceIdentifierProblem(value: string): string | null {
  if (value.length > 2000) return 'must be at most 2000 characters';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return IDENTIFIER_RULE;
  }
  if (value.includes('#') || /\s/.test(value)) return IDENTIFIER_RULE;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return null;
  return IDENTIFIER_RULE;
}
