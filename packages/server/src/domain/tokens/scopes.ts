import { fail } from '../errors.js';

/** The scopes this service understands, with the words the consent page shows for each. */
export const SCOPES: Readonly<Record<string, string>> = {
  openid: 'Know who you are',
  profile: 'See your name and picture',
  email: 'See your email address',
  offline_access: 'Stay signed in when you are away',
};

/** A `scope` parameter as a list; an unknown scope is `invalid_scope` (RFC 6749 §3.3). */
export function parseScope(scope: string | undefined): string[] {
  if (scope === undefined) return [];
  const scopes = [...new Set(scope.split(' ').filter((s) => s !== ''))];
  for (const s of scopes) {
    if (!Object.hasOwn(SCOPES, s)) fail('invalid_scope', 'a requested scope is not supported');
  }
  return scopes;
}
