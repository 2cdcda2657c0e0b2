import type { TrustedApp } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { TrustedAppsTable } from '../schema.js';
import { columnMap, json, orgRowColumns, timestampColumns } from './column-map.js';
import { oldestFirst, orgRowById } from './org-rows.js';
import { orgRecordById, orgRecordsOldestFirst } from './table-records.js';

const appColumns = columnMap<TrustedAppsTable, TrustedApp>()({
  ...orgRowColumns,
  name: 'name',
  audience: 'audience',
  target_client_id: 'targetClientId',
  client_ids: ['clientIds', json<string[]>()],
  resources: ['resources', json<string[]>()],
  scopes: ['scopes', json<string[]>()],
  ...timestampColumns,
});
const { toRecord: toApp, toRow } = appColumns;

export async function insertTrustedApp(store: Handle, app: TrustedApp): Promise<void> {
  await opened(store).insertInto('trusted_apps').values(toRow(app)).execute();
}

export async function updateTrustedAppRow(store: Handle, app: TrustedApp): Promise<void> {
  const { id, org_id, created_at, ...changes } = toRow(app);
  await orgRowById(opened(store).updateTable('trusted_apps').set(changes), org_id, id).execute();
}

/** Deletes the org's trusted app `id`; false when it has none. */
export async function deleteTrustedAppRow(store: Handle, orgId: string, id: string): Promise<boolean> {
  const result = await orgRowById(opened(store).deleteFrom('trusted_apps'), orgId, id).executeTakeFirst();
  return result.numDeletedRows === 1n;
}

export const findTrustedApp = orgRecordById('trusted_apps', appColumns);

/** The org's trusted apps, oldest first (an org has a handful: not paged). */
export const listTrustedApps = orgRecordsOldestFirst('trusted_apps', appColumns);

/** The org's trusted apps for one target authorization server (`audience`, exactly). */
export async function trustedAppsFor(store: Handle, orgId: string, audience: string): Promise<TrustedApp[]> {
  const rows = await oldestFirst(
    opened(store)
      .selectFrom('trusted_apps')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('audience', '=', audience),
  ).execute();
  return rows.map(toApp);
}
