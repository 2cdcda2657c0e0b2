import type { Role } from '../../domain/types.js';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { MembershipsTable } from '../schema.js';
import { columnMap } from './column-map.js';
import { tableOf } from './keyed-rows.js';
import { inListOrder, nearerEnd, readDirection } from './list-window.js';
import { countRows } from './paged-rows.js';

export interface Membership {
  orgId: string;
  userId: string;
  role: Role;
  createdAt: number;
}

/** Every column but the member's `email_key`, which triggers keep (migration 032). */
const membershipColumns = columnMap<Omit<MembershipsTable, 'email_key'>, Membership>()({
  org_id: 'orgId',
  user_id: 'userId',
  role: 'role',
  created_at: 'createdAt',
});
const memberships = tableOf('memberships');

export async function upsertMembership(store: Handle, m: Membership): Promise<Membership | null> {
  const db = opened(store);
  const previous = await findMembership(db, m.orgId, m.userId);
  if (previous) {
    await memberships.updateWhere(db, { role: m.role }, { org_id: m.orgId, user_id: m.userId });
  } else {
    await db.insertInto('memberships').values(membershipColumns.toRow(m)).execute();
  }
  return previous;
}

export async function findMembership(
  store: Handle,
  orgId: string,
  userId: string,
): Promise<Membership | null> {
  const row = await memberships.rowWhere(store, { org_id: orgId, user_id: userId });
  return row ? membershipColumns.toRecord(row) : null;
}

/** A window of a list: `limit` rows after skipping `offset`. */
export interface Window {
  offset: number;
  limit: number;
}

export interface MemberRow {
  userId: string;
  email: string;
  role: Role;
}

/** The org's members by email (then id), one window of them, and how many there are. */
export async function pageMembersOfOrg(
  store: Handle,
  orgId: string,
  window: Window,
): Promise<{ rows: MemberRow[]; total: number }> {
  const db = opened(store);
  const total = await memberships.countWhere(db, { org_id: orgId });
  const read = nearerEnd(total, window);
  if (read === null) return { rows: [], total };
  const direction = readDirection(read);
  // The page's members from the (org_id, email_key, user_id) index alone (migration 032), then their rows.
  const page = db
    .selectFrom('memberships')
    .select('user_id')
    .where('org_id', '=', orgId)
    .orderBy('email_key', direction)
    .orderBy('user_id', direction)
    .offset(read.offset)
    .limit(read.limit);
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'u.email', 'm.role'])
    .where('m.org_id', '=', orgId)
    .where('m.user_id', 'in', page)
    .orderBy('m.email_key', direction)
    .orderBy('m.user_id', direction)
    .execute();
  return {
    rows: inListOrder(read, rows).map((r) => ({ userId: r.user_id, email: r.email, role: r.role })),
    total,
  };
}

export interface UserOrgRow {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

/** The orgs the console user is a member of (the console org aside), by slug, one window of them. */
export async function pageOrgsOfUser(
  store: Handle,
  userId: string,
  window: Window,
): Promise<{ rows: UserOrgRow[]; total: number }> {
  const db = opened(store);
  const base = db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.org_id')
    .where('m.user_id', '=', userId)
    .where('o.is_console', '=', 0);
  const total = await countRows(base);
  const rows = await base
    .select(['o.id', 'o.slug', 'o.name', 'm.role'])
    .orderBy('o.slug')
    .offset(window.offset)
    .limit(window.limit)
    .execute();
  return { rows, total };
}

export async function countOwners(store: Handle, orgId: string): Promise<number> {
  return memberships.countWhere(store, { org_id: orgId, role: 'owner' });
}

export async function deleteMembership(store: Handle, orgId: string, userId: string): Promise<void> {
  await memberships.deleteWhere(store, { org_id: orgId, user_id: userId });
}
