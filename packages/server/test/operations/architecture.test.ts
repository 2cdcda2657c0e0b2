import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';

/**
 * The layering the lint enforces (`npm run lint`): a wrong-way import, a cycle and Date.now() in the
 * domain each fail it, and the real tree passes. Planted files go into a scratch copy of the layout,
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
    plant('http/errors.ts', 'export const code = 1;\n');
    plant('storage/db.ts', 'export const db = 1;\n');
    plant('crypto/random.ts', 'export const bytes = 1;\n');
    plant('domain/clock.ts', 'export const clock = { now: () => 0 };\n');
  });
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('the tree as committed has no violation and no cycle', () => {
    const run = cruise(root, 'packages/server/src', 'packages/koa/src', 'packages/sdk/src');
    assert.equal(run.status, 0, run.output);
    assert.match(run.output, /no dependency violations found/);
  });

  test('a planted domain → http import fails', () => {
    plant('domain/planted.ts', "import { code } from '../http/errors.js';\nexport const x = code;\n");
    const run = cruise(scratch, 'packages/server/src');
    assert.notEqual(run.status, 0);
    assert.match(
      run.output,
      /error domain-has-no-transport: packages\/server\/src\/domain\/planted\.ts → packages\/server\/src\/http\/errors\.ts/,
    );
    rmSync(join(scratch, 'packages/server/src/domain/planted.ts'));
  });

  test('a planted http → storage import and a crypto → domain import fail', () => {
    plant('http/planted.ts', "import { db } from '../storage/db.js';\nexport const x = db;\n");
    plant('crypto/planted.ts', "import { clock } from '../domain/clock.js';\nexport const y = clock;\n");
    const run = cruise(scratch, 'packages/server/src');
    assert.notEqual(run.status, 0);
    assert.match(
      run.output,
      /error http-is-transport: packages\/server\/src\/http\/planted\.ts → packages\/server\/src\/storage\/db\.ts/,
    );
    assert.match(
      run.output,
      /error crypto-depends-on-nothing: packages\/server\/src\/crypto\/planted\.ts → packages\/server\/src\/domain\/clock\.ts/,
    );
    rmSync(join(scratch, 'packages/server/src/http/planted.ts'));
    rmSync(join(scratch, 'packages/server/src/crypto/planted.ts'));
  });

  test('a planted import cycle fails', () => {
    plant('domain/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    plant('domain/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    const run = cruise(scratch, 'packages/server/src');
    assert.notEqual(run.status, 0);
    assert.match(run.output, /error no-cycles: packages\/server\/src\/domain\/a\.ts/);
    rmSync(join(scratch, 'packages/server/src/domain/a.ts'));
    rmSync(join(scratch, 'packages/server/src/domain/b.ts'));
  });

  test('Date.now() in the domain fails biome; in http it does not', () => {
    mkdirSync(join(scratch, 'lint'), { recursive: true });
    copyFileSync(join(root, 'biome.json'), join(scratch, 'biome.json'));
    copyFileSync(join(root, 'lint/no-date-now.grit'), join(scratch, 'lint/no-date-now.grit'));
    const source = 'export const stamp = (): number => Date.now();\n';
    plant('domain/tokens/planted.ts', source);
    plant('http/planted.ts', source);
    const lint = (path: string) =>
      spawnSync(biome, ['lint', join('packages/server/src', path)], { cwd: scratch, encoding: 'utf8' });
    const domain = lint('domain/tokens/planted.ts');
    assert.notEqual(domain.status, 0);
    assert.match(`${domain.stdout}${domain.stderr}`, /use clock\.now\(\) instead of Date\.now\(\)/);
    const http = lint('http/planted.ts');
    assert.equal(http.status, 0, `${http.stdout}${http.stderr}`);
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
