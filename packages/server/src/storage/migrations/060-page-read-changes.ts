import type { Kysely } from 'kysely';
import { announceChanges, unannounceChanges } from './credential-announcements.js';

/**
 * What every hosted page of a sign-in reads per org — its texts overrides, its brands, its
 * connections, whether it requires a second factor — is kept in memory like the clients, keys, orgs
 * and service accounts the token endpoint keeps (domain/credential-cache.ts), so a change to these
 * tables is announced the same way: on PostgreSQL on the credentials channel of migration 008 at
 * commit, on SQLite by raising migration 030's counter.
 */
const TABLES = ['org_texts', 'brandings', 'connections', 'org_sign_in_policies'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await announceChanges(db, TABLES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await unannounceChanges(db, TABLES);
}
