import type { Kysely } from 'kysely';
import { addWithDefault } from './table-parts.js';

/**
 * Authorization codes bound to a DPoP key, and per-org signing algorithms (DESIGN §20).
 *
 * - `authorization_requests.dpop_jkt`, `authorization_codes.dpop_jkt` (RFC 9449 §10): the thumbprint
 *   of the key the authorization request named (`dpop_jkt`, or a pushed request's DPoP proof); the
 *   code is then redeemed only with a proof of that key. Null: not bound.
 * - `signing_keys.alg`: what the key signs with, `RS256` (every existing key), `ES256` or `PS256`.
 *   Each algorithm an org uses has its own active and next key, rotated together.
 * - `organizations.id_token_signing_alg`: the algorithm of the org's ID tokens, logout tokens,
 *   ID-JAGs and signed userinfo (`RS256` by default); access tokens are always RS256.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['authorization_requests', 'authorization_codes']) {
    await db.schema.alterTable(table).addColumn('dpop_jkt', 'text').execute();
  }
  await addWithDefault(db, 'signing_keys', 'alg', 'text', 'RS256');
  await addWithDefault(db, 'organizations', 'id_token_signing_alg', 'text', 'RS256');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('id_token_signing_alg').execute();
  await db.schema.alterTable('signing_keys').dropColumn('alg').execute();
  for (const table of ['authorization_codes', 'authorization_requests']) {
    await db.schema.alterTable(table).dropColumn('dpop_jkt').execute();
  }
}
