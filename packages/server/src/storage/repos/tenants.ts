import type { Tenant } from '../../domain/types.js';
import type { Db } from '../db.js';

export async function insertTenant(db: Db, t: Tenant): Promise<void> {
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
