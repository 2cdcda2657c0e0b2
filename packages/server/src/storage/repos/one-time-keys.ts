import type { Kysely } from 'kysely';
import type { Db } from '../db.js';
import type { Database } from '../schema.js';

/** The columns every table of single-use keys has: the key's SHA-256, its org, expiry and use. */
interface OneTimeKeyColumns {
  key_hash: string;
  org_id: string;
  expires_at: number;
  used_at: number | null;
}

/** The tables that hold one-time keys (profile page keys, impersonation links). */
type OneTimeKeyTable = 'profile_keys' | 'impersonations';

/**
 * The storage of one kind of one-time key: insert, consume once, purge once expired. Only the
 * key's SHA-256 is stored; a used row stays until it expires, as an expired one is of no use.
 */
export interface OneTimeKeys<Row> {
  insert(db: Db, row: Row): Promise<void>;
  /**
   * Atomic single use: the one UPDATE that flips `used_at` from null returns the row, so exactly
   * one caller receives a live key's row; an unknown, used or expired key (or another org's)
   * gives null.
   */
  consume(db: Db, orgId: string, keyHash: string, now: number): Promise<Row | null>;
  purge(db: Db, expiredBefore: number): Promise<void>;
}

// Seen through their shared columns: Kysely cannot resolve columns through a generic table name.
type KeyDb = Kysely<Record<OneTimeKeyTable, OneTimeKeyColumns>>;

function oneTimeKeys<T extends OneTimeKeyTable>(
  table: T & (Database[T] extends OneTimeKeyColumns ? unknown : never),
): OneTimeKeys<Database[T]> {
  const name: OneTimeKeyTable = table;
  const keys = (db: Db) => db as unknown as KeyDb;
  return {
    async insert(db, row) {
      await keys(db).insertInto(name).values(row).execute();
    },
    async consume(db, orgId, keyHash, now) {
      const row = await keys(db)
        .updateTable(name)
        .set({ used_at: now })
        .where('key_hash', '=', keyHash)
        .where('org_id', '=', orgId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      return (row as Database[T] | undefined) ?? null;
    },
    async purge(db, expiredBefore) {
      await keys(db).deleteFrom(name).where('expires_at', '<', expiredBefore).execute();
    },
  };
}

/** Keys of POST /profile/session, opening the hosted profile page once. */
export const profileKeys = oneTimeKeys('profile_keys');

/** Impersonation links: each completes one authorization request as the user, once (audited on creation). */
export const impersonations = oneTimeKeys('impersonations');
