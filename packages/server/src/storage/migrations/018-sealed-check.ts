import type { Kysely } from 'kysely';
import { required } from './column-parts.js';
import { dropTables, keyedTable } from './table-parts.js';

/**
 * A value sealed with the database's TESSERA_SECRET (domain/keys/secret-check.ts): a process whose
 * secret cannot open it refuses to start, instead of starting and failing every request that needs
 * a sealed value (signing keys, webhook secrets). One row per check; written at the first start
 * after this migration, by the first process that starts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(db, 'sealed_checks', 'name')
    .$call(required({ sealed: 'text', created_at: 'bigint' }))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['sealed_checks']);
}
