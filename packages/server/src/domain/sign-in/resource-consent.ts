import type { Handle } from '../../storage/handle.js';
import { findRequestGrant, recordRequestGrant } from '../../storage/repos/authorization-requests.js';
import {
  type GrantedResource,
  grantForUser,
  narrowedGrant,
  storedGrant,
} from '../resources/resource-grants.js';
import type { AuthorizationRequest, Org, ResourceGrant } from '../types.js';
import type { PendingAuthorization } from './authorization-requests.js';
import type { SignInDeps } from './deps.js';

/**
 * The resource grant of an authorization request, decided once (DESIGN §15): when a consent page
 * is shown, the first showing decides it and stores it with the request; the code is then issued
 * from that stored grant, re-checked only to narrow (a role removed between the page and the
 * click takes its scopes out of the code; a role added does not add any). A request without a
 * consent page decides it when its code is issued.
 */

/** One resource as the consent page names it: its name, identifier and the granted scopes' words. */
export interface ConsentResource {
  name: string;
  identifier: string;
  scopes: string[];
}

export const shownResources = (granted: readonly GrantedResource[]): ConsentResource[] =>
  granted.map(({ resource, scopes }) => ({
    name: resource.name,
    identifier: resource.identifier,
    scopes: resource.scopes.filter((s) => scopes.includes(s.name)).map((s) => s.description),
  }));

/**
 * The resources the consent page shows to `userId`: the grant decided (now, on the first showing,
 * and stored) narrowed by the roles the person holds now.
 */
export async function consentResources(
  deps: SignInDeps,
  org: Org,
  pending: PendingAuthorization,
  userId: string,
): Promise<ConsentResource[]> {
  const { request } = pending;
  let decided = request.grant;
  if (decided === null) {
    const granted = await grantForUser(deps.store, org, userId, request.resources, request.scope);
    // Decided just now, from the roles just read: nothing to narrow, nothing to read again.
    if (await recordRequestGrant(deps.store, request.id, storedGrant(granted)))
      return shownResources(granted);
    // Two pages opened at once: the grant stored first is the one decided.
    decided = (await findRequestGrant(deps.store, request.id)) ?? storedGrant(granted);
  }
  return shownResources(await narrowedGrant(deps.store, org, userId, decided));
}

/**
 * The grant a code carries: the decided one (`decided`, as the request's row holds it when the code
 * completes it) narrowed by the roles now, else decided now.
 */
export async function grantToIssue(
  db: Handle,
  org: Org,
  request: AuthorizationRequest,
  userId: string,
  decided: ResourceGrant[] | null,
): Promise<ResourceGrant[]> {
  const granted =
    decided === null
      ? await grantForUser(db, org, userId, request.resources, request.scope)
      : await narrowedGrant(db, org, userId, decided);
  return storedGrant(granted);
}
