import type { Kysely } from 'kysely';

/**
 * A rotated refresh token remembers the token issued in its place (`rotated_to`, its SHA-256), so
 * the loser of two concurrent refreshes can be told apart from a replay: presenting the token just
 * rotated, while its successor is still unused and within the grace, does not revoke the session.
 * Rows written before this migration have none: presenting them again is reuse, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('rotated_to', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('rotated_to').execute();
}
