import { type Kysely, sql } from 'kysely';
import { orgId, required } from './column-parts.js';
import { isPostgres } from './is-postgres.js';

/** The spans rows are counted in, each with its length in the unit of `created_at` (ms). */
export const SPANS = { day: 86_400_000, hour: 3_600_000 } as const;
export type Span = keyof typeof SPANS;

/** The lists counted: each is its table, whose rows have `org_id` and `created_at`. */
export const COUNTED_LISTS = ['users', 'clients'] as const;
export type CountedList = (typeof COUNTED_LISTS)[number];

/**
 * How many rows each org has in the users and clients lists per UTC day and per hour of
 * `created_at` (`bucket` = `created_at` ÷ the span's length), kept by triggers on those tables in
 * the same transaction as every insert and delete (by any process: the server, the CLI, plain SQL,
 * a cascade from a deleted org). The lists read their total from the days instead of counting up to
 * a million index entries per request, and find a page by summing days, then the hours of its day,
 * and skipping inside one hour (storage/repos/list-counts.ts). A row's org and `created_at` never
 * change, so updates need nothing.
 *
 * On PostgreSQL the triggers run once per statement over its transition table (a bulk insert adds
 * one row per day and hour it touched), and a TRUNCATE of the table empties its list's counts.
 * Sign-ups of one org in one hour update the same two rows, which each holds from its insert to its
 * commit (the rest of a sign-up's transaction: a few statements). Rows a delete brings to 0 stay;
 * the lists skip them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('list_counts')
    .addColumn('list', 'text', (c) => c.notNull())
    .$call(orgId)
    .$call(required({ span: 'text', bucket: 'bigint', n: 'bigint' }))
    .addPrimaryKeyConstraint('list_counts_pk', ['list', 'org_id', 'span', 'bucket'])
    .execute();
  // Each span and its length, as a table both dialects read: (select 'day' as span, 86400000 as ms union all …) s.
  const spans = sql.raw(
    `(${Object.entries(SPANS)
      .map(([span, ms]) => `select '${span}' as span, ${ms} as ms`)
      .join(' union all ')}) s`,
  );
  for (const list of COUNTED_LISTS) {
    const name = sql.lit(list);
    const added = sql.raw(`${list}_counts_added`);
    const removed = sql.raw(`${list}_counts_removed`);
    const truncated = sql.raw(`${list}_counts_truncated`);
    if (isPostgres(db)) {
      await sql`
        create function ${added}() returns trigger language plpgsql as $$
        begin
          insert into list_counts (list, org_id, span, bucket, n)
            select ${name}, org_id, s.span, created_at / s.ms, count(*) from added, ${spans}
            group by 2, 3, 4
            on conflict (list, org_id, span, bucket) do update set n = list_counts.n + excluded.n;
          return null;
        end $$`.execute(db);
      await sql`
        create function ${removed}() returns trigger language plpgsql as $$
        begin
          update list_counts c set n = c.n - r.k
            from (select org_id, s.span, created_at / s.ms as bucket, count(*) as k from removed, ${spans}
                  group by 1, 2, 3) r
            where c.list = ${name} and c.org_id = r.org_id and c.span = r.span and c.bucket = r.bucket;
          return null;
        end $$`.execute(db);
      // TRUNCATE fires no delete trigger: it empties the list's counts as it empties the table.
      await sql`
        create function ${truncated}() returns trigger language plpgsql as $$
        begin
          delete from list_counts where list = ${name};
          return null;
        end $$`.execute(db);
      await sql`
        create trigger ${truncated} after truncate on ${sql.table(list)}
        for each statement execute function ${truncated}()`.execute(db);
      await sql`
        create trigger ${added} after insert on ${sql.table(list)}
        referencing new table as added for each statement execute function ${added}()`.execute(db);
      await sql`
        create trigger ${removed} after delete on ${sql.table(list)}
        referencing old table as removed for each statement execute function ${removed}()`.execute(db);
    } else {
      const upserts = Object.entries(SPANS).map(
        ([span, ms]) =>
          `insert into list_counts (list, org_id, span, bucket, n)
             values ('${list}', new.org_id, '${span}', new.created_at / ${ms}, 1)
             on conflict (list, org_id, span, bucket) do update set n = n + 1;`,
      );
      const updates = Object.entries(SPANS).map(
        ([span, ms]) =>
          `update list_counts set n = n - 1 where list = '${list}' and org_id = old.org_id
             and span = '${span}' and bucket = old.created_at / ${ms};`,
      );
      await sql`
        create trigger ${added} after insert on ${sql.table(list)}
        begin ${sql.raw(upserts.join('\n'))} end`.execute(db);
      await sql`
        create trigger ${removed} after delete on ${sql.table(list)}
        begin ${sql.raw(updates.join('\n'))} end`.execute(db);
    }
    await sql`
      insert into list_counts (list, org_id, span, bucket, n)
        select ${name}, org_id, s.span, created_at / s.ms, count(*) from ${sql.table(list)}, ${spans}
        group by 2, 3, 4`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const list of COUNTED_LISTS) {
    const added = sql.raw(`${list}_counts_added`);
    const removed = sql.raw(`${list}_counts_removed`);
    const truncated = sql.raw(`${list}_counts_truncated`);
    if (isPostgres(db)) {
      for (const trigger of [added, removed, truncated]) {
        await sql`drop trigger ${trigger} on ${sql.table(list)}`.execute(db);
        await sql`drop function ${trigger}()`.execute(db);
      }
    } else {
      await sql`drop trigger ${added}`.execute(db);
      await sql`drop trigger ${removed}`.execute(db);
    }
  }
  await db.schema.dropTable('list_counts').execute();
}
