import { listApiResources } from '../../storage/repos/api-resources.js';
import type { Org } from '../types.js';
import type { ResourcesDeps } from './deps.js';

/**
 * Every scope of the org's API resources, oldest resource first, each name once: what the org
 * issuer's discovery adds to `scopes_supported` (DESIGN §15). The console has none.
 */
export async function resourceScopesOf(deps: ResourcesDeps, org: Org): Promise<string[]> {
  if (org.isConsole) return [];
  const resources = await listApiResources(deps.db, org.id);
  return [...new Set(resources.flatMap((r) => r.scopes.map((s) => s.name)))];
}
