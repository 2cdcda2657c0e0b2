import { type Kysely, sql } from 'kysely';
import { isPostgres } from './is-postgres.js';

/** The channel new audit entries of an org with an active log stream are announced on (PostgreSQL only). */
export const LOG_STREAM_CHANNEL = 'tessera_log_streams';

/**
 * On PostgreSQL, an audit entry written for an org that has an active log stream (by any process: a
 * server node, the CLI, plain SQL) sends a NOTIFY at commit, so a node's stream worker starts on it at
 * once instead of polling for it. The check is one probe of `log_streams_org` inside the INSERT (no
 * round trip); an org without a stream sends nothing, and PostgreSQL folds the NOTIFYs of one
 * transaction into one. SQLite's stream workers poll (its writers share one file).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create function tessera_audit_streamed() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from log_streams where org_id = new.org_id and active = 1) then
        perform pg_notify(${sql.lit(LOG_STREAM_CHANNEL)}, '');
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger audit_events_streamed after insert on audit_events
    for each row execute function tessera_audit_streamed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`drop trigger audit_events_streamed on audit_events`.execute(db);
  await sql`drop function tessera_audit_streamed()`.execute(db);
}
