import { type Kysely, sql } from 'kysely';

/**
 * Mail (DESIGN §12): whether a user's address is verified (`email_verified` 1 once a verification
 * or reset link sent to it was followed; every existing user starts unverified), and the one-time
 * links mailed to users. A link is stored as the SHA-256 of its token only, with the purpose it
 * serves (`reset` a password, `verify` an address), the address it was sent to (a link stops
 * working once the user's address is another), its expiry and its use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('mail_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('reset', 'verify')`))
    .addColumn('sent_to', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('mail_tokens_user').on('mail_tokens').columns(['user_id', 'purpose']).execute();
  await db.schema.createIndex('mail_tokens_expires').on('mail_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_tokens').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('email_verified').execute();
}
