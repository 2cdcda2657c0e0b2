import { listApiResources } from '../../storage/repos/api-resources.js';
import { isManagementScope, scopeList } from '../directory/console-scopes.js';
import { IDENTITY_SCOPES } from '../directory/scopes.js';
import { fail } from '../errors.js';
import type { ApiResource, Org } from '../types.js';
import type { ResourcesDeps } from './deps.js';

/**
 * The scopes of a request beyond the identity and management scopes (DESIGN §15): each must be a
 * scope of a resource the request names; a scope of another resource of the org needs that
 * resource in the request, and a scope no resource has is unknown — both `invalid_scope`.
 * Returns the resource scopes asked for; the identity and management scopes are left to the
 * scope rules of domain/tokens/scopes.ts.
 */
export async function resourceScopesAsked(
  deps: ResourcesDeps,
  org: Org,
  scope: string | undefined,
  requested: readonly ApiResource[],
): Promise<string[]> {
  const others = scopeList(scope ?? '').filter(
    (s) => !Object.hasOwn(IDENTITY_SCOPES, s) && !isManagementScope(s),
  );
  if (others.length === 0 || org.isConsole) return [];
  const named = new Set(requested.flatMap((r) => r.scopes.map((s) => s.name)));
  const missing = others.filter((s) => !named.has(s));
  if (missing.length > 0) {
    const all = await listApiResources(deps.store, org.id);
    const owner = all.find((r) => r.scopes.some((s) => s.name === missing[0]));
    if (owner)
      fail(
        'scope.resource_not_named',
        `${missing[0]} is a scope of ${owner.identifier}: name it as resource`,
      );
    fail('scope.unsupported', 'a requested scope is not supported');
  }
  return others;
}
