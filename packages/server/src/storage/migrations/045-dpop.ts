import type { Kysely } from 'kysely';
import { addFlag, dropTables, expiryIndex, keyedTable } from './table-parts.js';

/**
 * DPoP (RFC 9449, DESIGN §20).
 *
 * - `dpop_proof_jtis`: each accepted proof's `jti` (with its key's thumbprint, as one SHA-256) until
 *   the proof could no longer be accepted, so a proof is used once across every node: a second insert
 *   of the same key conflicts. Rows are purged by `expires_at`.
 * - `refresh_tokens.dpop_jkt`: the thumbprint of the key a public client's refresh token is bound to
 *   (RFC 9449 §5); null: not bound.
 * - `clients.dpop_bound_access_tokens` (RFC 9449 §5.2): 1 = every token request must carry a proof.
 * - `clients.dpop_nonce_required`: 1 = proofs must carry a nonce this service handed out (§8).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await keyedTable(db, 'dpop_proof_jtis', 'jti_hash')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await expiryIndex(db, 'dpop_proof_jtis_expires', 'dpop_proof_jtis');
  await db.schema.alterTable('refresh_tokens').addColumn('dpop_jkt', 'text').execute();
  await addFlag(db, 'clients', 'dpop_bound_access_tokens');
  await addFlag(db, 'clients', 'dpop_nonce_required');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('dpop_nonce_required').execute();
  await db.schema.alterTable('clients').dropColumn('dpop_bound_access_tokens').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('dpop_jkt').execute();
  await dropTables(db, ['dpop_proof_jtis']);
}
