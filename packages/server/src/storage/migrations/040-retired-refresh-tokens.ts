import type { Kysely } from 'kysely';

/**
 * A refresh token retired unused (issue 48): `refresh_tokens.retired_at`, set on the successor a
 * rotation issued when its predecessor is presented again within the reuse grace by the same client
 * (the answer carrying the successor was lost). A retired token is refused without revoking the
 * session: it was never received, so presenting it is no proof of theft. Null on every other row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('retired_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('retired_at').execute();
}
