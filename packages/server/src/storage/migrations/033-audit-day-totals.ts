import { type Kysely, sql } from 'kysely';

/**
 * Entries per org and sealed UTC day, of every key: written with the day's per-key counts when it
 * is sealed (repos/audit-counts.ts). The events list without an entity/verb/key filter sums its
 * sealed days from here, one row a day, instead of grouping every (day, key) count row of the org
 * (12,000 a year at 32 keys): that read was most of a fresh process's first request (bench/events).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_day_totals')
    .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('day', 'bigint', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_day_totals_pk', ['org_id', 'day'])
    .execute();
  await sql`
    insert into audit_day_totals (org_id, day, n)
    select org_id, day, sum(n) from audit_event_counts group by org_id, day`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_day_totals').ifExists().execute();
}
