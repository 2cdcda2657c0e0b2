import { clientPermissions, setClientPermissions } from '../../storage/repos/client-permissions.js';
import { clientSnapshot } from '../audit/snapshots.js';
import { heldListUpdated } from '../audit/trail.js';
import { clock } from '../clock.js';
import { orgClient } from '../directory/clients.js';
import { fail } from '../errors.js';
import type { Actor, Org, Permission } from '../types.js';
import type { ResourcesDeps } from './deps.js';
import { resolvePermissions } from './permissions.js';

/** A client's permissions (the scopes of each resource its machine tokens may carry). */
export async function getClientPermissions(
  deps: ResourcesDeps,
  org: Org,
  clientId: string,
): Promise<Permission[]> {
  await orgClient(deps.store, org, clientId);
  return clientPermissions(deps.store, clientId);
}

/**
 * Replaces a confidential client's permissions (a public client has no machine tokens: 400),
 * audited as `client.updated` whose data names the permissions after and whose previous names
 * them before (nothing is written when they are the same).
 */
export async function setPermissionsOfClient(
  deps: ResourcesDeps,
  org: Org,
  clientId: string,
  permissions: readonly Permission[],
  actor: Actor,
): Promise<Permission[]> {
  return deps.unitOfWork.run(async (tx) => {
    const client = await orgClient(tx, org, clientId);
    if (client.kind !== 'confidential') {
      fail(
        'client.permissions.public_client',
        'only a confidential client has permissions: a public client has no machine tokens',
      );
    }
    const { stored } = await resolvePermissions(tx, org, 'permissions', permissions);
    const before = await clientPermissions(tx, clientId);
    await setClientPermissions(tx, clientId, stored);
    const after = await clientPermissions(tx, clientId);
    if (JSON.stringify(before) === JSON.stringify(after)) return after;
    const by = { orgId: org.id, actor, at: clock.now() };
    await heldListUpdated(tx, by, 'client', clientSnapshot(client), 'permissions', { before, after });
    return after;
  });
}
