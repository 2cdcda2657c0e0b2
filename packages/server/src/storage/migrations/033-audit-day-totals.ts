import { type Kysely, sql } from 'kysely';
import { orgId, required } from './column-parts.js';
import { isPostgres } from './is-postgres.js';
import { dropTables } from './table-parts.js';

/**
 * Entries per org and sealed UTC day, of every key: the sum of that day's `audit_event_counts`
 * rows, kept by a trigger on that table in the same transaction as the seal that writes them (by
 * any process, whatever its version: a node still running the code before this migration seals
 * days too). Count rows are only ever inserted (a seal's insert skips the rows another node wrote
 * first: those add nothing) or removed with their org, which removes its totals too. The events
 * list without an entity/verb/key filter sums its sealed days from here, one row a day, instead of
 * grouping every count row of the org (12,000 a year at 32 keys): about 11 ms of a fresh SQLite
 * process's first request (bench/events).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_day_totals')
    .$call(orgId)
    .$call(required({ day: 'bigint', n: 'bigint' }))
    .addPrimaryKeyConstraint('audit_day_totals_pk', ['org_id', 'day'])
    .execute();
  if (isPostgres(db)) {
    await sql`
      create function audit_day_totals_added() returns trigger language plpgsql as $$
      begin
        insert into audit_day_totals (org_id, day, n)
          select org_id, day, sum(n) from added group by org_id, day
          on conflict (org_id, day) do update set n = audit_day_totals.n + excluded.n;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger audit_day_totals_added after insert on audit_event_counts
      referencing new table as added for each statement execute function audit_day_totals_added()`.execute(
      db,
    );
    // TRUNCATE fires no delete trigger: it empties the totals as it empties the counts.
    await sql`
      create function audit_day_totals_truncated() returns trigger language plpgsql as $$
      begin
        delete from audit_day_totals;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger audit_day_totals_truncated after truncate on audit_event_counts
      for each statement execute function audit_day_totals_truncated()`.execute(db);
  } else {
    await sql`
      create trigger audit_day_totals_added after insert on audit_event_counts
      begin
        insert into audit_day_totals (org_id, day, n) values (new.org_id, new.day, new.n)
          on conflict (org_id, day) do update set n = n + excluded.n;
      end`.execute(db);
  }
  await sql`
    insert into audit_day_totals (org_id, day, n)
    select org_id, day, sum(n) from audit_event_counts group by org_id, day`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists audit_day_totals_added on audit_event_counts`.execute(db);
    await sql`drop trigger if exists audit_day_totals_truncated on audit_event_counts`.execute(db);
    await sql`drop function if exists audit_day_totals_added()`.execute(db);
    await sql`drop function if exists audit_day_totals_truncated()`.execute(db);
  } else {
    await sql`drop trigger if exists audit_day_totals_added`.execute(db);
  }
  await dropTables(db, ['audit_day_totals']);
}
