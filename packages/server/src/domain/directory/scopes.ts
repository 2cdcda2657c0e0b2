import { fail } from '../errors.js';
import type { Client, Org } from '../types.js';
import {
  DEFAULT_CONSOLE_SCOPE,
  FIRST_PARTY_ONLY_SCOPE,
  isManagementScope,
  MANAGEMENT_SCOPES,
  scopeList,
} from './console-scopes.js';

/** The identity scopes any client may ask for, with the words the consent page shows for each. */
export const IDENTITY_SCOPES: Readonly<Record<string, string>> = {
  openid: 'Know who you are',
  profile: 'See your name, picture and other profile details',
  email: 'See your email address',
  address: 'See your postal address',
  phone: 'See your phone number',
  offline_access: 'Stay signed in when you are away',
};

/** Every scope this service understands, with its consent words. */
export const SCOPES: Readonly<Record<string, string>> = { ...IDENTITY_SCOPES, ...MANAGEMENT_SCOPES };

/**
 * A `scope` parameter as a list; an unknown scope is `invalid_scope` (RFC 6749 §3.3), and so is a
 * management scope asked of an org's issuer (they exist on the console only).
 */
export function parseScope(scope: string | undefined, org?: Org): string[] {
  if (scope === undefined) return [];
  const scopes = scopeList(scope);
  for (const s of scopes) {
    if (!Object.hasOwn(SCOPES, s)) fail('scope.unsupported', 'a requested scope is not supported');
    if (isManagementScope(s) && org !== undefined && !org.isConsole) {
      fail('scope.console_only', `${s} is a console scope; it is not granted on an organization's issuer`);
    }
  }
  return scopes;
}

/**
 * The scope an authorization request is granted: an absent `scope` on the console is the default
 * console scope; `users:impersonate` is dropped for a client that is not first party (registered
 * through /oauth/register or by a metadata document), so its token response names what it got.
 * `resourceScopes` are the scopes of the request's resources it asks for (already checked by
 * domain/resources/resource-scope-requests.ts): kept as asked, after the others.
 */
export function requestedScope(
  org: Org,
  client: Client,
  scope: string | undefined,
  resourceScopes: readonly string[] = [],
): string {
  if (scope === undefined && org.isConsole) return DEFAULT_CONSOLE_SCOPE;
  const own = scopeList(scope ?? '').filter((s) => !resourceScopes.includes(s));
  const scopes = parseScope(scope === undefined ? undefined : own.join(' '), org);
  const kept = scopes.filter((s) => client.firstParty || s !== FIRST_PARTY_ONLY_SCOPE);
  return [...kept, ...resourceScopes].join(' ');
}

/** Whether every scope of `asked` is one of `granted` (the same or narrower). */
export function withinScope(asked: string, granted: string): boolean {
  const held = new Set(scopeList(granted));
  return scopeList(asked).every((s) => held.has(s));
}

/** The identity and management scopes of a scope string: what is left once resource scopes are taken out. */
export function ownScopes(scope: string): string {
  return scopeList(scope)
    .filter((s) => Object.hasOwn(SCOPES, s))
    .join(' ');
}
