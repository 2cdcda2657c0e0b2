import type { Role, Tenant } from '../../domain/types.js';
import type { Db } from '../db.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { toTenant } from './tenants.js';

export interface TenantMembership {
  tenant: Tenant;
  role: Role;
}

function membershipsOf(db: Db, userId: string) {
  return db
    .selectFrom('tenant_members')
    .innerJoin('tenants', 'tenants.id', 'tenant_members.tenant_id')
    .selectAll('tenants')
    .select(['tenant_members.role as role', 'tenant_members.created_at as joined_at'])
    .where('tenant_members.user_id', '=', userId);
}

/** The user's tenants, oldest membership first (the personal tenant leads). */
export async function listUserTenants(store: Handle, userId: string): Promise<TenantMembership[]> {
  const db = opened(store);
  const rows = await membershipsOf(db, userId).orderBy('joined_at').orderBy('tenants.id').execute();
  return rows.map((r) => ({ tenant: toTenant(r), role: r.role }));
}

export async function addTenantMember(
  store: Handle,
  tenantId: string,
  userId: string,
  role: Role,
  at: number,
) {
  const db = opened(store);
  await db
    .insertInto('tenant_members')
    .values({ tenant_id: tenantId, user_id: userId, role, created_at: at })
    .execute();
}

export async function findUserTenant(
  store: Handle,
  userId: string,
  tenantId: string,
): Promise<TenantMembership | null> {
  const db = opened(store);
  const row = await membershipsOf(db, userId).where('tenants.id', '=', tenantId).executeTakeFirst();
  return row ? { tenant: toTenant(row), role: row.role } : null;
}

/** How many members of the tenant belong to no other tenant (deleting it would leave them with none). */
export async function countMembersOnlyIn(store: Handle, tenantId: string): Promise<number> {
  const db = opened(store);
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

/** The tenants the user is the only member of: nobody would be left in them without the user. */
export async function tenantsOnlyOf(store: Handle, userId: string): Promise<Tenant[]> {
  const db = opened(store);
  const rows = await db
    .selectFrom('tenant_members as m')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .selectAll('t')
    .where('m.user_id', '=', userId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('tenant_members as other')
            .select('other.user_id')
            .whereRef('other.tenant_id', '=', 'm.tenant_id')
            .where('other.user_id', '!=', userId),
        ),
      ),
    )
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map(toTenant);
}
