import type { Kysely } from 'kysely';
import { required, singleUse } from './column-parts.js';
import { addFlag, dropTables, expiryIndex, orgTable } from './table-parts.js';

/**
 * Pushed authorization requests (RFC 9126, DESIGN §20): `pushed_authorization_requests`, one row per
 * `request_uri` (only the SHA-256 of its random part is kept), holding the pushed parameters for 60
 * seconds and used once (a one-time key: storage/repos/one-time-keys.ts). And whether an org, or one
 * client, must push its authorization requests (`require_pushed_authorization_requests`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await orgTable(db, 'pushed_authorization_requests', 'key_hash')
    // No reference: a metadata-document client's id is its URL, not a row of `clients`.
    .$call(required({ client_id: 'text', parameters: 'text' }))
    .$call(singleUse)
    .execute();
  await expiryIndex(db, 'pushed_authorization_requests_expiry', 'pushed_authorization_requests');
  for (const table of ['organizations', 'clients']) {
    await addFlag(db, table, 'require_pushed_authorization_requests');
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['organizations', 'clients']) {
    await db.schema.alterTable(table).dropColumn('require_pushed_authorization_requests').execute();
  }
  await dropTables(db, ['pushed_authorization_requests']);
}
