import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from '../support/runtime.js';
import { freePort } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';

// DESIGN §18: the production install of docs/deploying.md (`npm ci`, which builds through the root
// `prepare` script, then `npm prune --omit=dev`), done on a scratch copy of this working tree, leaves
// no dev dependency and serves with plain `node`.
//
// Three steps differ from an operator's, for time only: npm installs from its cache (`--offline`, as
// after CI's own `npm ci`; the tests talk to loopback only); the one install script of a production
// dependency (better-sqlite3's, which downloads or compiles its addon: minutes of C++ on a busy
// machine) is stood in for by this checkout's addon of the same version; and the TypeScript
// packages' build output (their dist/, with tsc's build info) is copied from this checkout, so
// `tsc -b` compiles only what differs from it (nothing, in CI) instead of the whole tree again
// (~50 s of CPU). Building a tree from nothing is what CI's own `npm ci` of its fresh clone does
// first, and fails the run when it fails. `prepare`, the console's build, the prune and the start are
// the real ones.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'tessera-install-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** npm, as the test runner was started by it (`npm test`), else the one on PATH. */
function npm(args: string[], cwd: string) {
  const execPath = process.env.npm_execpath;
  const [command, argv] = execPath ? [process.execPath, [execPath, ...args]] : ['npm', args];
  return spawnSync(command, argv, {
    cwd,
    encoding: 'utf8',
    // A step that hangs fails the test rather than outliving it.
    timeout: 600_000,
    killSignal: 'SIGKILL',
    // Not NODE_ENV=production: with it `npm ci` leaves the dev dependencies out, and nothing builds.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() },
  });
}

const output = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

/** What a clone of this working tree holds: tracked files and new ones not ignored, as they are now. */
function copyWorkingTree(): string | null {
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (files.status !== 0) return null;
  for (const file of files.stdout.split('\0').filter(Boolean)) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    copyFileSync(from, join(scratch, file));
  }
  return scratch;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

const ADDON = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

test('npm ci, then npm prune --omit=dev: no dev dependency left, and plain node serves (/readyz 200)', {
  timeout: 600_000,
}, async (t) => {
  if (spawnSync('git', ['--version']).status !== 0) return t.skip('SKIPPED: git is not installed');
  if (!existsSync(join(ROOT, ADDON))) return t.skip(`SKIPPED: ${ADDON} is missing in this checkout`);
  const dir = copyWorkingTree();
  if (dir === null) return t.skip('SKIPPED: not a git checkout');
  for (const pkg of ['sdk', 'koa', 'server']) {
    const built = join(ROOT, 'packages', pkg, 'dist');
    if (existsSync(built)) cpSync(built, join(dir, 'packages', pkg, 'dist'), { recursive: true });
  }
  const timings: Record<string, number> = {};
  const timed = <T>(step: string, work: () => T): T => {
    const start = Date.now();
    try {
      return work();
    } finally {
      timings[step] = Date.now() - start;
    }
  };

  const ci = timed('npm ci', () =>
    npm(['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], dir),
  );
  assert.equal(ci.status, 0, output(ci));
  const version = (path: string) =>
    (
      JSON.parse(readFileSync(join(path, 'node_modules/better-sqlite3/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  assert.equal(version(dir), version(ROOT), 'the lockfile and this checkout agree on better-sqlite3');
  mkdirSync(dirname(join(dir, ADDON)), { recursive: true });
  copyFileSync(join(ROOT, ADDON), join(dir, ADDON));

  // What `npm ci` runs last: the root prepare script, which builds (tsc, then the console with Vite).
  const prepare = timed('prepare (build)', () => npm(['run', 'prepare'], dir));
  assert.equal(prepare.status, 0, output(prepare));
  assert.ok(existsSync(join(dir, 'packages/server/dist/cli/main.js')));
  assert.ok(existsSync(join(dir, 'packages/console/dist/index.html')));

  const prune = timed('npm prune', () =>
    npm(['prune', '--omit=dev', '--offline', '--no-audit', '--no-fund'], dir),
  );
  assert.equal(prune.status, 0, output(prune));

  // Not one package the lockfile marks dev (typescript, tsx, vite, the test libraries…) is installed.
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const dev = Object.entries(lock.packages)
    .filter(([path, p]) => p.dev && path.includes('node_modules/'))
    .map(([path]) => path);
  assert.ok(dev.includes('node_modules/typescript') && dev.includes('node_modules/tsx'));
  assert.deepEqual(
    dev.filter((path) => existsSync(join(dir, path))),
    [],
  );
  assert.ok(existsSync(join(dir, 'node_modules/fastify')), 'production dependencies stay');

  // Every module of the server's build loads without them (the CLI imports its commands lazily).
  // cli/main.js is left out: importing it runs the CLI (it is run below, through the bin).
  const modules = jsFiles(join(dir, 'packages/server/dist'))
    .map((f) => relative(dir, f))
    .filter((f) => f !== join('packages', 'server', 'dist', 'cli', 'main.js'));
  const load = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `for (const f of ${JSON.stringify(modules)}) await import('./' + f);`],
    { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
  );
  assert.equal(load.status, 0, output(load));

  // `npm ci --omit=dev` on this built tree runs the same prepare: it keeps the build and succeeds.
  const again = spawnSync(process.execPath, ['scripts/prepare.mjs'], { cwd: dir, encoding: 'utf8' });
  assert.equal(again.status, 0, output(again));
  assert.match(again.stdout, /keeping the existing build/);

  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'tessera-install-data-'));
  t.after(() => rmSync(data, { recursive: true, force: true }));
  const server = await timed('start', () =>
    new TesseraProcess(
      ['packages/server/bin/tessera.mjs', 'serve'],
      {
        PORT: String(port),
        TESSERA_URL: `http://localhost:${port}`,
        TESSERA_DATA_DIR: data,
        TESSERA_SECRET: TEST_SECRET,
        TESSERA_LOG_LEVEL: 'silent',
        NODE_ENV: 'production',
      },
      { entry: [], cwd: dir },
    ).untilServing(port),
  );
  t.after(() => server.stop());
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  assert.equal(ready.status, 200);
  assert.deepEqual(await ready.json(), { status: 'ready', database: 'sqlite' });
  const consolePage = await fetch(`http://127.0.0.1:${port}/console/`);
  assert.equal(consolePage.status, 200);
  assert.match(await consolePage.text(), /<div id="app">|<script type="module"/);
  t.diagnostic(`timings (ms): ${JSON.stringify(timings)}`);
});
