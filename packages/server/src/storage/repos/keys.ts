import { sql } from 'kysely';
import type { Db } from '../db.js';
import type { SigningKeysTable } from '../schema.js';

export type KeyRow = SigningKeysTable;

export async function insertKey(db: Db, row: KeyRow): Promise<void> {
  await db.insertInto('signing_keys').values(row).execute();
}

export async function findKeyByStatus(
  db: Db,
  orgId: string,
  status: KeyRow['status'],
): Promise<KeyRow | null> {
  const row = await db
    .selectFrom('signing_keys')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('status', '=', status)
    .executeTakeFirst();
  return row ?? null;
}

export async function activeKid(db: Db, orgId: string): Promise<string | null> {
  const row = await db
    .selectFrom('signing_keys')
    .select('kid')
    .where('org_id', '=', orgId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.kid ?? null;
}

export async function findKey(db: Db, kid: string): Promise<KeyRow | null> {
  return (await db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst()) ?? null;
}

/** Keys a verifier may meet: the active one, the next one, and retired ones until their tokens expire. */
export async function publishedKeys(
  db: Db,
  orgId: string,
  now: number,
): Promise<Pick<KeyRow, 'kid' | 'public_jwk' | 'status'>[]> {
  return db
    .selectFrom('signing_keys')
    .select(['kid', 'public_jwk', 'status'])
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('status', '!=', 'retired'), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .execute();
}

/**
 * One page of the keys a verifier may meet (as publishedKeys), public facts only: the next key
 * first, then the active one, then retired ones newest first; and how many there are.
 */
export async function pagePublishedKeys(
  db: Db,
  orgId: string,
  now: number,
  window: { offset: number; limit: number },
): Promise<{ rows: Pick<KeyRow, 'kid' | 'status' | 'created_at'>[]; total: number }> {
  const published = db
    .selectFrom('signing_keys')
    .where('org_id', '=', orgId)
    .where((eb) => eb.or([eb('status', '!=', 'retired'), eb('expires_at', '>', now)]));
  const { n } = await published
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const total = Number(n);
  if (window.offset >= total) return { rows: [], total };
  const rows = await published
    .select(['kid', 'status', 'created_at'])
    .orderBy(sql`case status when 'next' then 0 when 'active' then 1 else 2 end`)
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows, total };
}

export async function setKeyStatus(db: Db, kid: string, status: KeyRow['status'], expiresAt: number | null) {
  await db
    .updateTable('signing_keys')
    .set({ status, expires_at: expiresAt })
    .where('kid', '=', kid)
    .execute();
}

export async function deleteExpiredKeys(db: Db, orgId: string, now: number): Promise<void> {
  await db
    .deleteFrom('signing_keys')
    .where('org_id', '=', orgId)
    .where('status', '=', 'retired')
    .where('expires_at', '<=', now)
    .execute();
}

/** Any one private signing key, sealed: a value the secret of a database from before the check opens. */
export async function anySealedKey(db: Db): Promise<string | null> {
  const row = await db.selectFrom('signing_keys').select('private_key').limit(1).executeTakeFirst();
  return row?.private_key ?? null;
}
