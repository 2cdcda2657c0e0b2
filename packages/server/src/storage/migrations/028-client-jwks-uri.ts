import type { Kysely } from 'kysely';

/**
 * `private_key_jwt` with keys published by the client (RFC 7591 `jwks_uri`, DESIGN §14):
 * `clients.jwks_uri`, the https URL of its JWK Set, fetched under the metadata-document policy;
 * null: none. A client has `jwks` or `jwks_uri`, never both (checked by the domain).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('jwks_uri', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('jwks_uri').execute();
}
