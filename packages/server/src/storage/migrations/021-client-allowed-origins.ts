import type { Kysely } from 'kysely';

/**
 * The browser origins a client's pages may call the token, revocation and userinfo endpoints from
 * (CORS, DESIGN §14): a JSON array, or null for the default — the origins of the client's redirect
 * URIs, followed as they change. Every existing client keeps the default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('allowed_origins', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('allowed_origins').execute();
}
