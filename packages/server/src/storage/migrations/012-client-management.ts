import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { addWithDefault } from './table-parts.js';

/**
 * What the management API keeps of a client beyond the first schema: the URIs it may send people
 * to after sign-out (`post_logout_redirect_uris`, a JSON array, empty for every existing client),
 * and when its current secret was issued (`secret_issued_at`; confidential clients only), so a
 * secret rotation shows in the client's audit entry without the secret. Existing confidential
 * clients got their secret when they were created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addWithDefault(db, 'clients', 'post_logout_redirect_uris', 'text', '[]');
  await db.schema.alterTable('clients').addColumn('secret_issued_at', 'bigint').execute();
  await sql`update clients set secret_issued_at = created_at where secret_hash is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('secret_issued_at').execute();
  await db.schema.alterTable('clients').dropColumn('post_logout_redirect_uris').execute();
}
