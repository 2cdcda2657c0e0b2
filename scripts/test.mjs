// Runs every test file of the workspace with node's test runner (TypeScript through tsx). A group of
// files that hangs fails after 10 minutes instead of stalling the run. Before the runner's summary it
// prints how long each group of files took and the CPU it used, slowest first.
//
// Files run in groups, one process per group: the files of one area (a folder under a package's
// test/, e.g. server/sign-in), at most GROUP_SIZE of them, imported one after another by a small entry
// file. Each process of the runner costs about 2.4 s of CPU before its first test (tsx and the server's
// modules); a group pays that once. Two groups run at once (TESSERA_TEST_CONCURRENCY to change it; three
// made the browser groups twice as long and a PostgreSQL connection wait past its 5 s, for no shorter
// run), the longest first, so that the run does not end with one long group running alone. node's runner
// takes its files in the order of their names, so each entry's name starts with its place. A group's
// length is what scripts/test-weights.json says it took (seconds, from the table a whole run prints;
// refresh it when groups change much), else WEIGHT_PER_FILE seconds per file.
// TESSERA_TEST_ISOLATE=1 runs one process per file instead (to rule out one file disturbing another).
//
// Usage: npm test [-- <substring filter on file paths>]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const GROUP_SIZE = 10;
const WEIGHTS = JSON.parse(readFileSync(join(root, 'scripts/test-weights.json'), 'utf8'));
const WEIGHT_PER_FILE = 4;

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

/** `packages/server/test/sign-in/x.test.ts` → `server-sign-in`; a package's own test/ files → `server`. */
function areaOf(file) {
  const [, pkg, , ...rest] = file.split('/');
  return rest.length > 1 ? `${pkg}-${rest[0]}` : pkg;
}

/**
 * First line of a group's entry: at exit, the CPU the group used (its process and every child it waited
 * for, with theirs: the CLI processes, servers and browsers its tests started), from /proc/self/stat, in
 * seconds, written beside the entry as <entry>.cpu for the reporter. Where there is no /proc, nothing.
 */
const CPU_AT_EXIT = `import { readFileSync as r, writeFileSync as w } from 'node:fs'; process.once('exit', () => { try { const f = r('/proc/self/stat', 'utf8').split(') ')[1].split(' '); const t = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0); w(new URL(import.meta.url).pathname + '.cpu', String(t / 100)); } catch {} });`;

/** The entry files of the groups, written under node_modules/.cache, longest first. */
function groupEntries() {
  // One folder per run: two runs at once in one checkout must not delete each other's entries.
  const dir = join(root, 'node_modules/.cache/tessera-test-groups', String(process.pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const areas = new Map();
  for (const file of files) areas.set(areaOf(file), [...(areas.get(areaOf(file)) ?? []), file]);
  const groups = [];
  for (const [area, members] of areas) {
    const count = Math.ceil(members.length / GROUP_SIZE);
    // Even chunks: 9 files make groups of 5 and 4, not 7 and 2.
    const size = Math.ceil(members.length / count);
    for (let i = 0; i < count; i++) {
      const name = count === 1 ? area : `${area}-${i + 1}`;
      groups.push({ name, members: members.slice(i * size, (i + 1) * size) });
    }
  }
  const weight = (g) => WEIGHTS[g.name] ?? g.members.length * WEIGHT_PER_FILE;
  groups.sort((a, b) => weight(b) - weight(a) || a.name.localeCompare(b.name));
  // node's runner starts the files it is given in the order of their names, not in the order given:
  // each entry's name starts with its place (`03-server-console-2`) so that order is longest first.
  const digits = String(groups.length).length;
  return groups.map(({ name, members }, place) => {
    const entry = join(dir, `${String(place).padStart(digits, '0')}-${name}.test.mjs`);
    const lines = members.map((f) => `await import(${JSON.stringify(pathToFileURL(join(root, f)).href)});`);
    writeFileSync(entry, `// ${members.join(', ')}\n${CPU_AT_EXIT}\n${lines.join('\n')}\n`);
    return entry;
  });
}

const isolate = process.env.TESSERA_TEST_ISOLATE === '1';
const result = spawnSync(
  process.execPath,
  [
    '--conditions=tessera-source',
    '--import',
    'tsx',
    '--test',
    // node's own report, plus each group's time before the summary (scripts/test-reporter.mjs).
    `--test-reporter=${join(root, 'scripts/test-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    `--test-concurrency=${Number(process.env.TESSERA_TEST_CONCURRENCY) > 0 ? Number(process.env.TESSERA_TEST_CONCURRENCY) : 2}`,
    // A group's limit. The slowest groups took 240–274 s in a whole run on 2 cores, most of it a process
    // per CLI command (server-1) before the tests' CLI session; a limit they can reach under load fails a
    // run for being slow.
    '--test-timeout=600000',
    ...(isolate ? files : groupEntries()),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
