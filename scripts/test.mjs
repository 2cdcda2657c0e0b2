// Runs every test file of the workspace with node's test runner (TypeScript through tsx). A test
// that hangs fails after 5 minutes instead of stalling the run. Before the runner's summary it prints
// how long each file took, slowest first.
// Usage: npm test [-- <substring filter on file paths>]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const files = ['packages']
  .flatMap((d) => walk(join(root, d), []))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  [
    '--conditions=tessera-source',
    '--import',
    'tsx',
    '--test',
    // node's own report, plus each file's time before the summary (scripts/test-reporter.mjs).
    `--test-reporter=${join(root, 'scripts/test-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    '--test-concurrency=2',
    '--test-timeout=300000',
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
