import type { Tenant } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { TenantsTable } from '../schema.js';
import { columnMap, orgRowColumns, timestampColumns } from './column-map.js';
import { insertOf } from './table-records.js';

const tenantColumns = columnMap<TenantsTable, Tenant>()({
  ...orgRowColumns,
  name: 'name',
  logo: 'logo',
  ...timestampColumns,
});
export const toTenant = tenantColumns.toRecord;

export const insertTenant = insertOf('tenants', tenantColumns);

export async function updateTenant(store: Handle, t: Tenant): Promise<void> {
  const db = opened(store);
  await db
    .updateTable('tenants')
    .set({ name: t.name, logo: t.logo, updated_at: t.updatedAt })
    .where('id', '=', t.id)
    .execute();
}

export async function deleteTenant(store: Handle, id: string): Promise<void> {
  const db = opened(store);
  await db.deleteFrom('tenants').where('id', '=', id).execute();
}
