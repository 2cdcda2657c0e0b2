import { type Kysely, sql } from 'kysely';
import { belongsTo, singleUse } from './column-parts.js';
import { addFlag, dropTables, expiryIndex, orgTable, tableIndex } from './table-parts.js';

/**
 * Mail (DESIGN §12): whether a user's address is verified (`email_verified` 1 once a verification
 * or reset link sent to it was followed; every existing user starts unverified), and the one-time
 * links mailed to users. A link is stored as the SHA-256 of its token only, with the purpose it
 * serves (`reset` a password, `verify` an address), the address it was sent to (a link stops
 * working once the user's address is another), its expiry and its use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addFlag(db, 'users', 'email_verified');
  await orgTable(db, 'mail_tokens', 'token_hash')
    .addColumn('user_id', 'text', belongsTo('users.id'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('reset', 'verify')`))
    .addColumn('sent_to', 'text', (c) => c.notNull())
    .$call(singleUse)
    .execute();
  await tableIndex(db, 'mail_tokens_user', 'mail_tokens', ['user_id', 'purpose']);
  await expiryIndex(db, 'mail_tokens_expires', 'mail_tokens');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTables(db, ['mail_tokens']);
  await db.schema.alterTable('users').dropColumn('email_verified').execute();
}
