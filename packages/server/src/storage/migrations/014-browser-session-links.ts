import type { Kysely } from 'kysely';
import { tableIndex } from './table-parts.js';

/**
 * Each OAuth session remembers the browser sign-in it was opened from (`browser_session`, the
 * login cookie's hash), so signing out of a browser (RP-Initiated Logout, the profile page's
 * button) ends the OAuth sessions of that browser too. Sessions opened before have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_sessions').addColumn('browser_session', 'text').execute();
  await tableIndex(db, 'oauth_sessions_browser_session', 'oauth_sessions', ['browser_session']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('oauth_sessions_browser_session').ifExists().execute();
  await db.schema.alterTable('oauth_sessions').dropColumn('browser_session').execute();
}
