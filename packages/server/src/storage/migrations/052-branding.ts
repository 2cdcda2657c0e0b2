import type { Kysely } from 'kysely';
import { orgId, required } from './column-parts.js';
import { isPostgres } from './is-postgres.js';

/**
 * Branding (DESIGN §21): an org's brand (`client_id` '') and its clients' own (a client id), each one
 * JSON document of checked values (domain/branding/), and the images those name, kept per org by
 * their SHA-256 (the bytes as checked, at most 256 KB), so one org's host never serves another's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('brandings')
    .$call(orgId)
    .$call(required({ client_id: 'text', settings: 'text', updated_at: 'bigint' }))
    .addPrimaryKeyConstraint('brandings_pk', ['org_id', 'client_id'])
    .execute();
  await db.schema
    .createTable('brand_images')
    .$call(orgId)
    .$call(required({ sha256: 'text', media_type: 'text', width: 'integer', height: 'integer' }))
    .addColumn('bytes', isPostgres(db) ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('brand_images_pk', ['org_id', 'sha256'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('brand_images').execute();
  await db.schema.dropTable('brandings').execute();
}
