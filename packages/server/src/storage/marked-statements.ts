import type pg from 'pg';

/**
 * A statement whose SQL begins with this comment gets its rows as arrays of the selected columns, in
 * order, instead of objects (better-sqlite3's `raw`, pg's `rowMode: 'array'`): for a read of many rows
 * on a hot path (a log stream's batch), where making an object per row was most of the read's time.
 * Build such statements with compiled-once.ts `compiledOnceAsArrays`.
 */
export const ROWS_AS_ARRAYS = '/* rows as arrays */ ';

/**
 * A statement whose SQL holds this comment (after ROWS_AS_ARRAYS, if that is there) may be a named
 * prepared statement on a PostgreSQL connection: parsed and planned once per connection, then only
 * bound and run. compiled-once.ts marks its statements so, and a few hand-written statements of the
 * hot paths (sign-in-writes.ts): their text never changes (every value is a bound parameter), so the
 * set of names a connection holds is small and fixed (MAX_NAMED_TEXTS guards it). Every column they
 * read is named: a prepared `select *` fails once a migration adds a column ("cached plan must not
 * change result type").
 */
export const PREPARED = '/* prepared */ ';

/**
 * SQLSTATEs that say a connection's named statement is not what this process prepared: 26000 (it
 * is gone: a pooler in transaction mode handed the next statement to another server connection),
 * 42P05 (a name already taken there, by another client of the same pooler), and 0A000 with
 * CHANGED_PLAN (a schema change changed what it returns; the class is wider than that).
 */
const LOST_STATEMENT = new Set(['26000', '42P05']);
const CHANGED_PLAN = 'cached plan must not change result type';

/** The code of a named statement's error when it says the statement is not what was prepared, else null. */
function lostStatementCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (LOST_STATEMENT.has(code)) return code;
  return code === '0A000' && error instanceof Error && error.message.includes(CHANGED_PLAN) ? code : null;
}

/** Set on the error of a lost named statement that ended the transaction it ran in (see markStatements). */
const LOST_IN_TRANSACTION = Symbol('lost named statement in a transaction');

/**
 * Whether `error` is a named statement's that was not what this process prepared, inside a
 * transaction it thereby ended: the statement did not run, and the request is answered 503 to be
 * tried again (storage/unavailable.ts).
 */
export function isLostInTransaction(error: unknown): boolean {
  return typeof error === 'object' && error !== null && LOST_IN_TRANSACTION in error;
}

export interface MarkedStatements {
  /** Whether marked statements are named (TESSERA_DB_PREPARED_STATEMENTS); false on a replica's pool. */
  prepared: boolean;
  warn: (line: string) => void;
}

/** The name of each marked text, the same on every connection of the process. */
const names = new Map<string, string>();

/**
 * At most this many texts are named. The marked statements are a few dozen; a marked statement whose
 * text changed with its values would otherwise leave a statement on every connection per call. Past
 * it a new text goes unnamed, and that is reported once.
 */
const MAX_NAMED_TEXTS = 200;

function nameOf(text: string, generation: number, warn: (line: string) => void): string | undefined {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMED_TEXTS) {
      reportTooMany(warn);
      return undefined;
    }
    name = `tessera_${names.size + 1}`;
    names.set(text, name);
  }
  return generation === 0 ? name : `${name}_${generation}`;
}

/** The texts named so far in this process (a test checks a marked statement's text stays one). */
export const namedTexts = (): readonly string[] => [...names.keys()];

let tooManyReported = false;

function reportTooMany(warn: (line: string) => void): void {
  if (tooManyReported) return;
  tooManyReported = true;
  warn(`more than ${MAX_NAMED_TEXTS} statements were marked to be prepared: the others run unnamed`);
}

/**
 * Kysely's PostgreSQL connection runs `client.query(sql, values)`; here a marked statement goes as a
 * query config instead: ROWS_AS_ARRAYS with `rowMode: 'array'`, PREPARED with a name when `prepared`
 * (pg then sends Parse once per connection and name, and Bind/Execute after). Everything else goes
 * as it came, unnamed: nothing of it outlives the statement.
 *
 * When the server says a named statement is not what was prepared (LOST_STATEMENT), it did not run:
 * outside a transaction it is sent again at once, unnamed; inside one (which the error ended) it fails
 * and the request is answered 503. Either way this connection prepares its statements under new names
 * from then on. A lost one (26000, 42P05) is reported once per process: it means a pooler in
 * transaction mode sits between, where they would be lost again and again.
 */
export function markStatements(client: pg.PoolClient, options: MarkedStatements): void {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  let generation = 0;
  // Whether this connection is inside a transaction Kysely opened (its driver sends these texts).
  let inTransaction = false;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (typeof text !== 'string' || args.length !== 2) return query(...args);
    if (TRANSACTION_START.test(text)) inTransaction = true;
    else if (TRANSACTION_END.test(text)) inTransaction = false;
    const asArrays = text.startsWith(ROWS_AS_ARRAYS);
    const marked = options.prepared && text.startsWith(PREPARED, asArrays ? ROWS_AS_ARRAYS.length : 0);
    const name = marked ? nameOf(text, generation, options.warn) : undefined;
    if (!asArrays && name === undefined) return query(...args);
    const config = {
      text,
      values,
      ...(asArrays ? { rowMode: 'array' } : {}),
      ...(name === undefined ? {} : { name }),
    };
    if (name === undefined) return query(config);
    const autocommitted = !inTransaction;
    return query(config).catch((error: unknown) => {
      const code = lostStatementCode(error);
      if (code === null) throw error;
      generation += 1;
      if (code !== '0A000') reportPooler(options.warn);
      // The statement did not run (the server refused it before executing). On its own it is sent
      // again, unnamed; inside a transaction, which the error ended, it fails, marked so that
      // storage/unavailable.ts answers it 503, to be tried again.
      if (!autocommitted) {
        Object.defineProperty(error, LOST_IN_TRANSACTION, { value: true });
        throw error;
      }
      return query({ text, values, ...(asArrays ? { rowMode: 'array' } : {}) });
    });
  };
}

/** What Kysely's PostgreSQL driver sends to open and to end a transaction (not a savepoint's). */
const TRANSACTION_START = /^(begin|start transaction)\b/i;
const TRANSACTION_END = /^(commit|rollback)$/i;

let poolerReported = false;

function reportPooler(warn: (line: string) => void): void {
  if (poolerReported) return;
  poolerReported = true;
  warn(
    'a prepared statement was not found on its connection: DATABASE_URL goes through a pooler in ' +
      'transaction mode; set TESSERA_DB_PREPARED_STATEMENTS=off (or TESSERA_DB_LISTEN_URL, which turns them off)',
  );
}
