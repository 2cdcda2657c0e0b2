import { type Kysely, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

/**
 * On PostgreSQL, a change to `organizations` (a rename, a new org, a deleted one) is announced at commit on
 * the credentials channel of migration 008, so every node drops its org lookups at once as it does
 * its client lookups, instead of serving them until the cache's bound for a missed notification.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create trigger orgs_credentials_changed
    after insert or update or delete or truncate on organizations
    for each statement execute function tessera_credentials_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger orgs_credentials_changed on organizations`.execute(db);
}
