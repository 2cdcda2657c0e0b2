import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';

/**
 * The layering the lint enforces (`npm run lint`): a wrong-way import, a cycle, any clock read in the
 * domain but domain/clock.ts, a query or a transaction in the domain, the database's type imported
 * into it, and an HTTP, SQL or JWT package imported into the domain each fail it,
 * and the real tree passes. Planted files go into a scratch copy of the layout,
 * never into the working tree. docs/architecture.md names, for every table of the contract, the file
 * that owns each rule, and every file it names exists.
 */
const root = new URL('../../../../', import.meta.url).pathname;
const depcruise = join(root, 'node_modules/.bin/depcruise');
const biome = join(root, 'node_modules/.bin/biome');

function cruise(cwd: string, ...paths: string[]) {
  const run = spawnSync(depcruise, [...paths, '--config', '.dependency-cruiser.cjs'], {
    cwd,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The layers' files that planted imports point at, in each scratch tree. */
const LAYOUT: Record<string, string> = {
  'http/errors.ts': 'export const code = 1;\n',
  'storage/db.ts': 'export const db = 1;\n',
  'crypto/random.ts': 'export const bytes = 1;\n',
  'domain/clock.ts': 'export const clock = { now: () => 0 };\n',
};

describe('the layering lint', () => {
  let scratch: string;
  const plant = (path: string, text: string) => {
    const file = join(scratch, 'packages/server/src', path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tessera-layers-'));
    copyFileSync(join(root, '.dependency-cruiser.cjs'), join(scratch, '.dependency-cruiser.cjs'));
    for (const [path, text] of Object.entries(LAYOUT)) plant(path, text);
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('the tree as committed has no violation and no cycle', () => {
    const run = cruise(root, 'packages/server/src', 'packages/koa/src', 'packages/sdk/src');
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /no dependency violations found/);
  });

  /**
   * Every planted import of the tests below, in one tree of their own, cruised once (a depcruise process
   * costs seconds of CPU; each plant's error names its own file, so the plants do not hide each other).
   */
  const PLANTED_IMPORTS: Record<string, string> = {
    // domain → http
    'domain/planted.ts': "import { code } from '../http/errors.js';\nexport const x = code;\n",
    // http → storage, crypto → domain
    'http/planted.ts': "import { db } from '../storage/db.js';\nexport const x = db;\n",
    'crypto/planted.ts': "import { clock } from '../domain/clock.js';\nexport const y = clock;\n",
    // a cycle
    'domain/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
    'domain/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    // domain features: against the order, an unknown feature, from a base file; and one allowed
    'domain/tokens/issue.ts': 'export const issue = () => 1;\n',
    'domain/sign-in/flow.ts': "import { issue } from '../tokens/issue.js';\nexport const go = issue;\n",
    'domain/directory/planted.ts': "import { issue } from '../tokens/issue.js';\nexport const x = issue;\n",
    'domain/elsewhere/thing.ts': 'export const thing = 1;\n',
    'domain/audit/planted.ts': "import { thing } from '../elsewhere/thing.js';\nexport const y = thing;\n",
    'domain/planted-base.ts': "import { issue } from './tokens/issue.js';\nexport const z = issue;\n",
    // a feature entered past its index.ts, and by it
    'domain/tokens/index.ts': "export { issue } from './issue.js';\n",
    'http/deep.ts': "import { issue } from '../domain/tokens/issue.js';\nexport const x = issue;\n",
    'http/front.ts': "import { issue } from '../domain/tokens/index.js';\nexport const y = issue;\n",
  };
  let plantedCruise: ReturnType<typeof cruise> | undefined;
  const cruisePlanted = () => {
    if (plantedCruise) return plantedCruise;
    const tree = mkdtempSync(join(tmpdir(), 'tessera-layers-planted-'));
    try {
      copyFileSync(join(root, '.dependency-cruiser.cjs'), join(tree, '.dependency-cruiser.cjs'));
      for (const [path, text] of Object.entries({ ...LAYOUT, ...PLANTED_IMPORTS })) {
        const file = join(tree, 'packages/server/src', path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
      plantedCruise = cruise(tree, 'packages/server/src');
      return plantedCruise;
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  };

  test('a planted domain → http import fails', () => {
    const run = cruisePlanted();
    assert.notEqual(run.status, 0);
    assert.match(
      run.output,
      /error domain-has-no-transport: packages\/server\/src\/domain\/planted\.ts → packages\/server\/src\/http\/errors\.ts/,
    );
  });

  test('a planted http → storage import and a crypto → domain import fail', () => {
    const run = cruisePlanted();
    assert.notEqual(run.status, 0);
    assert.match(
      run.output,
      /error http-is-transport: packages\/server\/src\/http\/planted\.ts → packages\/server\/src\/storage\/db\.ts/,
    );
    assert.match(
      run.output,
      /error crypto-depends-on-nothing: packages\/server\/src\/crypto\/planted\.ts → packages\/server\/src\/domain\/clock\.ts/,
    );
  });

  test('a planted import cycle fails', () => {
    const run = cruisePlanted();
    assert.notEqual(run.status, 0);
    assert.match(run.output, /error no-cycles: packages\/server\/src\/domain\/a\.ts/);
  });

  test('domain features import one way: a planted import against the order, of an unknown feature, or from a base file fails', () => {
    const run = cruisePlanted();
    assert.notEqual(run.status, 0);
    const S = 'packages\\/server\\/src\\/domain';
    assert.match(
      run.output,
      new RegExp(
        `error domain-feature-order-directory: ${S}\\/directory\\/planted\\.ts → ${S}\\/tokens\\/issue\\.ts`,
      ),
    );
    assert.match(
      run.output,
      new RegExp(
        `error domain-feature-is-known: ${S}\\/audit\\/planted\\.ts → ${S}\\/elsewhere\\/thing\\.ts`,
      ),
    );
    assert.match(
      run.output,
      new RegExp(`error domain-base-under-features: ${S}\\/planted-base\\.ts → ${S}\\/tokens\\/issue\\.ts`),
    );
    // sign-in comes after tokens: its import is allowed.
    assert.doesNotMatch(run.output, /domain\/sign-in\/flow\.ts →/);
  });

  test('outside the domain a feature is entered by its index.ts only', () => {
    const run = cruisePlanted();
    assert.notEqual(run.status, 0);
    assert.match(
      run.output,
      /error domain-features-enter-by-index: packages\/server\/src\/http\/deep\.ts → packages\/server\/src\/domain\/tokens\/issue\.ts/,
    );
    assert.doesNotMatch(run.output, /http\/front\.ts →/);
  });

  /** Each way of reading the clock that `lint/no-date-now.grit` refuses in the domain. */
  const clockReads: Record<string, string> = {
    'Date.now()': 'export const stamp = (): number => Date.now();\n',
    'new Date().getTime()': 'export const stamp = (): number => new Date().getTime();\n',
    'performance.now()': 'export const stamp = (): number => performance.now();\n',
    'an aliased Date.now': 'const now = Date.now;\nexport const stamp = (): number => now();\n',
    'new Date()': 'export const stamp = (): Date => new Date();\n',
    'new Date without parentheses': 'export const stamp = (): number => +new Date;\n',
    'Date() called': 'export const stamp = (): string => Date();\n',
    'the Date constructor aliased': 'const D = Date;\nexport const stamp = (): Date => new D();\n',
    'Date.now destructured': 'const { now } = Date;\nexport const stamp = (): number => now();\n',
    'globalThis.Date': 'export const stamp = (): number => globalThis.Date.now();\n',
    'process.hrtime': 'export const stamp = (): bigint => process.hrtime.bigint();\n',
    "Date['now']": "export const stamp = (): number => Date['now']();\n",
    "process['hrtime']": "export const stamp = (): bigint => process['hrtime'].bigint();\n",
    "globalThis['performance']": "export const stamp = (): number => globalThis['performance'].now();\n",
    'performance aliased from node:perf_hooks':
      "import { performance as p } from 'node:perf_hooks';\nexport const stamp = (): number => p.now();\n",
    'perf_hooks imported whole':
      "import * as hooks from 'perf_hooks';\nexport const stamp = (): number => hooks.performance.now();\n",
    'perf_hooks imported dynamically':
      "export const stamp = async (): Promise<number> => (await import('node:perf_hooks')).performance.now();\n",
    'process.uptime()': 'export const stamp = (): number => process.uptime();\n',
    "process['uptime']": "export const stamp = (): number => process['uptime']();\n",
    'Intl.DateTimeFormat().format()': 'export const stamp = (): string => Intl.DateTimeFormat().format();\n',
    'new Intl.DateTimeFormat(locale).format()':
      "export const stamp = (): string => new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format();\n",
    'a kept DateTimeFormat formatToParts()':
      "const f = new Intl.DateTimeFormat('en');\nexport const stamp = () => f.formatToParts();\n",
  };
  const biomeLint = (...paths: string[]) => {
    const run = spawnSync(
      biome,
      ['lint', '--max-diagnostics=none', ...paths.map((p) => join('packages/server/src', p))],
      { cwd: scratch, encoding: 'utf8' },
    );
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };
  const plantBiome = () => {
    mkdirSync(join(scratch, 'lint'), { recursive: true });
    copyFileSync(join(root, 'biome.json'), join(scratch, 'biome.json'));
    for (const plugin of readdirSync(join(root, 'lint'))) {
      copyFileSync(join(root, 'lint', plugin), join(scratch, 'lint', plugin));
    }
  };
  /**
   * Plants each source in domain/tokens and in `elsewhere`, runs biome once over both (each process
   * costs seconds on a busy machine), and answers, per planted file, whether a plugin refused it
   * with `message`.
   */
  const lintPlanted = (sources: Record<string, string>, elsewhere: string, message: RegExp) => {
    plantBiome();
    const planted = Object.entries(sources).map(([name, source], i) => {
      plant(`domain/tokens/planted-${i}.ts`, source);
      plant(`${elsewhere}/planted-${i}.ts`, source);
      return { name, file: `planted-${i}.ts` };
    });
    const run = biomeLint('domain/tokens', elsewhere);
    // One block per diagnostic: its "path:line:col rule" header and the lines up to the next one.
    const blocks = run.output.split(/\n(?=\S+:\d+:\d+ )/);
    const refused = (path: string) =>
      blocks.some(
        (block) => block.startsWith(`${path}:`) && /^\S+ plugin\s/.test(block) && message.test(block),
      );
    for (const { file } of planted) {
      rmSync(join(scratch, 'packages/server/src/domain/tokens', file));
      rmSync(join(scratch, 'packages/server/src', elsewhere, file));
    }
    return {
      status: run.status,
      output: run.output,
      planted,
      inDomain: (file: string) => refused(`packages/server/src/domain/tokens/${file}`),
      elsewhere: (file: string) => refused(`packages/server/src/${elsewhere}/${file}`),
    };
  };

  test('each clock read in the domain fails biome; in http none does', () => {
    const run = lintPlanted(clockReads, 'http', /reads the time from its clock \(domain\/clock\.ts\)/);
    assert.notEqual(run.status, 0);
    for (const { name, file } of run.planted) {
      assert.ok(run.inDomain(file), `${name} passed in the domain:\n${run.output}`);
      assert.ok(!run.elsewhere(file), `${name} was refused in http`);
    }
  });

  /** Each query or raw SQL that `lint/no-queries.grit` refuses in the domain: they live in storage/repos. */
  const queries: Record<string, string> = {
    "deps.db.selectFrom('users')":
      "declare const deps: { db: any };\nexport const users = () => deps.db.selectFrom('users').selectAll().execute();\n",
    "trx.deleteFrom('sessions')":
      "export const drop = (trx: any) => trx.deleteFrom('sessions').where('id', '=', 'x').execute();\n",
    "db.insertInto('users')":
      "export const add = (db: any) => db.insertInto('users').values({ id: 'x' }).execute();\n",
    "db.updateTable('users')":
      "export const rename = (db: any) => db.updateTable('users').set({ name: 'x' }).execute();\n",
    'db.selectNoFrom()':
      "export const one = (db: any) => db.selectNoFrom((eb: any) => eb.val(1).as('one')).execute();\n",
    'db.with() (a CTE)':
      "export const cte = (db: any) => db.with('u', (q: any) => q.selectFrom('users')).execute();\n",
    'db.replaceInto and db.mergeInto':
      "export const up = (db: any) => [db.replaceInto('users'), db.mergeInto('users')];\n",
    'db.executeQuery()': 'export const run = (db: any, q: any) => db.executeQuery(q);\n',
    "db['selectFrom']": "export const users = (db: any) => db['selectFrom']('users').execute();\n",
    'db.selectFrom taken':
      "declare const db: any;\nconst from = db.selectFrom;\nexport const users = () => from('users');\n",
    'deleteFrom destructured':
      "declare const trx: any;\nconst { deleteFrom } = trx;\nexport const drop = () => deleteFrom('sessions');\n",
    'a raw sql template':
      "import { sql } from './sql.js';\nexport const count = (db: any) => sql`select count(*) from users`.execute(db);\n",
    'sql.raw': "import { sql } from './sql.js';\nexport const raw = () => sql.raw('delete from sessions');\n",
  };

  test('each query or raw SQL in the domain fails biome; in storage/repos none does', () => {
    const run = lintPlanted(queries, 'storage/repos', /The domain builds no query: put it in a repository/);
    assert.notEqual(run.status, 0);
    for (const { name, file } of run.planted) {
      assert.ok(run.inDomain(file), `${name} passed in the domain:\n${run.output}`);
      assert.ok(!run.elsewhere(file), `${name} was refused in storage/repos`);
    }
  });

  /** Each transaction that `lint/no-transactions.grit` refuses in the domain: it runs the unit of work. */
  const transactions: Record<string, string> = {
    'deps.db.transaction().execute()':
      'declare const deps: { db: any };\nexport const run = (work: any) => deps.db.transaction().execute(work);\n',
    'a transaction on a handle cast back':
      'export const run = (tx: unknown, work: any) => (tx as any).transaction().execute(work);\n',
    'db.startTransaction()': 'export const begin = (db: any) => db.startTransaction().execute();\n',
    "db['transaction']": "export const run = (db: any, work: any) => db['transaction']().execute(work);\n",
    "Reflect.get(db, 'transaction')":
      "export const run = (db: any, work: any) => Reflect.get(db, 'transaction').call(db).execute(work);\n",
    'db.transaction taken':
      'declare const db: any;\nconst begin = db.transaction;\nexport const run = (work: any) => begin().execute(work);\n',
    'transaction destructured':
      'declare const db: any;\nconst { transaction } = db;\nexport const run = (work: any) => transaction().execute(work);\n',
    'db.getExecutor()': 'export const run = (db: any, q: any) => db.getExecutor().executeQuery(q);\n',
  };

  test('each transaction opened in the domain fails biome; in storage/repos none does', () => {
    const run = lintPlanted(
      transactions,
      'storage/repos',
      /The domain opens no transaction: group the writes/,
    );
    assert.notEqual(run.status, 0);
    for (const { name, file } of run.planted) {
      assert.ok(run.inDomain(file), `${name} passed in the domain:\n${run.output}`);
      assert.ok(!run.elsewhere(file), `${name} was refused in storage/repos`);
    }
  });

  test('the database imported into the domain fails, types included: Db, what opens a handle, compiled statements; the handle passes', () => {
    plant('storage/opened.ts', 'export const opened = (h: unknown) => h;\n');
    plant('storage/compiled-once.ts', 'export const compiledOnce = () => 1;\n');
    plant('storage/handle.ts', 'export interface Handle {\n  readonly brand: true;\n}\n');
    const planted = {
      'domain/tokens/db-type.ts': "import type { Db } from '../../storage/db.js';\nexport type Held = Db;\n",
      'domain/tokens/db-value.ts': "import { db } from '../../storage/db.js';\nexport const held = db;\n",
      'domain/tokens/opens.ts':
        "import { opened } from '../../storage/opened.js';\nexport const open = (h: unknown) => opened(h);\n",
      'domain/tokens/compiled.ts':
        "import { compiledOnce } from '../../storage/compiled-once.js';\nexport const c = compiledOnce;\n",
      'domain/tokens/handle.ts':
        "import type { Handle } from '../../storage/handle.js';\nexport type Held = Handle;\n",
      'delivery/db-type.ts': "import type { Db } from '../storage/db.js';\nexport type Held = Db;\n",
      'delivery/opens.ts':
        "import { opened } from '../storage/opened.js';\nexport const open = (h: unknown) => opened(h);\n",
    };
    for (const [path, text] of Object.entries(planted)) plant(path, text);
    const run = cruise(scratch, 'packages/server/src');
    assert.notEqual(run.status, 0);
    const S = 'packages/server/src';
    for (const [from, to] of [
      ['db-type', 'db'],
      ['db-value', 'db'],
      ['opens', 'opened'],
      ['compiled', 'compiled-once'],
    ]) {
      const line = `error domain-holds-no-database: ${S}/domain/tokens/${from}.ts → ${S}/storage/${to}.ts`;
      assert.ok(run.output.includes(line), `${from} passed in the domain:\n${run.output}`);
    }
    assert.ok(!run.output.includes('domain/tokens/handle.ts'), run.output);
    assert.ok(!run.output.includes('delivery/'), run.output);
    for (const path of [
      ...Object.keys(planted),
      'storage/opened.ts',
      'storage/compiled-once.ts',
      'storage/handle.ts',
    ]) {
      rmSync(join(scratch, S, path));
    }
  });

  /** Each outbound call that `lint/no-fetch.grit` refuses in the domain: it takes a port instead. */
  const fetches: Record<string, string> = {
    'fetch()': "export const get = () => fetch('http://127.0.0.1/');\n",
    'fetch passed on': 'export const ports = { get: fetch };\n',
    'fetch aliased': "const f = fetch;\nexport const get = () => f('http://127.0.0.1/');\n",
    'globalThis.fetch': "export const get = () => globalThis.fetch('http://127.0.0.1/');\n",
    'self.fetch': "export const get = () => self.fetch('http://127.0.0.1/');\n",
    "globalThis['fetch']": "export const get = () => globalThis['fetch']('http://127.0.0.1/');\n",
    'fetch destructured from globalThis':
      "const { fetch: f } = globalThis;\nexport const get = () => f('http://127.0.0.1/');\n",
  };

  test('each global fetch in the domain fails biome; in delivery none does', () => {
    const run = lintPlanted(fetches, 'delivery', /The domain calls no server itself/);
    assert.notEqual(run.status, 0);
    for (const { name, file } of run.planted) {
      assert.ok(run.inDomain(file), `${name} passed in the domain:\n${run.output}`);
      assert.ok(!run.elsewhere(file), `${name} was refused in delivery`);
    }
  });

  test('the unit of work handing its tx to repositories, a port named fetch and typeof fetch pass in the domain', () => {
    plantBiome();
    plant(
      'domain/tokens/planted.ts',
      [
        "import type { Handle, UnitOfWork } from '../../storage/handle.js';",
        "import { deleteSessions, findSession } from '../../storage/repos/sessions.js';",
        'type Deps = { store: Handle; unitOfWork: UnitOfWork };',
        'export const revoke = (deps: Deps, id: string) =>',
        '  deps.unitOfWork.run((tx) => deleteSessions(tx, id));',
        'export const read = (deps: Deps, id: string) => findSession(deps.store, id);',
        'export type Fetcher = { fetch(url: string): Promise<Response> };',
        "export const get = (fetcher: Fetcher) => fetcher.fetch('http://127.0.0.1/');",
        'export type Call = typeof fetch;',
        '',
      ].join('\n'),
    );
    const run = biomeLint('domain/tokens/planted.ts');
    assert.equal(run.status, 0, run.output);
    rmSync(join(scratch, 'packages/server/src/domain/tokens/planted.ts'));
  });

  test('dates that read no clock pass in the domain, and domain/clock.ts may read it', () => {
    plantBiome();
    plant(
      'domain/tokens/planted.ts',
      [
        'export const at = (ms: number): Date => new Date(ms);',
        'export const parsed = (text: string): number => Date.parse(text);',
        'export const utc = (): number => Date.UTC(2026, 0, 1);',
        'export const iso = (ms: number): string => new Date(ms).toISOString();',
        'export type Stamped = { at: Date };',
        "export const day = (at: Date): string => new Intl.DateTimeFormat('en').format(at);",
        "export const zone = (tz: string) => new Intl.DateTimeFormat('en', { timeZone: tz });",
        '',
      ].join('\n'),
    );
    plant('domain/clock.ts', 'export const clock = { now: (): number => Date.now() };\n');
    const run = biomeLint('domain/tokens/planted.ts', 'domain/clock.ts');
    assert.equal(run.status, 0, run.output);
    rmSync(join(scratch, 'packages/server/src/domain/tokens/planted.ts'));
    plant('domain/clock.ts', 'export const clock = { now: () => 0 };\n');
  });

  test('a storage row in the domain fails: storage/schema.ts by the layering lint, a *Row or *Table type by biome', () => {
    plantBiome();
    plant('storage/schema.ts', 'export interface PasskeysTable {\n  id: string;\n}\n');
    plant(
      'storage/repos/passkeys.ts',
      [
        "import type { PasskeysTable } from '../schema.js';",
        'export type PasskeyRow = PasskeysTable;',
        'export const deletePasskeyRow = (): void => undefined;',
        '',
      ].join('\n'),
    );
    plant(
      'domain/sign-in/schema-row.ts',
      "import type { PasskeysTable } from '../../storage/schema.js';\nexport type Stored = PasskeysTable;\n",
    );
    plant(
      'domain/sign-in/repo-row.ts',
      [
        "import { deletePasskeyRow, type PasskeyRow } from '../../storage/repos/passkeys.js';",
        'export const drop: () => void = deletePasskeyRow;',
        'export type Stored = PasskeyRow;',
        '',
      ].join('\n'),
    );
    const cruised = cruise(scratch, 'packages/server/src');
    assert.notEqual(cruised.status, 0);
    assert.match(
      cruised.output,
      /error domain-reads-no-rows: packages\/server\/src\/domain\/sign-in\/schema-row\.ts → packages\/server\/src\/storage\/schema\.ts/,
    );
    assert.doesNotMatch(cruised.output, /storage\/repos\/passkeys\.ts →/);
    const linted = biomeLint('domain/sign-in', 'storage');
    assert.notEqual(linted.status, 0);
    const refusals = (path: string) =>
      linted.output.split('\n').filter((line) => line.startsWith(`${path}:`) && /\splugin\s/.test(line));
    // The type named like a row is refused, once each; the function whose name ends in Row is not.
    assert.equal(refusals('packages/server/src/domain/sign-in/schema-row.ts').length, 1, linted.output);
    assert.equal(refusals('packages/server/src/domain/sign-in/repo-row.ts').length, 1, linted.output);
    assert.match(linted.output, /repo-row\.ts:1:28 plugin/);
    assert.equal(refusals('packages/server/src/storage/repos/passkeys.ts').length, 0, linted.output);
    assert.match(linted.output, /never a storage row/);
    for (const path of [
      'storage/schema.ts',
      'storage/repos/passkeys.ts',
      'domain/sign-in/schema-row.ts',
      'domain/sign-in/repo-row.ts',
    ]) {
      rmSync(join(scratch, 'packages/server/src', path));
    }
  });

  const fakePackage = (name: string) => {
    const packageDir = join(scratch, 'node_modules', name);
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
    writeFileSync(join(packageDir, 'index.js'), 'export const thing = 1;\n');
  };

  test('an HTTP, SQL or JWT package imported into the domain fails, types included; into storage it does not', () => {
    const names = [
      ...['fastify', '@fastify/cookie', 'light-my-request', 'undici', 'express', 'koa', '@koa/cors'],
      ...['openapi-fetch', 'simple-oauth2', 'oidc-provider'],
      ...['kysely', 'pg', 'pg-pool', 'better-sqlite3'],
      ...['jose', 'jsonwebtoken', 'jwks-rsa', 'koa-jwt', 'express-oauth2-jwt-bearer'],
    ];
    names.forEach((name, i) => {
      fakePackage(name);
      plant(`domain/uses-${i}.ts`, `import { thing } from '${name}';\nexport const x = thing;\n`);
      plant(`domain/types-${i}.ts`, `import type { Thing } from '${name}';\nexport type X = Thing;\n`);
      plant(`storage/uses-${i}.ts`, `import { thing } from '${name}';\nexport const x = thing;\n`);
    });
    const run = cruise(scratch, 'packages/server/src');
    assert.notEqual(run.status, 0);
    names.forEach((name, i) => {
      for (const file of [`uses-${i}`, `types-${i}`]) {
        const line = `error domain-has-no-http-sql-or-jwt: packages/server/src/domain/${file}.ts → node_modules/${name}/index.js`;
        assert.ok(run.output.includes(line), `${name} (${file}) passed in the domain:\n${run.output}`);
      }
      assert.ok(!run.output.includes(`storage/uses-${i}.ts`), `${name} was refused in storage`);
      for (const file of [`domain/uses-${i}.ts`, `domain/types-${i}.ts`, `storage/uses-${i}.ts`]) {
        rmSync(join(scratch, 'packages/server/src', file));
      }
    });
  });

  test("node's HTTP modules imported into the domain fail; into delivery they do not", () => {
    const modules = { http: 'node:http', https: 'https', http2: 'node:http2' };
    const entries = Object.entries(modules);
    entries.forEach(([, specifier], i) => {
      plant(`domain/core-${i}.ts`, `import * as m from '${specifier}';\nexport const x = m;\n`);
      plant(`delivery/core-${i}.ts`, `import * as m from '${specifier}';\nexport const x = m;\n`);
    });
    const run = cruise(scratch, 'packages/server/src');
    assert.notEqual(run.status, 0);
    entries.forEach(([resolved, specifier], i) => {
      const line = `error domain-has-no-http-sql-or-jwt: packages/server/src/domain/core-${i}.ts → ${resolved}\n`;
      assert.ok(run.output.includes(line), `${specifier} passed in the domain:\n${run.output}`);
      assert.ok(!run.output.includes(`delivery/core-${i}.ts`), `${specifier} was refused in delivery`);
      rmSync(join(scratch, `packages/server/src/domain/core-${i}.ts`));
      rmSync(join(scratch, `packages/server/src/delivery/core-${i}.ts`));
    });
  });

  test('an OpenID client imported into the domain fails but in domain/federation/oidc-upstream.ts', () => {
    const names = ['openid-client', 'oauth4webapi'];
    names.forEach((name, i) => {
      fakePackage(name);
      plant(`domain/tokens/oidc-${i}.ts`, `import { thing } from '${name}';\nexport const x = thing;\n`);
    });
    plant(
      'domain/federation/oidc-upstream.ts',
      "import { thing } from 'openid-client';\nexport const x = thing;\n",
    );
    const run = cruise(scratch, 'packages/server/src');
    assert.notEqual(run.status, 0);
    names.forEach((name, i) => {
      const line = `error domain-has-one-oidc-client: packages/server/src/domain/tokens/oidc-${i}.ts → node_modules/${name}/index.js`;
      assert.ok(run.output.includes(line), `${name} passed in the domain:\n${run.output}`);
      rmSync(join(scratch, `packages/server/src/domain/tokens/oidc-${i}.ts`));
    });
    assert.ok(!run.output.includes('oidc-upstream.ts'), run.output);
    rmSync(join(scratch, 'packages/server/src/domain/federation/oidc-upstream.ts'));
  });
});

describe('docs/architecture.md', () => {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  /** Each table of the contract: the heading above it and the first cell of every row. */
  const fixture = join(root, 'packages/server/test/fixtures/contract-tables.json');
  const tables = JSON.parse(readFileSync(fixture, 'utf8')) as { heading: string; rows: string[] }[];

  test('the fixture is the contract as it stands beside this checkout, when it does', () => {
    const specPath = join(root, '../shared/spec/identity-service.md');
    assert.equal(tables.length, 16);
    if (existsSync(specPath)) assert.deepEqual(contractTables(readFileSync(specPath, 'utf8')), tables);
  });

  test('names, for every table of the contract, where each of its rows lives', () => {
    for (const table of tables) {
      assert.ok(
        doc.includes(`### ${table.heading}\n`),
        `docs/architecture.md has no section for "${table.heading}"`,
      );
      const section = doc.split(`### ${table.heading}\n`)[1]?.split('\n### ')[0] ?? '';
      for (const row of table.rows) {
        assert.ok(section.includes(`| ${row} |`), `"${table.heading}": no row for ${row}`);
      }
    }
  });

  test('every file it names exists', () => {
    const files = [...doc.matchAll(/`((?:packages|src)\/[^`\s]+\.ts)`/g)].map((m) => m[1] as string);
    assert.ok(files.length > 50, `only ${files.length} files named`);
    const missing = files.filter(
      (f) => !existsSync(join(root, f.startsWith('src/') ? `packages/server/${f}` : f)),
    );
    assert.deepEqual(missing, []);
  });
});

function contractTables(spec: string): { heading: string; rows: string[] }[] {
  const found: { heading: string; rows: string[] }[] = [];
  let heading = '';
  let current: { heading: string; rows: string[] } | null = null;
  for (const line of spec.split('\n')) {
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
    if (!line.startsWith('|')) {
      current = null;
      continue;
    }
    if (!current) {
      current = { heading, rows: [] };
      found.push(current); // the header row starts the table
      continue;
    }
    if (/^\|\s*-/.test(line)) continue;
    current.rows.push(line.split('|')[1]?.trim() ?? '');
  }
  return found;
}
