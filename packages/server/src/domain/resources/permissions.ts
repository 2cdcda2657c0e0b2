import type { Handle } from '../../storage/handle.js';
import { findApiResourcesByIdentifier } from '../../storage/repos/api-resources.js';
import type { StoredPermission } from '../../storage/repos/roles.js';
import { fail } from '../errors.js';
import type { Org, Permission } from '../types.js';

/** At most this many permissions on one role or client. */
export const MAX_PERMISSIONS = 500;

/**
 * Permissions as given (a resource by identifier, one of its scopes) checked against the org's
 * resources: each must name a registered resource and one of its scopes, else 400 naming it.
 * Duplicates are dropped. Returns them as stored (resource ids) and as shown (identifiers).
 */
export async function resolvePermissions(
  db: Handle,
  org: Org,
  field: string,
  given: readonly Permission[],
): Promise<{ stored: StoredPermission[]; shown: Permission[] }> {
  if (given.length > MAX_PERMISSIONS) fail('permissions.too_many', `${field}: at most ${MAX_PERMISSIONS}`);
  const resources = await findApiResourcesByIdentifier(db, org.id, [
    ...new Set(given.map((p) => p.resource)),
  ]);
  const byIdentifier = new Map(resources.map((r) => [r.identifier, r]));
  const seen = new Set<string>();
  const stored: StoredPermission[] = [];
  const shown: Permission[] = [];
  given.forEach((p, i) => {
    const resource = byIdentifier.get(p.resource);
    if (!resource) {
      fail(
        'permissions.resource.unknown',
        `${field}[${i}].resource: "${p.resource}" is not a resource of this organization`,
      );
    }
    if (!resource?.scopes.some((s) => s.name === p.scope)) {
      fail('permissions.scope.unknown', `${field}[${i}].scope: "${p.scope}" is not a scope of ${p.resource}`);
    }
    const key = `${p.resource}\u0000${p.scope}`;
    if (seen.has(key) || !resource) return;
    seen.add(key);
    stored.push({ resourceId: resource.id, scope: p.scope });
    shown.push({ resource: p.resource, scope: p.scope });
  });
  return { stored, shown };
}
