import type { Role, User } from '../../domain/types.js';
import type { Db } from '../db.js';
import type { UsersTable } from '../schema.js';

const toUser = (r: UsersTable): User => ({
  id: r.id,
  orgId: r.org_id,
  email: r.email,
  firstName: r.first_name,
  lastName: r.last_name,
  picture: r.picture,
  provider: r.provider,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Emails are unique per org regardless of case. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

export async function insertUser(db: Db, user: User, passwordHash: string | null): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      org_id: user.orgId,
      email: user.email,
      email_key: emailKey(user.email),
      password_hash: passwordHash,
      first_name: user.firstName,
      last_name: user.lastName,
      picture: user.picture,
      provider: user.provider,
      created_at: user.createdAt,
      updated_at: user.updatedAt,
    })
    .execute();
}

export async function findUserByEmail(db: Db, orgId: string, email: string): Promise<User | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('email_key', '=', emailKey(email))
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function findPasswordHash(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function addTenantMember(db: Db, tenantId: string, userId: string, role: Role, at: number) {
  await db
    .insertInto('tenant_members')
    .values({ tenant_id: tenantId, user_id: userId, role, created_at: at })
    .execute();
}
