import type { Role } from '../../domain/types.js';
import type { Db } from '../db.js';

export interface Membership {
  orgId: string;
  userId: string;
  role: Role;
  createdAt: number;
}

export async function upsertMembership(db: Db, m: Membership): Promise<Membership | null> {
  const previous = await findMembership(db, m.orgId, m.userId);
  if (previous) {
    await db
      .updateTable('memberships')
      .set({ role: m.role })
      .where('org_id', '=', m.orgId)
      .where('user_id', '=', m.userId)
      .execute();
  } else {
    await db
      .insertInto('memberships')
      .values({ org_id: m.orgId, user_id: m.userId, role: m.role, created_at: m.createdAt })
      .execute();
  }
  return previous;
}

export async function findMembership(db: Db, orgId: string, userId: string): Promise<Membership | null> {
  const row = await db
    .selectFrom('memberships')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? { orgId: row.org_id, userId: row.user_id, role: row.role, createdAt: row.created_at } : null;
}
