import type { Kysely } from 'kysely';
import { addFlag } from './table-parts.js';

/**
 * Whether an org's issuer offers dynamic registration (RFC 7591) and Client ID Metadata Documents
 * (DESIGN §15): 0/1, off for every org until an owner turns them on. On the org's row, so the org
 * lookup of each request carries them and a change reaches every node like a rename does (013).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addFlag(db, 'organizations', 'dynamic_registration');
  await addFlag(db, 'organizations', 'metadata_documents');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('metadata_documents').execute();
  await db.schema.alterTable('organizations').dropColumn('dynamic_registration').execute();
}
