import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './db.js';
import { PREPARED, ROWS_AS_ARRAYS } from './marked-statements.js';

/**
 * A statement built and compiled once per open database, its values bound at each call.
 *
 * Kysely builds an operation tree and compiles it to SQL on every call; for the statements every
 * refresh runs, that was a fifth of the refresh's main-thread time, as much as SQLite running them
 * (on-CPU samples: bench/refresh/README.md). `build` runs the first time the statement is used on
 * a database (its transactions share what was built), with a stand-in for each named value; the SQL
 * it compiles to is kept, and each call binds the values in the places the stand-ins took. So the
 * statement is exactly the builder's, with the same parameters in the same order.
 *
 * Every stand-in must reach the SQL as one bound parameter: a value compared in `where`, set in
 * `set` or inserted by `values`. Not a list that `in` expands (its length is part of the SQL), a
 * `sql.lit`, nor a value the builder looks at. A stand-in that does not come out as a parameter
 * is a mistake here, thrown the first time the statement is built (the tests run every one).
 *
 * Its text never changes, so on PostgreSQL it is marked PREPARED (marked-statements.ts): a named
 * prepared statement per connection where TESSERA_DB_PREPARED_STATEMENTS allows, planned once. So it
 * names every column it reads: no `selectAll`, `returningAll` or `*`.
 */
export function compiledOnce<Name extends string, Row>(
  names: readonly Name[],
  build: (db: Db, value: StandIns<Name>) => Compilable<Row>,
): (db: Db, values: Readonly<Record<Name, unknown>>) => Promise<Row[]> {
  return runner<Name, Row>(names, build, '');
}

/**
 * The same, with the rows as arrays of the selected columns in the builder's order (db.ts
 * ROWS_AS_ARRAYS): for reads of many rows where an object per row costs more than the read.
 */
export function compiledOnceAsArrays<Name extends string>(
  names: readonly Name[],
  build: (db: Db, value: StandIns<Name>) => Compilable<unknown>,
): (db: Db, values: Readonly<Record<Name, unknown>>) => Promise<unknown[][]> {
  return runner<Name, unknown[]>(names, build, ROWS_AS_ARRAYS);
}

function runner<Name extends string, Row>(
  names: readonly Name[],
  build: (db: Db, value: StandIns<Name>) => Compilable<unknown>,
  prefix: string,
): (db: Db, values: Readonly<Record<Name, unknown>>) => Promise<Row[]> {
  // Keyed by the database's dialect adapter: one object per open database, shared by its transactions.
  const built = new WeakMap<object, Template<Name>>();
  return async (db, values) => {
    const adapter = db.getExecutor().adapter;
    let template = built.get(adapter);
    if (template === undefined) {
      const compiled = compile(db, names, build);
      template = { ...compiled, sql: `${prefix}${PREPARED}${compiled.sql}` };
      built.set(adapter, template);
    }
    const parameters = template.slots.map((slot) =>
      slot.name === undefined ? slot.value : values[slot.name],
    );
    const result = await db.executeQuery(CompiledQuery.raw(template.sql, parameters) as CompiledQuery<Row>);
    return result.rows;
  };
}

/**
 * What `build` is given for each value. Typed `never` so a stand-in fits any column's type in the
 * builder (it is a string, which only ever reaches the compiled SQL's parameters).
 */
type StandIns<Name extends string> = Readonly<Record<Name, never>>;

interface Template<Name extends string> {
  sql: string;
  /** Each parameter in order: a named value bound at the call, or a value the statement fixes. */
  slots: { name?: Name; value?: unknown }[];
}

/** `*` as a select list or a returning clause (`select *`, `"s".*`, `returning t.*`), not `count(*)`. */
const EVERY_COLUMN = /(^|[\s,.])\*(\s|,|$)/;

/** Stand-ins carry a NUL, which no stored text does (http/storable-text.ts refuses it at the edge). */
const STAND_IN = '\u0000compiled-once:';

function compile<Name extends string>(
  db: Db,
  names: readonly Name[],
  build: (db: Db, value: StandIns<Name>) => Compilable<unknown>,
): Template<Name> {
  const standIns = Object.fromEntries(names.map((name) => [name, `${STAND_IN}${name}`])) as StandIns<Name>;
  const { sql, parameters } = build(db, standIns).compile();
  const slots = parameters.map((value) =>
    typeof value === 'string' && value.startsWith(STAND_IN)
      ? { name: value.slice(STAND_IN.length) as Name }
      : { value },
  );
  const missing = names.filter((name) => !slots.some((slot) => slot.name === name));
  if (missing.length > 0) {
    throw new Error(`compiledOnce: ${missing.join(', ')} did not become a bound parameter of: ${sql}`);
  }
  if (EVERY_COLUMN.test(sql)) {
    throw new Error(`compiledOnce: a prepared statement names the columns it reads, not *: ${sql}`);
  }
  return { sql, slots };
}
