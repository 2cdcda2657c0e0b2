import type { TrustedApp } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { TrustedAppsTable } from '../schema.js';
import { oldestFirst, orgRowById, orgRowsOldestFirst } from './org-rows.js';

const toApp = (r: TrustedAppsTable): TrustedApp => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  audience: r.audience,
  targetClientId: r.target_client_id,
  clientIds: JSON.parse(r.client_ids) as string[],
  resources: JSON.parse(r.resources) as string[],
  scopes: JSON.parse(r.scopes) as string[],
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

const toRow = (a: TrustedApp): TrustedAppsTable => ({
  id: a.id,
  org_id: a.orgId,
  name: a.name,
  audience: a.audience,
  target_client_id: a.targetClientId,
  client_ids: JSON.stringify(a.clientIds),
  resources: JSON.stringify(a.resources),
  scopes: JSON.stringify(a.scopes),
  created_at: a.createdAt,
  updated_at: a.updatedAt,
});

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

export async function findTrustedApp(store: Handle, orgId: string, id: string): Promise<TrustedApp | null> {
  const row = await orgRowById(
    opened(store).selectFrom('trusted_apps').selectAll(),
    orgId,
    id,
  ).executeTakeFirst();
  return row ? toApp(row) : null;
}

/** The org's trusted apps, oldest first (an org has a handful: not paged). */
export async function listTrustedApps(store: Handle, orgId: string): Promise<TrustedApp[]> {
  const rows = await orgRowsOldestFirst(
    opened(store).selectFrom('trusted_apps').selectAll(),
    orgId,
  ).execute();
  return rows.map(toApp);
}

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
