import type { ColumnBuilderCallback, CreateTableBuilder, Kysely } from 'kysely';

/*
 * The columns and indexes many tables are made of, written once. Migrations that have already run
 * on installed databases use them: what each makes must never change (a table that needs another
 * shape writes its columns out).
 */

/** A column naming the row its own row goes with (`table.column`): not null, deleted with it. */
export const belongsTo =
  (target: string): ColumnBuilderCallback =>
  (c) =>
    c.notNull().references(target).onDelete('cascade');

/** `org_id`, the org a row belongs to: deleting the org deletes the row. */
export const orgId = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table.addColumn('org_id', 'text', belongsTo('organizations.id'));

/** `created_at` and `updated_at`, epoch ms. */
export const timestamps = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull());

/** A short-lived row's `created_at` and `expires_at`, epoch ms (see expiryIndex). */
export const lifespan = <T extends string, C extends string>(table: CreateTableBuilder<T, C>) =>
  table
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull());

/** A table of an org's rows, each with a key of its own: `key` (text, the primary key), then `org_id`. */
export const orgTable = (db: Kysely<unknown>, name: string, key = 'id') =>
  db.schema
    .createTable(name)
    .addColumn(key, 'text', (c) => c.primaryKey())
    .$call(orgId);

/**
 * A table relating rows of other tables: a column naming each (`column: 'table.column'`, deleted
 * with the row it names), the columns together its primary key (`<name>_pk`).
 */
export function linkTable(db: Kysely<unknown>, name: string, links: Record<string, string>) {
  let table: CreateTableBuilder<string, string> = db.schema.createTable(name);
  for (const [column, target] of Object.entries(links))
    table = table.addColumn(column, 'text', belongsTo(target));
  return table.addPrimaryKeyConstraint(`${name}_pk`, Object.keys(links));
}

/** An index `name` of `table` on `columns`, in their order; `unique` when each key may be held by one row only. */
export async function tableIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: string[],
  options: { unique?: boolean } = {},
): Promise<void> {
  const index = db.schema.createIndex(name).on(table).columns(columns);
  await (options.unique ? index.unique() : index).execute();
}

/** The index short-lived rows are found by when they are purged (as new ones are written). */
export async function expiryIndex(db: Kysely<unknown>, name: string, table: string): Promise<void> {
  await tableIndex(db, name, table, ['expires_at']);
}

/** A 0/1 flag added to `table`, 0 on every row it has. */
export async function addFlag(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  await db.schema
    .alterTable(table)
    .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

/** Drops `tables` in the order given (the tables naming others first), each if it is there. */
export async function dropTables(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).ifExists().execute();
}
