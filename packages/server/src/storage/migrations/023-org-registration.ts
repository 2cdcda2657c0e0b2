import type { Kysely } from 'kysely';

/**
 * Whether an org's issuer offers dynamic registration (RFC 7591) and Client ID Metadata Documents
 * (DESIGN §15): 0/1, off for every org until an owner turns them on. On the org's row, so the org
 * lookup of each request carries them and a change reaches every node like a rename does (013).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('dynamic_registration', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('metadata_documents', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('metadata_documents').execute();
  await db.schema.alterTable('organizations').dropColumn('dynamic_registration').execute();
}
