import type { Role, Tenant } from '../../domain/types.js';
import type { Db } from '../db.js';
import type { TenantsTable } from '../schema.js';

export interface TenantMembership {
  tenant: Tenant;
  role: Role;
}

const toTenant = (r: TenantsTable): Tenant => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  logo: r.logo,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function membershipsOf(db: Db, userId: string) {
  return db
    .selectFrom('tenant_members')
    .innerJoin('tenants', 'tenants.id', 'tenant_members.tenant_id')
    .selectAll('tenants')
    .select(['tenant_members.role as role', 'tenant_members.created_at as joined_at'])
    .where('tenant_members.user_id', '=', userId);
}

/** The user's tenants, oldest membership first (the personal tenant leads). */
export async function listUserTenants(db: Db, userId: string): Promise<TenantMembership[]> {
  const rows = await membershipsOf(db, userId).orderBy('joined_at').orderBy('tenants.id').execute();
  return rows.map((r) => ({ tenant: toTenant(r), role: r.role }));
}

export async function findUserTenant(
  db: Db,
  userId: string,
  tenantId: string,
): Promise<TenantMembership | null> {
  const row = await membershipsOf(db, userId).where('tenants.id', '=', tenantId).executeTakeFirst();
  return row ? { tenant: toTenant(row), role: row.role } : null;
}

export async function updateTenant(db: Db, t: Tenant): Promise<void> {
  await db
    .updateTable('tenants')
    .set({ name: t.name, logo: t.logo, updated_at: t.updatedAt })
    .where('id', '=', t.id)
    .execute();
}

export async function deleteTenant(db: Db, id: string): Promise<void> {
  await db.deleteFrom('tenants').where('id', '=', id).execute();
}

/** How many members of the tenant belong to no other tenant (deleting it would leave them with none). */
export async function countMembersOnlyIn(db: Db, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('tenant_members as m')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('m.tenant_id', '=', tenantId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tenant_members as other')
            .select('other.tenant_id')
            .whereRef('other.user_id', '=', 'm.user_id')
            .where('other.tenant_id', '!=', tenantId),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
