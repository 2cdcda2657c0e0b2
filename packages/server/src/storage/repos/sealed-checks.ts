import type { Handle } from '../handle.js';
import { opened } from '../opened.js';

/** The sealed check value `name`, or null before one is written. */
export async function findSealedCheck(store: Handle, name: string): Promise<string | null> {
  const db = opened(store);
  const row = await db
    .selectFrom('sealed_checks')
    .select('sealed')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.sealed ?? null;
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
