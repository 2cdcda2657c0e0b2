import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import { tableOf } from './keyed-rows.js';

const checks = tableOf('sealed_checks');

/** The sealed check value `name`, or null before one is written. */
export async function findSealedCheck(store: Handle, name: string): Promise<string | null> {
  return (await checks.valueWhere(store, 'sealed', { name })) ?? null;
}

/** Writes the check value unless one exists (another process wrote it first): that one stays. */
export async function insertSealedCheck(
  store: Handle,
  name: string,
  sealed: string,
  now: number,
): Promise<void> {
  const db = opened(store);
  await db
    .insertInto('sealed_checks')
    .values({ name, sealed, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
