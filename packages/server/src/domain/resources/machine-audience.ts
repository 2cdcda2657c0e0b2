import type { Handle } from '../../storage/handle.js';
import { scopesPermittedToClient } from '../../storage/repos/client-permissions.js';
import { scopeList } from '../directory/console-scopes.js';
import { fail } from '../errors.js';
import type { ApiResource, Client } from '../types.js';
import type { TokenAudience } from './resource-tokens.js';

/**
 * The scopes a machine token for `resource` carries (DESIGN §15): without `scope`, every scope of
 * the resource the client is permitted; with it, exactly those named — each must be permitted,
 * else `invalid_scope` (as Auth0 and Logto refuse a machine client's unpermitted scope: a machine
 * asks for what it was configured for, and silently getting less hides a configuration error).
 * A client permitted nothing on the resource is `invalid_scope` too: it gets no token for it.
 */
export async function machineAudience(
  db: Handle,
  client: Client,
  resource: ApiResource,
  scope: string | undefined,
): Promise<TokenAudience> {
  const permitted = await scopesPermittedToClient(db, client.id, resource.id);
  if (permitted.length === 0)
    fail('token.machine.resource_not_permitted', 'this client is permitted no scope of that resource');
  const asked = scopeList(scope ?? '');
  const refused = asked.find((s) => !permitted.includes(s));
  if (refused !== undefined)
    fail('token.machine.scope_not_permitted', `this client is not permitted ${refused} on that resource`);
  const wanted = asked.length === 0 ? permitted : asked;
  return { resource, scopes: resource.scopes.map((s) => s.name).filter((s) => wanted.includes(s)) };
}
