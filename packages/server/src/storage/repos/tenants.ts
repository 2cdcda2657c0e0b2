import type { Tenant } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { TenantsTable } from '../schema.js';

export const toTenant = (r: TenantsTable): Tenant => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  logo: r.logo,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertTenant(store: Handle, t: Tenant): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('tenants')
    .values({
      id: t.id,
      org_id: t.orgId,
      name: t.name,
      logo: t.logo,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    })
    .execute();
}

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
