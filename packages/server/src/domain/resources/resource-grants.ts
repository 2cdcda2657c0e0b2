import type { Handle } from '../../storage/handle.js';
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
 * For each resource asked, the scopes asked that the resource has and the person's roles allow
 * now; resources deleted since are left out. Given a grant decided before, it re-checks it only to
 * narrow: what the person's roles no longer allow (or a resource or scope deleted since) is
 * dropped; nothing is ever added.
 */
export async function narrowedGrant(
  db: Handle,
  org: Org,
  userId: string,
  asks: readonly ResourceGrant[],
): Promise<GrantedResource[]> {
  const resources = await findApiResourcesByIdentifier(
    db,
    org.id,
    asks.map((a) => a.resource),
  );
  const granted: GrantedResource[] = [];
  for (const ask of asks) {
    const resource = resources.find((r) => r.identifier === ask.resource);
    if (!resource) continue;
    const allowed = new Set(await scopesAllowedToUser(db, userId, resource.id));
    const scopes = resource.scopes.map((s) => s.name).filter((s) => ask.scopes.includes(s) && allowed.has(s));
    granted.push({ resource, scopes });
  }
  return granted;
}

/**
 * What a person is granted for each resource an authorization names (DESIGN §15): the scopes
 * asked for that the resource has and the person's roles allow now; the rest are dropped, not
 * refused. Resources deleted since the request are left out. Decided once per authorization
 * request (sign-in/resource-consent.ts): at its consent page, else when its code is issued.
 */
export async function grantForUser(
  db: Handle,
  org: Org,
  userId: string,
  identifiers: readonly string[],
  scope: string,
): Promise<GrantedResource[]> {
  const asked = scopeList(scope);
  return narrowedGrant(
    db,
    org,
    userId,
    identifiers.map((resource) => ({ resource, scopes: asked })),
  );
}

/** As a session and an authorization request store it: identifiers and scope names. */
export const storedGrant = (granted: readonly GrantedResource[]): ResourceGrant[] =>
  granted.map((g) => ({ resource: g.resource.identifier, scopes: g.scopes }));
