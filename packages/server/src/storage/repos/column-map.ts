/**
 * A table's columns and the fields of the domain's type they hold, declared once: the row a read
 * returns becomes the domain's record (`toRecord`), the record an insert stores becomes the row
 * (`toRow`), and a select of every mapped column names them (`names`).
 *
 * Each column maps to a field of exactly its type, or to a field through a conversion (JSON text,
 * a 0/1 flag, a nullable column): `{ org_id: 'orgId', active: ['active', flag] }`. The declaration is
 * checked against both types: a column of the row missing or misspelled, a field of the wrong type,
 * or a field of the record no column fills is a compile error. Columns a repository keeps out of the
 * record (a sealed secret, a claim) are left out of the row type it declares (`Omit<…Table, …>`),
 * and its insert adds them beside `toRow`.
 *
 * Built once per table: a read or an insert then costs one object literal (literalMapper).
 */
export interface ColumnMap<Row, Record> {
  /** The mapped columns, in their declared order. */
  readonly names: readonly (keyof Row & string)[];
  toRecord(row: Row): Record;
  toRow(record: Record): Row;
}

/** How a column's stored value becomes the field's, and back. */
export interface Conversion<Stored, Value> {
  read: (stored: Stored) => Value;
  write: (value: Value) => Stored;
}

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The fields of `Record` whose type is exactly `Stored`. */
type FieldOfType<Record, Stored> = {
  [F in keyof Record]-?: Exactly<Record[F], Stored> extends true ? F : never;
}[keyof Record];

/** A field of `Record` with the conversion from and to `Stored`. */
type ConvertedField<Record, Stored> = {
  [F in keyof Record]-?: readonly [F, Conversion<Stored, Record[F]>];
}[keyof Record];

/** What each column of `Row` maps to. */
export type Columns<Row, Record> = {
  readonly [C in keyof Row]-?: FieldOfType<Record, Row[C]> | ConvertedField<Record, Row[C]>;
};

type FieldsNamed<M> = {
  [C in keyof M]: M[C] extends readonly [infer F, unknown] ? F : M[C];
}[keyof M];

/** Fails the declaration when a field of `Record` is filled by no column, and names it. */
type EveryField<M, Record> = [Exclude<keyof Record, FieldsNamed<M>>] extends [never]
  ? unknown
  : { unmapped: Exclude<keyof Record, FieldsNamed<M>> };

/** Fails the declaration when it names a column the row does not have. */
type OnlyColumnsOf<M, Row> = { [C in Exclude<keyof M, keyof Row>]: never };

/**
 * The column map of a table's `Row` and the domain's `Record`:
 * `columnMap<ApiResourcesTable, ApiResource>()({ id: 'id', org_id: 'orgId', … })`.
 */
export function columnMap<Row, Record>() {
  return <const M extends Columns<Row, Record>>(
    columns: M & EveryField<M, Record> & OnlyColumnsOf<M, Row>,
  ): ColumnMap<Row, Record> => built<Row, Record>(columns);
}

interface Entry {
  column: string;
  field: string;
  conversion: Conversion<unknown, unknown> | undefined;
}

function built<Row, Record>(columns: object): ColumnMap<Row, Record> {
  const entries: Entry[] = Object.entries(columns).map(([column, to]: [string, unknown]) =>
    typeof to === 'string'
      ? { column, field: to, conversion: undefined }
      : {
          column,
          field: (to as readonly [string, Conversion<unknown, unknown>])[0],
          conversion: (to as readonly [string, Conversion<unknown, unknown>])[1],
        },
  );
  return {
    names: entries.map((e) => e.column as keyof Row & string),
    toRecord: literalMapper(entries, 'column', 'field', 'read') as (row: Row) => Record,
    toRow: literalMapper(entries, 'field', 'column', 'write') as (record: Record) => Row,
  };
}

/**
 * A function returning one object literal of the declared keys (`{ "id": from["id"], "orgId":
 * conv[1].read(from["org_id"]), … }`), made once per map. Filling an empty object key by key costs a
 * row ~1.5 µs at 23 fields and leaves it in V8's slow dictionary mode past about 20; a literal is
 * built in one step with the fast layout the hand-written mappings had (users and codes are read on
 * every refresh and code exchange). The keys are the declaration's own column and field names.
 */
function literalMapper(
  entries: readonly Entry[],
  from: 'column' | 'field',
  to: 'column' | 'field',
  direction: 'read' | 'write',
): (source: unknown) => unknown {
  const conversions = entries.map((e) => e.conversion);
  const properties = entries.map((e, i) => {
    const value = `from[${JSON.stringify(e[from])}]`;
    const converted = e.conversion === undefined ? value : `conv[${i}].${direction}(${value})`;
    return `${JSON.stringify(e[to])}: ${converted}`;
  });
  return new Function('conv', `return (from) => ({ ${properties.join(', ')} });`)(conversions);
}

/** The key and org of an org's row (the migrations' orgTable): `id` and `org_id`. */
export const orgRowColumns = { id: 'id', org_id: 'orgId' } as const;

/** When a row was made and last changed (the migrations' timestamps). */
export const timestampColumns = { created_at: 'createdAt', updated_at: 'updatedAt' } as const;

/** When a short-lived row was made and when it expires (the migrations' lifespan). */
export const lifespanColumns = { created_at: 'createdAt', expires_at: 'expiresAt' } as const;

/** A 0/1 column holding a boolean. */
export const flag: Conversion<number, boolean> = {
  read: (stored) => stored === 1,
  write: (value) => (value ? 1 : 0),
};

/** A text column holding a value as JSON. */
export const json = <T>(): Conversion<string, T> => ({
  read: (stored) => JSON.parse(stored) as T,
  write: (value) => JSON.stringify(value),
});

/** A nullable text column holding a value as JSON, null as null. */
export const jsonOrNull = <T>(): Conversion<string | null, T | null> => ({
  read: (stored) => (stored === null ? null : (JSON.parse(stored) as T)),
  write: (value) => (value === null ? null : JSON.stringify(value)),
});

/** A nullable text column holding a list as JSON, the empty list as null. */
export const listOrNull = <T>(): Conversion<string | null, T[]> => ({
  read: (stored) => (stored === null ? [] : (JSON.parse(stored) as T[])),
  write: (value) => (value.length === 0 ? null : JSON.stringify(value)),
});

/** A nullable text column holding words separated by spaces, the empty list as null. */
export const wordsOrNull = <T extends string>(): Conversion<string | null, T[]> => ({
  read: (stored) => (stored === null ? [] : (stored.split(' ') as T[])),
  write: (value) => (value.length === 0 ? null : value.join(' ')),
});

/** A text column the domain knows to hold one of `T`'s values only (what the repository stored). */
export const textOf = <T extends string>(): Conversion<string, T> => ({
  read: (stored) => stored as T,
  write: (value) => value,
});

/** A nullable text column the domain knows to hold one of `T`'s values or null. */
export const textOrNullOf = <T extends string>(): Conversion<string | null, T | null> => ({
  read: (stored) => stored as T | null,
  write: (value) => value,
});

/**
 * Every column of `Row`, listed, for a statement that names what it reads (compiled-once.ts: a
 * prepared statement's `*` breaks when a migration adds a column). A column left out or misspelled
 * is a compile error.
 */
export const everyColumn =
  <Row>() =>
  <const C extends readonly (keyof Row & string)[]>(
    columns: C &
      ([Exclude<keyof Row, C[number]>] extends [never]
        ? unknown
        : { missing: Exclude<keyof Row, C[number]> }),
  ): C =>
    columns;
