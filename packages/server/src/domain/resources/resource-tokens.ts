import type { Handle } from '../../storage/handle.js';
import { findApiResourcesByIdentifier } from '../../storage/repos/api-resources.js';
import { scopesAllowedToUser } from '../../storage/repos/roles.js';
import { fail } from '../errors.js';
import type { ApiResource, Org, ResourceGrant } from '../types.js';

/** The resource an access token is for, and the scopes it carries. */
export interface TokenAudience {
  resource: ApiResource;
  scopes: string[];
}

/**
 * The resource a session's access token is for (DESIGN §15), always one the consented
 * authorization granted — never one the token request alone names (the request only picks):
 * `resource` given must be one of the granted ones, else `invalid_target`; absent, the first
 * granted. None granted and none asked: null (the token is the client's alone, as before).
 * Its scopes are those granted that the resource still has and the person's roles still allow:
 * a role removed since stops the next token, a refresh included, from carrying its scopes.
 */
export async function sessionAudience(
  db: Handle,
  org: Org,
  session: { userId: string; resources: readonly ResourceGrant[] },
  requested: string | undefined,
): Promise<TokenAudience | null> {
  if (requested === undefined && session.resources.length === 0) return null;
  const grant =
    requested === undefined ? session.resources[0] : session.resources.find((g) => g.resource === requested);
  if (!grant) return fail('token.resource.not_granted', 'resource was not granted by this authorization');
  const [resource] = await findApiResourcesByIdentifier(db, org.id, [grant.resource]);
  if (!resource)
    return fail('token.resource.unregistered', 'the resource of this authorization is no longer registered');
  const allowed = new Set(await scopesAllowedToUser(db, session.userId, resource.id));
  const granted = new Set(grant.scopes);
  const scopes = resource.scopes.map((s) => s.name).filter((s) => granted.has(s) && allowed.has(s));
  return { resource, scopes };
}
