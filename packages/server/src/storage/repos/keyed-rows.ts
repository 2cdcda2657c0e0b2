import type { SelectQueryBuilder } from 'kysely';
import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { Database } from '../schema.js';
import type { Executable } from './expiry.js';
import { oldestFirst } from './org-rows.js';
import { countRows } from './paged-rows.js';
import { replaceRows } from './replace-rows.js';

/**
 * The statements a repository spells out by a few of its table's columns, written once for every
 * table: a row found, listed, counted, changed or deleted where its columns are given values
 * (`tableOf('consents').rowWhere(store, { user_id: userId, client_id: clientId })`). Each WHERE is
 * the chain of conditions a repository wrote by hand, in the order given, so every statement's text
 * is what it was. Typed by the few methods they call, as Kysely cannot resolve a column through a
 * generic table name (org-rows.ts says the same); the columns and values are checked against the
 * table's row. Every repository's tests run them on both databases.
 */

/**
 * What a keyed statement tests of a column, written as the column's key: its value (`=`), null
 * (`is null`), a list of values (`in`: never empty, which is no statement) or `after(n)` (`> n`: a
 * row live after now). The WHERE tests the keys in the order they are written, so a statement's
 * text (a prepared statement's name) is the one spelled out.
 */
export type Conditions<Row> = {
  [C in keyof Row]?: Row[C] | readonly NonNullable<Row[C]>[] | (number extends Row[C] ? After : never);
};

/** The condition `> bound` on a column (see Conditions): `{ expires_at: after(now) }`. */
export class After {
  constructor(readonly bound: number) {}
}

export const after = (bound: number): After => new After(bound);

/**
 * A table's statements keyed by its columns (Conditions), one call each where a repository spelled
 * the same select, update or delete out: `tableOf('consents').rowWhere(store, { user_id, client_id })`.
 * A statement's own table is the one named here (one repository per table), and a wrong column or
 * a value of the wrong type is a compile error.
 */
export interface KeyedTable<Row> {
  /** The first row meeting `where`, every column, or undefined. */
  rowWhere(store: Handle, where: Conditions<Row>): Promise<Row | undefined>;
  /** Every row meeting `where`, in no particular order. */
  rowsWhere(store: Handle, where: Conditions<Row>): Promise<Row[]>;
  /** Column `column` of the first row meeting `where`, or undefined when there is none. */
  valueWhere<C extends keyof Row & string>(
    store: Handle,
    column: C,
    where: Conditions<Row>,
  ): Promise<Row[C] | undefined>;
  /** Every row meeting `where`, by creation, oldest first, then by id. */
  rowsOldestFirst(store: Handle, where: Conditions<Row>): Promise<Row[]>;
  /** How many rows meet `where`. */
  countWhere(store: Handle, where: Conditions<Row>): Promise<number>;
  /** Sets `changes` on the rows meeting `where`; how many it changed. */
  updateWhere(store: Handle, changes: Partial<Row>, where: Conditions<Row>): Promise<number>;
  /** Sets `changes` on the rows meeting `where`, returning the first changed (a single use: its one taker). */
  updatedRowWhere(store: Handle, changes: Partial<Row>, where: Conditions<Row>): Promise<Row | undefined>;
  /** Deletes the rows meeting `where`; how many it deleted. */
  deleteWhere(store: Handle, where: Conditions<Row>): Promise<number>;
  /** Deletes the rows meeting `where`, returning the first deleted (a single use: its one taker). */
  deletedRowWhere(store: Handle, where: Conditions<Row>): Promise<Row | undefined>;
  /** Deletes the rows meeting `where`, returning them. */
  deletedRowsWhere(store: Handle, where: Conditions<Row>): Promise<Row[]>;
  /** Replaces an owner's rows (replace-rows.ts): deletes those meeting `where`, then inserts `rows`. */
  replaceWhere(store: Handle, where: Conditions<Row>, rows: Row[]): Promise<void>;
}

interface Keyed<Self> {
  where(column: string, op: '=' | 'is' | 'in' | '>', value: unknown): Self;
}

interface Run<Result> {
  execute(): Promise<Result[]>;
  executeTakeFirst(): Promise<Result | undefined>;
}

interface Read extends Keyed<Read>, Run<object> {
  orderBy(column: 'created_at' | 'id'): Read;
}

interface Change<Result> extends Keyed<Change<Result>>, Run<Result> {
  returningAll(): Run<object>;
}

interface Statements {
  insertInto(table: string): { values(rows: object[]): Executable };
  selectFrom(table: string): { selectAll(): Read; select(column: string): Read };
  updateTable(table: string): { set(changes: object): Change<{ numUpdatedRows: bigint }> };
  deleteFrom(table: string): Change<{ numDeletedRows: bigint }>;
}

/** `statement` with one condition per key of `where`, in its order (none: a keyed statement needs a key). */
function keyed<S extends Keyed<S>>(statement: S, where: object): S {
  const keys = Object.entries(where);
  if (keys.length === 0) throw new Error('a keyed statement needs a key');
  return keys.reduce((s, [column, value]) => {
    if (value === null) return s.where(column, 'is', null);
    if (Array.isArray(value)) return s.where(column, 'in', [...value]);
    return value instanceof After ? s.where(column, '>', value.bound) : s.where(column, '=', value);
  }, statement);
}

/** The keyed statements of `table` (KeyedTable). */
export function tableOf<T extends keyof Database>(table: T): KeyedTable<Database[T]> {
  type Row = Database[T];
  const on = (store: Handle) => opened(store) as unknown as Statements;
  const selected = (store: Handle, where: object) => keyed(on(store).selectFrom(table).selectAll(), where);
  const updated = (store: Handle, changes: object, where: object) =>
    keyed(on(store).updateTable(table).set(changes), where);
  const deleted = (store: Handle, where: object) => keyed(on(store).deleteFrom(table), where);
  return {
    rowWhere: async (store, where) => (await selected(store, where).executeTakeFirst()) as Row | undefined,
    rowsWhere: async (store, where) => (await selected(store, where).execute()) as Row[],
    valueWhere: async (store, column, where) => {
      const row = await keyed(on(store).selectFrom(table).select(column), where).executeTakeFirst();
      return (row as Row | undefined)?.[column];
    },
    rowsOldestFirst: async (store, where) => (await oldestFirst(selected(store, where)).execute()) as Row[],
    countWhere: (store, where) => {
      const rows = opened(store).selectFrom(table) as unknown as Read;
      return countRows(keyed(rows, where) as unknown as SelectQueryBuilder<Database, T, object>);
    },
    updateWhere: async (store, changes, where) =>
      Number((await updated(store, changes, where).executeTakeFirst())?.numUpdatedRows),
    updatedRowWhere: async (store, changes, where) =>
      (await updated(store, changes, where).returningAll().executeTakeFirst()) as Row | undefined,
    deleteWhere: async (store, where) =>
      Number((await deleted(store, where).executeTakeFirst())?.numDeletedRows),
    deletedRowWhere: async (store, where) =>
      (await deleted(store, where).returningAll().executeTakeFirst()) as Row | undefined,
    deletedRowsWhere: async (store, where) => (await deleted(store, where).returningAll().execute()) as Row[],
    replaceWhere: (store, where, rows) =>
      replaceRows(deleted(store, where), rows, (news) => on(store).insertInto(table).values(news)),
  };
}

/**
 * A table's keyed statements (KeyedTable) whose rows are answered as the repository's records,
 * through its column map's `toRecord`: a row found, listed or taken is read as one record, none as
 * null: `recordsOf('consents', toConsent).recordWhere(store, { user_id, client_id })`.
 */
export interface KeyedRecords<Row, R> extends KeyedTable<Row> {
  /** The first row meeting `where` as a record, or null. */
  recordWhere(store: Handle, where: Conditions<Row>): Promise<R | null>;
  /** Every row meeting `where` as records, by creation, oldest first, then by id. */
  recordsOldestFirst(store: Handle, where: Conditions<Row>): Promise<R[]>;
  /** Sets `changes` on the rows meeting `where`; the first changed as a record (its one taker), or null. */
  updatedRecordWhere(store: Handle, changes: Partial<Row>, where: Conditions<Row>): Promise<R | null>;
  /** Deletes the rows meeting `where`; the first deleted as a record (its one taker), or null. */
  deletedRecordWhere(store: Handle, where: Conditions<Row>): Promise<R | null>;
  /** Deletes the rows meeting `where`; them, as records. */
  deletedRecordsWhere(store: Handle, where: Conditions<Row>): Promise<R[]>;
}

/** The keyed statements of `table` answering records read by `toRecord` (KeyedRecords). */
export function recordsOf<T extends keyof Database, R>(
  table: T,
  toRecord: (row: Database[T]) => R,
): KeyedRecords<Database[T], R> {
  const rows = tableOf(table);
  const one = (row: Database[T] | undefined) => (row ? toRecord(row) : null);
  return {
    ...rows,
    recordWhere: async (store, where) => one(await rows.rowWhere(store, where)),
    recordsOldestFirst: async (store, where) => (await rows.rowsOldestFirst(store, where)).map(toRecord),
    updatedRecordWhere: async (store, changes, where) =>
      one(await rows.updatedRowWhere(store, changes, where)),
    deletedRecordWhere: async (store, where) => one(await rows.deletedRowWhere(store, where)),
    deletedRecordsWhere: async (store, where) => (await rows.deletedRowsWhere(store, where)).map(toRecord),
  };
}
