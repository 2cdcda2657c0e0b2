import { type Kysely, PostgresAdapter, sql } from 'kysely';

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The length of a count's day, in the unit of `users.created_at` (ms). */
export const USER_COUNT_DAY_MS = 86_400_000;

/**
 * How many users each org has, per UTC day of `created_at`, kept by triggers on `users` in the
 * same transaction as every insert and delete (by any process: the server, the CLI, plain SQL, a
 * cascade from a deleted org). The users list reads its total from here instead of counting a
 * million index entries per request, and finds a page by summing days and skipping inside one
 * (storage/repos/users.ts). A user's org and `created_at` never change, so updates need nothing.
 *
 * On PostgreSQL the triggers run once per statement over its transition table (a bulk insert adds
 * one row per day it touched); sign-ups of one org on one day update the same row, which each holds
 * from its insert to its commit (the rest of a sign-up's transaction: a few statements). Rows a
 * delete brings to 0 stay; the list skips them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_day_counts')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_day_counts_pk', ['org_id', 'day'])
    .execute();
  const day = sql.lit(USER_COUNT_DAY_MS);
  if (isPostgres(db)) {
    await sql`
      create function tessera_users_added() returns trigger language plpgsql as $$
      begin
        insert into user_day_counts (org_id, day, n)
          select org_id, created_at / ${day}, count(*) from added group by 1, 2
          on conflict (org_id, day) do update set n = user_day_counts.n + excluded.n;
        return null;
      end $$`.execute(db);
    await sql`
      create function tessera_users_removed() returns trigger language plpgsql as $$
      begin
        update user_day_counts c set n = c.n - r.k
          from (select org_id, created_at / ${day} as day, count(*) as k from removed group by 1, 2) r
          where c.org_id = r.org_id and c.day = r.day;
        return null;
      end $$`.execute(db);
    await sql`
      create trigger users_day_counts_added after insert on users
      referencing new table as added for each statement execute function tessera_users_added()`.execute(db);
    await sql`
      create trigger users_day_counts_removed after delete on users
      referencing old table as removed for each statement execute function tessera_users_removed()`.execute(
      db,
    );
  } else {
    await sql`
      create trigger users_day_counts_added after insert on users
      begin
        insert into user_day_counts (org_id, day, n) values (new.org_id, new.created_at / ${day}, 1)
          on conflict (org_id, day) do update set n = n + 1;
      end`.execute(db);
    await sql`
      create trigger users_day_counts_removed after delete on users
      begin
        update user_day_counts set n = n - 1 where org_id = old.org_id and day = old.created_at / ${day};
      end`.execute(db);
  }
  await sql`
    insert into user_day_counts (org_id, day, n)
      select org_id, created_at / ${day}, count(*) from users group by 1, 2`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger users_day_counts_added on users`.execute(db);
    await sql`drop trigger users_day_counts_removed on users`.execute(db);
    await sql`drop function tessera_users_added()`.execute(db);
    await sql`drop function tessera_users_removed()`.execute(db);
  } else {
    await sql`drop trigger users_day_counts_added`.execute(db);
    await sql`drop trigger users_day_counts_removed`.execute(db);
  }
  await db.schema.dropTable('user_day_counts').execute();
}
