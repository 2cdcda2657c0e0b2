import type { Db } from '../db.js';

/** The setting `name`'s JSON text, or null before one is written. */
export async function findServiceSetting(db: Db, name: string): Promise<string | null> {
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value ?? null;
}

/** Writes the setting, replacing what another start wrote before. */
export async function putServiceSetting(db: Db, name: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('service_settings')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}
