import { isManagementScope } from '../directory/console-scopes.js';
import { IDENTITY_SCOPES } from '../directory/scopes.js';

const SCOPE_NAME = /^[a-z0-9:._-]{1,64}$/;

/**
 * Whether `name` may name a scope of an API resource (DESIGN §15): `[a-z0-9:._-]{1,64}`, never an
 * identity scope (openid profile email address phone offline_access) nor a management scope (org:read …), which
 * mean something else everywhere. Returns what is wrong, or null.
 */
export function scopeNameProblem(name: string): string | null {
  if (!SCOPE_NAME.test(name)) return 'must be 1-64 of a-z 0-9 : . _ -';
  if (Object.hasOwn(IDENTITY_SCOPES, name)) return `"${name}" is an identity scope`;
  if (isManagementScope(name)) return `"${name}" is a management scope`;
  return null;
}

/** A scope description: 1-200 characters, shown on the consent page. */
export const MAX_SCOPE_DESCRIPTION = 200;
