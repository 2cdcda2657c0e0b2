import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { tableOf } from './keyed-rows.js';

const settings = tableOf('service_settings');

/** The setting `name`'s JSON text, or null before one is written. */
export async function findServiceSetting(store: Handle, name: string): Promise<string | null> {
  return (await settings.valueWhere(store, 'value', { name })) ?? null;
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
