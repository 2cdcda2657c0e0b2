import type { Handle } from '../handle.js';
import { opened } from '../opened.js';

/** The setting `name`'s JSON text, or null before one is written. */
export async function findServiceSetting(store: Handle, name: string): Promise<string | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('service_settings')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value ?? null;
}

/** Writes the setting, replacing what another start wrote before. */
export async function putServiceSetting(
  store: Handle,
  name: string,
  value: string,
  now: number,
): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('service_settings')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}
