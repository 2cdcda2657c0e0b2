import type { Kysely } from 'kysely';

/**
 * Request objects (RFC 9101, issue 44): `clients.request_object_signing_alg`, the one algorithm a
 * client's request objects must use (OIDC Dynamic Client Registration §2), `none` included; null:
 * any signed one, never `none` (domain/sign-in/authorize/request-object.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('request_object_signing_alg', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('request_object_signing_alg').execute();
}
