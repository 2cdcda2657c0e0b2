import type { Kysely } from 'kysely';
import { required } from './column-parts.js';
import { dropTables, tableIndex } from './table-parts.js';

/** One row per counted request, per bucket: an exact sliding window shared by every node. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .$call(required({ bucket: 'text', at: 'bigint' }))
    .execute();
  await tableIndex(db, 'rate_limit_hits_bucket_at', 'rate_limit_hits', ['bucket', 'at']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['rate_limit_hits']);
}
