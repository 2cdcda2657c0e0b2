import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The length of a count's day, in the unit of `created_at` (ms). */
export const LIST_DAY_MS = 86_400_000;

/** The lists counted: each is its table, whose rows have `org_id` and `created_at`. */
export const COUNTED_LISTS = ['users', 'clients'] as const;
export type CountedList = (typeof COUNTED_LISTS)[number];

/**
 * How many rows each org has in the users and clients lists, per UTC day of `created_at`, kept by
 * triggers on those tables in the same transaction as every insert and delete (by any process: the
 * server, the CLI, plain SQL, a cascade from a deleted org). The lists read their total from here
 * instead of counting up to a million index entries per request, and find a page by summing days
 * and skipping inside one (storage/repos/list-day-counts.ts). A row's org and `created_at` never
 * change, so updates need nothing.
 *
 * On PostgreSQL the triggers run once per statement over its transition table (a bulk insert adds
 * one row per day it touched). Sign-ups of one org on one day update the same row, which each holds
 * from its insert to its commit (the rest of a sign-up's transaction: a few statements). Rows a
 * delete brings to 0 stay; the lists skip them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('list_day_counts')
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_day_counts_pk', ['list', 'org_id', 'day'])
    .execute();
  const day = sql.lit(LIST_DAY_MS);
  for (const list of COUNTED_LISTS) {
    const name = sql.lit(list);
    const added = sql.raw(`${list}_day_counts_added`);
    const removed = sql.raw(`${list}_day_counts_removed`);
    if (isPostgres(db)) {
      await sql`
        create function ${added}() returns trigger language plpgsql as $$
        begin
          insert into list_day_counts (list, org_id, day, n)
            select ${name}, org_id, created_at / ${day}, count(*) from added group by 2, 3
            on conflict (list, org_id, day) do update set n = list_day_counts.n + excluded.n;
          return null;
        end $$`.execute(db);
      await sql`
        create function ${removed}() returns trigger language plpgsql as $$
        begin
          update list_day_counts c set n = c.n - r.k
            from (select org_id, created_at / ${day} as day, count(*) as k from removed group by 1, 2) r
            where c.list = ${name} and c.org_id = r.org_id and c.day = r.day;
          return null;
        end $$`.execute(db);
      await sql`
        create trigger ${added} after insert on ${sql.table(list)}
        referencing new table as added for each statement execute function ${added}()`.execute(db);
      await sql`
        create trigger ${removed} after delete on ${sql.table(list)}
        referencing old table as removed for each statement execute function ${removed}()`.execute(db);
    } else {
      await sql`
        create trigger ${added} after insert on ${sql.table(list)}
        begin
          insert into list_day_counts (list, org_id, day, n)
            values (${name}, new.org_id, new.created_at / ${day}, 1)
            on conflict (list, org_id, day) do update set n = n + 1;
        end`.execute(db);
      await sql`
        create trigger ${removed} after delete on ${sql.table(list)}
        begin
          update list_day_counts set n = n - 1
            where list = ${name} and org_id = old.org_id and day = old.created_at / ${day};
        end`.execute(db);
    }
    await sql`
      insert into list_day_counts (list, org_id, day, n)
        select ${name}, org_id, created_at / ${day}, count(*) from ${sql.table(list)} group by 2, 3`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const list of COUNTED_LISTS) {
    const added = sql.raw(`${list}_day_counts_added`);
    const removed = sql.raw(`${list}_day_counts_removed`);
    if (isPostgres(db)) {
      await sql`drop trigger ${added} on ${sql.table(list)}`.execute(db);
      await sql`drop trigger ${removed} on ${sql.table(list)}`.execute(db);
      await sql`drop function ${added}()`.execute(db);
      await sql`drop function ${removed}()`.execute(db);
    } else {
      await sql`drop trigger ${added}`.execute(db);
      await sql`drop trigger ${removed}`.execute(db);
    }
  }
  await db.schema.dropTable('list_day_counts').execute();
}
