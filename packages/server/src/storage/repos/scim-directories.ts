import type { ScimDirectory } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { ScimDirectoriesTable } from '../schema.js';
import { columnMap, orgRowColumns, timestampColumns } from './column-map.js';
import { tableOf } from './keyed-rows.js';
import type { ListWindow } from './list-window.js';
import { orgRowById, pageOrgRows } from './org-rows.js';
import { orgRecordById } from './table-records.js';

/** Every column but the token's hash, which only finds the directory (findDirectoryByTokenHash). */
const directoryColumns = columnMap<Omit<ScimDirectoriesTable, 'token_hash'>, ScimDirectory>()({
  ...orgRowColumns,
  name: 'name',
  connection_id: 'connectionId',
  ...timestampColumns,
});
const toDirectory = directoryColumns.toRecord;
const COLUMNS = directoryColumns.names;

export async function insertDirectory(store: Handle, d: ScimDirectory, tokenHash: string): Promise<void> {
  await opened(store)
    .insertInto('scim_directories')
    .values({ ...directoryColumns.toRow(d), token_hash: tokenHash })
    .execute();
}

const directories = tableOf('scim_directories');

/** The org's directory `id`, or null. */
export const findDirectory = orgRecordById('scim_directories', directoryColumns);

/** The org's directory whose token hashes to `tokenHash`, with the stored hash; null when none. */
export async function findDirectoryByTokenHash(
  store: Handle,
  orgId: string,
  tokenHash: string,
): Promise<{ directory: ScimDirectory; tokenHash: string } | null> {
  const row = await directories.rowWhere(store, { token_hash: tokenHash, org_id: orgId });
  return row ? { directory: toDirectory(row), tokenHash: row.token_hash } : null;
}

export async function pageDirectories(
  store: Handle,
  orgId: string,
  window: ListWindow,
): Promise<{ rows: ScimDirectory[]; total: number }> {
  const db = opened(store);
  const { rows, total } = await pageOrgRows(db.selectFrom('scim_directories').select(COLUMNS), orgId, window);
  return { rows: rows.map(toDirectory), total };
}

/** Replaces the directory's token hash; false when there is no such directory. */
export async function setDirectoryTokenHash(
  store: Handle,
  id: string,
  tokenHash: string,
  now: number,
): Promise<boolean> {
  return (await directories.updateWhere(store, { token_hash: tokenHash, updated_at: now }, { id })) > 0;
}

export async function deleteDirectory(store: Handle, orgId: string, id: string): Promise<boolean> {
  const r = await orgRowById(opened(store).deleteFrom('scim_directories'), orgId, id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
