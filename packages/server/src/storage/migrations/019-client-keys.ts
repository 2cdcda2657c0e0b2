import type { Kysely } from 'kysely';
import { orgId, required } from './column-parts.js';
import { dropTables, expiryIndex } from './table-parts.js';

/**
 * Client authentication with `private_key_jwt` (RFC 7523, DESIGN §14). A client may register its
 * public keys: `clients.jwks`, a JSON Web Key Set as JSON text (null: the client has none).
 *
 * `client_assertion_jtis` remembers each accepted assertion's `jti` (as its SHA-256) until the
 * assertion expires, so an assertion is accepted once: a second insert of the same key conflicts.
 * Rows are purged by `expires_at` as new ones are written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('jwks', 'text').execute();
  await db.schema
    .createTable('client_assertion_jtis')
    .$call(orgId)
    .$call(required({ client_id: 'text', jti_hash: 'text', expires_at: 'bigint' }))
    .addPrimaryKeyConstraint('client_assertion_jtis_pk', ['org_id', 'client_id', 'jti_hash'])
    .execute();
  await expiryIndex(db, 'client_assertion_jtis_expires', 'client_assertion_jtis');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['client_assertion_jtis']);
  await db.schema.alterTable('clients').dropColumn('jwks').execute();
}
