import type { Handle } from '../handle.js';
import { opened } from '../opened.js';
import type { Database } from '../schema.js';
import type { ColumnMap } from './column-map.js';
import { orgClientRows, orgRowById, orgRowsOldestFirst } from './org-rows.js';

/**
 * The statements a table's column map makes by itself, written once for every table instead of once
 * per repository: a record stored as one row of every mapped column, and an org's records read back,
 * one by its id or all of them oldest first (only the mapped columns: what a repository keeps out of
 * the record, a sealed secret or a hash, is never read by them); and the rows of an org's client
 * deleted with it. The statements keyed by other columns are keyed-rows.ts's.
 *
 * The map is checked against the table's row where it is declared (column-map.ts); the statements
 * themselves are typed by the few methods they call, as Kysely cannot resolve a column through a
 * generic table name (org-rows.ts says the same). Every repository's tests run them on both databases.
 */

interface Inserting {
  values(row: object): { execute(): Promise<unknown> };
}

interface Selecting {
  select(columns: readonly string[]): OrgRowRead;
}

interface OrgRowRead {
  where(column: 'id' | 'org_id', op: '=', value: string): OrgRowRead;
  orderBy(column: 'created_at' | 'id'): OrgRowRead;
  executeTakeFirst(): Promise<object | undefined>;
  execute(): Promise<object[]>;
}

/** Stores a record as one new row of `table`: `insertOf('roles', roleColumns)(store, role)`. */
export const insertOf =
  <T extends keyof Database, R>(table: T, columns: ColumnMap<Database[T], R>) =>
  async (store: Handle, record: R): Promise<void> => {
    const into = opened(store).insertInto(table) as unknown as Inserting;
    await into.values(columns.toRow(record) as object).execute();
  };

/** The tables of an org's rows: an `id` of their own and the `org_id` they belong to. */
type OrgTable = {
  [T in keyof Database]: Database[T] extends { id: string; org_id: string } ? T : never;
}[keyof Database];

/** The org's record of `table` with this id, or null: another org's is never found. */
export const orgRecordById =
  <T extends OrgTable, Row, R>(table: T, columns: ColumnMap<Row, R> & ColumnsOf<Database[T], Row>) =>
  async (store: Handle, orgId: string, id: string): Promise<R | null> => {
    const from = opened(store).selectFrom(table) as unknown as Selecting;
    const row = await orgRowById(from.select(columns.names), orgId, id).executeTakeFirst();
    return row ? columns.toRecord(row as Row) : null;
  };

/** Every record of the org in `table`, oldest first: for the lists an org keeps a handful of (not paged). */
export const orgRecordsOldestFirst =
  <T extends OrgTable, Row, R>(table: T, columns: ColumnMap<Row, R> & ColumnsOf<Database[T], Row>) =>
  async (store: Handle, orgId: string): Promise<R[]> => {
    const from = opened(store).selectFrom(table) as unknown as Selecting;
    const rows = await orgRowsOldestFirst(from.select(columns.names), orgId).execute();
    return rows.map((row) => columns.toRecord(row as Row));
  };

/** The tables of an org's clients' rows: the `client_id` and the `org_id` they belong to. */
type OrgClientTable = {
  [T in keyof Database]: Database[T] extends { client_id: string; org_id: string } ? T : never;
}[keyof Database];

/**
 * Deletes the rows of `table` of an org's client (orgClientRows), part of deleting the client (see
 * deleteClientRow): `export const deleteClientConsents = orgClientRowsDeleter('consents')`.
 */
export const orgClientRowsDeleter =
  <T extends OrgClientTable>(table: T) =>
  async (store: Handle, orgId: string, clientId: string): Promise<void> => {
    const from = opened(store).deleteFrom(table) as unknown as OrgClientRowsDelete;
    await orgClientRows(from, orgId, clientId).execute();
  };

interface OrgClientRowsDelete {
  where(column: 'client_id' | 'org_id', op: '=', value: string): OrgClientRowsDelete;
  execute(): Promise<unknown>;
}

/** A map whose row is the table's or a part of it (a table's row holds every column the map reads). */
type ColumnsOf<Table, Row> = Table extends Row ? unknown : { notColumnsOfTheTable: Row };
