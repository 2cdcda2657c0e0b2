import type { Db } from '../db.js';

export async function updateUserNames(
  db: Db,
  userId: string,
  names: { firstName: string | null; lastName: string | null },
  now: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ first_name: names.firstName, last_name: names.lastName, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
