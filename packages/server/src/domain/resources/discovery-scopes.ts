import { listApiResources } from '../../storage/repos/api-resources.js';
import type { Org } from '../types.js';
import type { ResourcesDeps } from './deps.js';

/**
 * Every scope of the org's API resources, each name once, the resources in the order of their
 * identifiers and each one's scopes as declared: what the org issuer's discovery adds to
 * `scopes_supported` (DESIGN §15). By identifier, not by age: resources created in the same
 * millisecond have no order of their own. The console has none.
 */
export async function resourceScopesOf(deps: ResourcesDeps, org: Org): Promise<string[]> {
  if (org.isConsole) return [];
  const resources = await listApiResources(deps.store, org.id);
  const byIdentifier = [...resources].sort((a, b) =>
    a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0,
  );
  return [...new Set(byIdentifier.flatMap((r) => r.scopes.map((s) => s.name)))];
}
