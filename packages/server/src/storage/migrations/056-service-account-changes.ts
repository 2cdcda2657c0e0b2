import type { Kysely } from 'kysely';
import { announceChanges, unannounceChanges } from './credential-announcements.js';

/**
 * A service account's binding (its org, its scopes) is kept in memory by the management API's token
 * check like the clients and keys the token endpoint keeps (domain/credential-cache.ts), so a change
 * to `service_accounts` is announced the same way: on PostgreSQL on the credentials channel of
 * migration 008 at commit, on SQLite by raising migration 030's counter.
 */
const TABLES = ['service_accounts'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await announceChanges(db, TABLES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await unannounceChanges(db, TABLES);
}
