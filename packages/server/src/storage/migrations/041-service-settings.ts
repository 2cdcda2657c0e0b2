import type { Kysely } from 'kysely';
import { required } from './column-parts.js';
import { dropTables, keyedTable } from './table-parts.js';

/**
 * Settings of the service as a whole, one row per name, a JSON value each. The first is `served_url`:
 * the URL settings `tessera serve` last started with (TESSERA_URL, TESSERA_ISSUER_DOMAIN), so a CLI
 * command run with another environment prints the URLs the service answers at, not its own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(db, 'service_settings', 'name')
    .$call(required({ value: 'text', updated_at: 'bigint' }))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['service_settings']);
}
