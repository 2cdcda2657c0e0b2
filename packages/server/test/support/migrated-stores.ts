import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/storage/db.js';
import { migrate } from '../../src/storage/migrate.js';
import { POSTGRES_URL } from './environment.js';
import { createPostgresSchema } from './postgres.js';

/**
 * Migrated, empty stores for the test servers and runtimes, made once per test process and reused.
 * Every start used to migrate a store from nothing: 50-odd migrations, ~250 ms of the process's CPU on
 * SQLite and seconds of PostgreSQL's own work under load, for each of the hundreds of servers a run
 * starts. What a start is handed is what that migration made, and nothing else:
 * - SQLite: the process's first start migrates a template file; each start gets a copy of it.
 * - PostgreSQL: a schema is migrated once; when its server closes, the schema is emptied (one TRUNCATE
 *   of every table but the migrations' own) and handed to the process's next start. It is handed on
 *   only if its shape (columns, defaults, constraints, indexes, triggers and whether they are enabled,
 *   functions) is still the one its migration made and every table is empty; otherwise it is dropped.
 *   The schemas left when the process exits are dropped then.
 * The suites about migrating itself (an empty database, a second schema, the `migrated` lines) start
 * processes or open stores of their own, and do not come here.
 */

const MIGRATIONS_OWN = new Set(['tessera_migrations', 'tessera_migrations_lock']);

let sqliteTemplate: Promise<string> | undefined;

/** Puts a migrated, empty SQLite store (`tessera.db`) into `dataDir`. */
export async function migratedSqliteInto(dataDir: string): Promise<void> {
  sqliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const store = openStore({ databaseUrl: null, dataDir: dir, poolSize: 1 });
    try {
      await migrate(store.db);
    } finally {
      // Closing the last connection checkpoints the WAL into the file: the file alone is the store.
      await store.close();
    }
    if (existsSync(join(dir, 'tessera.db-wal'))) throw new Error('the template store kept a WAL file');
    return join(dir, 'tessera.db');
  })();
  copyFileSync(await sqliteTemplate, join(dataDir, 'tessera.db'));
}

export interface PooledSchema {
  url: string;
  /** Empties the schema for the process's next server, or drops it when a test changed its shape. */
  release(): Promise<void>;
}

interface Idle {
  name: string;
  url: string;
  shape: string;
  tables: string[];
}

const idle: Idle[] = [];
const made = new Set<string>();

/** A migrated, empty PostgreSQL schema of this process's own. */
export async function migratedPostgresSchema(): Promise<PooledSchema> {
  const reused = idle.pop();
  const schema = reused ?? (await migrateNew());
  return {
    url: schema.url,
    release: () => emptyForReuse(schema),
  };
}

async function migrateNew(): Promise<Idle> {
  const created = await createPostgresSchema();
  const name = new URL(created.url).searchParams.get('options')?.match(/search_path=(\S+)/)?.[1];
  if (!name) throw new Error('a test schema without a search_path');
  if (made.size === 0) process.once('exit', dropMade);
  made.add(name);
  const store = openStore({ databaseUrl: created.url, dataDir: tmpdir(), poolSize: 2 });
  try {
    await migrate(store.db);
  } finally {
    await store.close();
  }
  return withClient(name, async (client) => {
    const tables = (
      await client.query<{ name: string }>(
        'select tablename as name from pg_tables where schemaname = $1 order by tablename',
        [name],
      )
    ).rows
      .map((r) => r.name)
      .filter((t) => !MIGRATIONS_OWN.has(t));
    const seeded = await nonEmpty(client, tables);
    if (seeded.length > 0) {
      // The pool empties every table but the migrations' own; rows a migration puts in would be lost.
      throw new Error(`a migration put rows into ${seeded.join(', ')}: the test stores must keep them`);
    }
    return { name, url: created.url, shape: await shapeOf(client, name), tables };
  });
}

async function emptyForReuse(schema: Idle): Promise<void> {
  const reusable = await withClient(schema.name, async (client) => {
    if ((await shapeOf(client, schema.name)) !== schema.shape) return false;
    await client.query(`truncate ${schema.tables.map(quoted).join(', ')} restart identity cascade`);
    return (await nonEmpty(client, schema.tables)).length === 0;
  });
  if (reusable) {
    idle.push(schema);
    return;
  }
  made.delete(schema.name);
  await withClient(null, (client) => client.query(`drop schema if exists ${quoted(schema.name)} cascade`));
}

/** What the migrations made of the schema, as one digest; any change a test made shows in it. */
async function shapeOf(client: pg.Client, name: string): Promise<string> {
  const { rows } = await client.query<{ shape: string }>(
    `select md5(coalesce(string_agg(line, E'\\n' order by line), '')) as shape from (
       select 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
              || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') as line
         from pg_attribute a
         join pg_class c on c.oid = a.attrelid
         join pg_namespace n on n.oid = c.relnamespace
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where n.nspname = $1 and a.attnum > 0 and not a.attisdropped
       union all
       select 'constraint ' || c.relname || '.' || k.conname || ' ' || pg_get_constraintdef(k.oid)
         from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1
       union all
       select 'index ' || i.indexname || ' ' || i.indexdef from pg_indexes i where i.schemaname = $1
       union all
       select 'trigger ' || t.tgname || ' ' || t.tgenabled::text || ' ' || pg_get_triggerdef(t.oid)
         from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and not t.tgisinternal
       union all
       select 'function ' || p.proname || ' ' || md5(pg_get_functiondef(p.oid))
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = $1 and p.prokind = 'f'
       union all
       select 'relation ' || c.relname || ' ' || c.relkind::text
         from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1
     ) lines`,
    [name],
  );
  return rows[0]?.shape ?? '';
}

/** The tables of `tables` that hold a row. */
async function nonEmpty(client: pg.Client, tables: string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const probes = tables.map((t, i) => `(select ${i} as i where exists (select 1 from ${quoted(t)}))`);
  const { rows } = await client.query<{ i: number }>(probes.join(' union all '));
  return rows.map((r) => tables[r.i] as string);
}

async function withClient<T>(schema: string | null, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(POSTGRES_URL);
  const options = ['-c synchronous_commit=off', ...(schema ? [`-c search_path=${schema}`] : [])];
  url.searchParams.set('options', options.join(' '));
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** At exit (no await is possible then): the process's schemas dropped by a psql of their own. */
function dropMade(): void {
  if (made.size === 0) return;
  const names = [...made].map(quoted).join(', ');
  spawnSync('psql', [POSTGRES_URL, '-q', '-c', `drop schema if exists ${names} cascade`], {
    stdio: 'ignore',
    timeout: 60_000,
  });
}
