import type { Permission } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { tableOf } from './keyed-rows.js';
import { permissionsOutside, type StoredPermission } from './roles.js';

const clientPermissionRows = tableOf('client_permissions');

/** The client's permissions, each naming its resource by identifier, in a stable order. */
export async function clientPermissions(store: Handle, clientId: string): Promise<Permission[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('client_permissions')
    .innerJoin('api_resources', 'api_resources.id', 'client_permissions.resource_id')
    .select(['api_resources.identifier', 'client_permissions.scope'])
    .where('client_permissions.client_id', '=', clientId)
    .orderBy('api_resources.created_at')
    .orderBy('api_resources.identifier')
    .orderBy('client_permissions.scope')
    .execute();
  return rows.map((r) => ({ resource: r.identifier, scope: r.scope }));
}

/** Replaces the client's permissions. */
export async function setClientPermissions(
  store: Handle,
  clientId: string,
  permissions: readonly StoredPermission[],
): Promise<void> {
  await clientPermissionRows.replaceWhere(
    store,
    { client_id: clientId },
    permissions.map((p) => ({ client_id: clientId, resource_id: p.resourceId, scope: p.scope })),
  );
}

/** The scopes of the resource the client is permitted, sorted. */
export async function scopesPermittedToClient(
  store: Handle,
  clientId: string,
  resourceId: string,
): Promise<string[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('client_permissions')
    .select('scope')
    .where('client_id', '=', clientId)
    .where('resource_id', '=', resourceId)
    .orderBy('scope')
    .execute();
  return rows.map((r) => r.scope);
}

/** Drops the clients' permissions on the resource naming a scope outside `scopes` (all, when empty). */
export async function dropClientPermissionsOutside(
  store: Handle,
  resourceId: string,
  scopes: readonly string[],
): Promise<void> {
  const db = opened(store);
  await permissionsOutside(db.deleteFrom('client_permissions'), resourceId, scopes).execute();
}
