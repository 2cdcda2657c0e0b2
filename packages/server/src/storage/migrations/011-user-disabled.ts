import type { Kysely } from 'kysely';
import { addFlag, tableIndex } from './table-parts.js';

/**
 * A user an owner disabled (`disabled` 1): their password sign-in is refused, and their sessions
 * were ended when it was set. Every existing user stays enabled. Ending a user's sessions also
 * deletes their browser sessions (the login cookies), found by user through the new index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await addFlag(db, 'users', 'disabled');
  await tableIndex(db, 'browser_sessions_user', 'browser_sessions', ['user_id']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('browser_sessions_user').ifExists().execute();
  await db.schema.alterTable('users').dropColumn('disabled').execute();
}
