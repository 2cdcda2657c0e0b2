import type { Kysely } from 'kysely';

/** One row per counted request, per bucket: an exact sliding window shared by every node. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rate_limit_hits_bucket_at')
    .on('rate_limit_hits')
    .columns(['bucket', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_hits').ifExists().execute();
}
