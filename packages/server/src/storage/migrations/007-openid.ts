import type { Kysely } from 'kysely';

/**
 * OpenID Connect: the `nonce` of an authorization request travels with its code into the ID
 * token; `auth_time` is when the person actually signed in (the browser session's start), which
 * can be hours before the OAuth session opens, and every ID token of the session repeats it.
 * Rows written before this migration have no auth_time: their session's `created_at` stands in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_requests').addColumn('nonce', 'text').execute();
  await db.schema.alterTable('authorization_codes').addColumn('nonce', 'text').execute();
  await db.schema.alterTable('oauth_sessions').addColumn('auth_time', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_sessions').dropColumn('auth_time').execute();
  await db.schema.alterTable('authorization_codes').dropColumn('nonce').execute();
  await db.schema.alterTable('authorization_requests').dropColumn('nonce').execute();
}
