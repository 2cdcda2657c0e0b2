import type { ColumnDataType, CreateTableBuilder, Kysely } from 'kysely';
import { belongsTo, orgId } from './column-parts.js';

/*
 * The tables and indexes many migrations make, written once (column-parts.ts holds the columns they
 * share). Migrations that have already run on installed databases use them: what each makes must
 * never change (a table that needs another shape writes its columns out).
 */

/** A table whose rows each have a key of their own: `key`, text, its primary key. */
export const keyedTable = (db: Kysely<unknown>, name: string, key: string) =>
  db.schema.createTable(name).addColumn(key, 'text', (c) => c.primaryKey());

/** A table of an org's rows, each with a key of its own: `key` (text, the primary key), then `org_id`. */
export const orgTable = (db: Kysely<unknown>, name: string, key = 'id') =>
  keyedTable(db, name, key).$call(orgId);

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

/** A not-null column added to `table`, `value` on every row it has (and on new rows that name no other). */
export async function addWithDefault(
  db: Kysely<unknown>,
  table: string,
  column: string,
  type: ColumnDataType,
  value: string | number,
): Promise<void> {
  await db.schema
    .alterTable(table)
    .addColumn(column, type, (c) => c.notNull().defaultTo(value))
    .execute();
}

/** A 0/1 flag added to `table`, 0 on every row it has. */
export async function addFlag(db: Kysely<unknown>, table: string, column: string): Promise<void> {
  await addWithDefault(db, table, column, 'integer', 0);
}

/** Drops `tables` in the order given (the tables naming others first), each if it is there. */
export async function dropTables(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await db.schema.dropTable(table).ifExists().execute();
}

/** Nullable columns added to existing tables (`{ table: { column: type } }`), in the order given. */
type AddedColumns = Record<string, Record<string, ColumnDataType>>;

/**
 * A migration that only adds nullable columns to tables that exist: `up` adds them in the order
 * given, `down` drops them in the reverse order.
 */
export function addedColumns(tables: AddedColumns): {
  up(db: Kysely<unknown>): Promise<void>;
  down(db: Kysely<unknown>): Promise<void>;
} {
  const columns = Object.entries(tables).flatMap(([table, added]) =>
    Object.entries(added).map(([column, type]) => ({ table, column, type })),
  );
  return {
    async up(db) {
      for (const { table, column, type } of columns)
        await db.schema.alterTable(table).addColumn(column, type).execute();
    },
    async down(db) {
      for (const { table, column } of [...columns].reverse())
        await db.schema.alterTable(table).dropColumn(column).execute();
    },
  };
}
