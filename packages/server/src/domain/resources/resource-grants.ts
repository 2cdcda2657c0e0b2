import type { Db } from '../../storage/db.js';
import { findApiResourcesByIdentifier } from '../../storage/repos/api-resources.js';
import { scopesAllowedToUser } from '../../storage/repos/roles.js';
import { scopeList } from '../directory/console-scopes.js';
import type { ApiResource, Org, ResourceGrant } from '../types.js';

/** A resource with the scopes granted for it (in the resource's own order). */
export interface GrantedResource {
  resource: ApiResource;
  scopes: string[];
}

/**
 * What a person is granted for each resource an authorization names (DESIGN §15): the scopes
 * asked for that the resource has and the person's roles allow now; the rest are dropped, not
 * refused. Resources deleted since the request are left out.
 */
export async function grantForUser(
  db: Db,
  org: Org,
  userId: string,
  identifiers: readonly string[],
  scope: string,
): Promise<GrantedResource[]> {
  const asked = new Set(scopeList(scope));
  const resources = await findApiResourcesByIdentifier(db, org.id, identifiers);
  const granted: GrantedResource[] = [];
  for (const identifier of identifiers) {
    const resource = resources.find((r) => r.identifier === identifier);
    if (!resource) continue;
    const allowed = new Set(await scopesAllowedToUser(db, userId, resource.id));
    const scopes = resource.scopes.map((s) => s.name).filter((s) => asked.has(s) && allowed.has(s));
    granted.push({ resource, scopes });
  }
  return granted;
}

/** As a session stores it: identifiers and scope names. */
export const storedGrant = (granted: readonly GrantedResource[]): ResourceGrant[] =>
  granted.map((g) => ({ resource: g.resource.identifier, scopes: g.scopes }));
