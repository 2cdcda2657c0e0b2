import type { ApiResource, ResourceScope } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ApiResourcesTable } from '../schema.js';
import { dropClientPermissionsOutside } from './client-permissions.js';
import { columnMap, json, orgRowColumns, timestampColumns } from './column-map.js';
import { tableOf } from './keyed-rows.js';
import { orgRowById, pageOrgRows } from './org-rows.js';
import { dropRolePermissionsOutside } from './roles.js';
import { insertOf, orgRecordById, orgRecordsOldestFirst } from './table-records.js';

const resourceColumns = columnMap<ApiResourcesTable, ApiResource>()({
  ...orgRowColumns,
  identifier: 'identifier',
  name: 'name',
  scopes: ['scopes', json<ResourceScope[]>()],
  access_token_ttl: 'accessTokenTtl',
  ...timestampColumns,
});
const toResource = resourceColumns.toRecord;
const resources = tableOf('api_resources');

export const insertApiResource = insertOf('api_resources', resourceColumns);

/** The org's resource with this id, or null. */
export const findApiResource = orgRecordById('api_resources', resourceColumns);

/** The org's resources with these identifiers (unknown ones are simply absent). */
export async function findApiResourcesByIdentifier(
  store: Handle,
  orgId: string,
  identifiers: readonly string[],
): Promise<ApiResource[]> {
  if (identifiers.length === 0) return [];
  const rows = await resources.rowsWhere(store, { org_id: orgId, identifier: identifiers });
  return rows.map(toResource);
}

/** Every resource of the org, oldest first (discovery's scopes_supported). */
export const listApiResources = orgRecordsOldestFirst('api_resources', resourceColumns);

/** One page of an org's resources, oldest first, and how many it has. */
export async function pageApiResources(
  store: Handle,
  orgId: string,
  window: { offset: number; limit: number },
): Promise<{ entries: ApiResource[]; total: number }> {
  const db = opened(store);
  const { rows, total } = await pageOrgRows(db.selectFrom('api_resources').selectAll(), orgId, window);
  return { entries: rows.map(toResource), total };
}

/** Stores what an update may change: name, scopes, access token lifetime. */
export async function updateApiResourceRow(store: Handle, r: ApiResource): Promise<void> {
  const db = opened(store);
  await orgRowById(
    db.updateTable('api_resources').set({
      name: r.name,
      scopes: JSON.stringify(r.scopes),
      access_token_ttl: r.accessTokenTtl,
      updated_at: r.updatedAt,
    }),
    r.orgId,
    r.id,
  ).execute();
}

/**
 * Removes the permissions of roles and clients naming a scope the resource no longer has; returns
 * nothing (the role and client audit entries of the resource change are the resource's own).
 */
export async function dropPermissionsOutside(store: Handle, resourceId: string, scopes: readonly string[]) {
  const db = opened(store);
  await dropRolePermissionsOutside(db, resourceId, scopes);
  await dropClientPermissionsOutside(db, resourceId, scopes);
}

/** Deletes the resource (its permissions go with it, by foreign key) and returns it, or null. */
export async function deleteApiResourceRow(
  store: Handle,
  orgId: string,
  id: string,
): Promise<ApiResource | null> {
  const db = opened(store);
  const row = await orgRowById(db.deleteFrom('api_resources'), orgId, id).returningAll().executeTakeFirst();
  return row ? toResource(row) : null;
}
