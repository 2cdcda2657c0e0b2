import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { postgresSkip } from '../support/environment.js';
import { createPostgresSchema } from '../support/postgres.js';
import { TEST_SECRET } from '../support/runtime.js';
import { freePort } from '../support/server.js';
import { spawnGroup, TesseraProcess } from '../support/tessera-process.js';

// DESIGN §18, issue 48: the production install is one script, scripts/install-production.sh (`npm ci`,
// whose `prepare` builds every package, then `npm prune --omit=dev`), run by docs/deploying.md and by
// the Dockerfile's build. Here it runs as an unprivileged user on a scratch copy of this working tree;
// the copy is then made read-only (owned by root when this test is root), and the service, started from
// it as that user against PostgreSQL (a schema of this test's own), answers /readyz 200, passes the
// Dockerfile's HEALTHCHECK command and writes nothing into the install.
//
// What differs from an operator's run, for time only, and never reaches the network: npm installs from
// a copy of this machine's npm cache (offline, as after CI's own `npm ci`; a proxy at 127.0.0.1:9 makes
// any other fetch fail at once); better-sqlite3's install script finds its addon in that cache (put
// there by .ci/keep-addon.cjs from this checkout's, as CI keeps it) instead of downloading or
// compiling it; and the TypeScript packages' build output (dist/, with tsc's build info) is copied
// from this checkout, so `tsc -b` compiles only what differs (nothing, in CI). Building from nothing
// is what CI's own `npm ci` of its fresh clone does first. The script, `prepare`, the console's build,
// the prune and the start are the real ones.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'tessera-install-'));
// mkdtemp's 0700 would keep the unprivileged user out of everything below.
chmodSync(scratch, 0o755);
const install = join(scratch, 'tessera');
const ADDON = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
const isRoot = process.getuid?.() === 0;

after(() => {
  // A read-only tree is removed once its owner may write it again.
  if (existsSync(install)) spawnSync('chmod', ['-R', 'u+w', install]);
  rmSync(scratch, { recursive: true, force: true });
});

/** The unprivileged user that installs and runs: `nobody` when this test is root, else this user. */
function unprivileged(): { uid: number; gid: number } | null {
  if (!isRoot) return null;
  const id = (flag: string) => spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  if (uid.status !== 0 || gid.status !== 0) throw new Error('no user `nobody` to install as');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function chown(path: string, user: { uid: number; gid: number } | null, recursive = true): void {
  if (!user) return;
  const args = [...(recursive ? ['-R'] : []), `${user.uid}:${user.gid}`, path];
  assert.equal(spawnSync('chown', args).status, 0, `chown ${args.join(' ')}`);
}

/** Runs `command` to its end in a process group of its own (as `user`): its exit code and output. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; user: { uid: number; gid: number } | null },
): Promise<{ code: number | null; output: string }> {
  const child = spawnGroup(command, args, {
    cwd: options.cwd,
    env: options.env,
    ...(options.user ?? {}),
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** What a clone of this working tree holds: tracked files and new ones not ignored, as they are now. */
function copyWorkingTree(): boolean {
  const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (files.status !== 0) return false;
  for (const file of files.stdout.split('\0').filter(Boolean)) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(install, file)), { recursive: true });
    copyFileSync(from, join(install, file));
    chmodSync(join(install, file), lstatSync(from).mode & 0o777);
  }
  return true;
}

/**
 * npm's cache for the install, from this machine's: the content (large, never rewritten) hard-linked,
 * the index (small, appended to by an install) copied, and better-sqlite3's addon kept as CI keeps it.
 */
function npmCache(user: { uid: number; gid: number } | null): string | null {
  const source = join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_cacache');
  if (!existsSync(join(source, 'content-v2')) || !existsSync(join(source, 'index-v5'))) return null;
  const cache = join(scratch, 'npm-cache');
  mkdirSync(join(cache, '_cacache'), { recursive: true });
  const linked = spawnSync('cp', ['-al', join(source, 'content-v2'), join(cache, '_cacache')]);
  if (linked.status !== 0)
    cpSync(join(source, 'content-v2'), join(cache, '_cacache', 'content-v2'), { recursive: true });
  cpSync(join(source, 'index-v5'), join(cache, '_cacache', 'index-v5'), { recursive: true });
  const kept = spawnSync(process.execPath, [join(ROOT, '.ci', 'keep-addon.cjs')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', npm_config_cache: cache },
  });
  assert.match(kept.stdout, /keep-addon: kept at /, `${kept.stdout}${kept.stderr}`);
  if (user) {
    // Its directories and index are the installer's; the linked content files stay as they are.
    chown(join(cache, '_cacache', 'index-v5'), user);
    chown(join(cache, '_prebuilds'), user);
    const dirs = spawnSync('find', [
      cache,
      '-type',
      'd',
      '-exec',
      'chown',
      `${user.uid}:${user.gid}`,
      '{}',
      '+',
    ]);
    assert.equal(dirs.status, 0);
  }
  return cache;
}

/** Every file and directory under `dir` with its size, mode and modification time. */
function snapshot(dir: string): Map<string, string> {
  const seen = new Map<string, string>();
  const walk = (path: string) => {
    const stat = lstatSync(path);
    seen.set(relative(dir, path), `${stat.size} ${stat.mode.toString(8)} ${stat.mtimeMs} ${stat.uid}`);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(dir);
  return seen;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

/** The Dockerfile's HEALTHCHECK command (its exec form, a JSON array after CMD). */
function healthcheckCommand(): string[] {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const line = dockerfile.split('\n').find((l) => l.startsWith('HEALTHCHECK '));
  const json = line ? /\bCMD (\[.*\])\s*$/.exec(line)?.[1] : undefined;
  assert.ok(json, 'the Dockerfile has a HEALTHCHECK in exec form');
  return JSON.parse(json) as string[];
}

test('scripts/install-production.sh as an unprivileged user, then read-only: no dev dependency, plain node serves PostgreSQL (/readyz 200), the install is not written to', {
  timeout: 600_000,
}, async (t) => {
  if (spawnSync('git', ['--version']).status !== 0) return t.skip('SKIPPED: git is not installed');
  if (!existsSync(join(ROOT, ADDON))) return t.skip(`SKIPPED: ${ADDON} is missing in this checkout`);
  const skip = await postgresSkip();
  if (skip) return t.skip(skip);
  const user = unprivileged();
  if (!copyWorkingTree()) return t.skip('SKIPPED: not a git checkout');
  for (const pkg of ['sdk', 'koa', 'server']) {
    const built = join(ROOT, 'packages', pkg, 'dist');
    if (existsSync(built)) cpSync(built, join(install, 'packages', pkg, 'dist'), { recursive: true });
  }
  const cache = npmCache(user);
  if (cache === null) return t.skip("SKIPPED: npm's cache is empty (run npm ci first)");
  const home = join(scratch, 'home');
  mkdirSync(home);
  chown(install, user);
  chown(home, user);
  const PATH = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  const timings: Record<string, number> = {};

  // The install, as the unprivileged user. Not NODE_ENV=production: the script keeps the dev
  // dependencies the build needs anyway (--include=dev), and that is checked by setting it here.
  let start = Date.now();
  const installed = await run('sh', ['scripts/install-production.sh'], {
    cwd: install,
    user,
    env: {
      PATH,
      HOME: home,
      NODE_ENV: 'production',
      npm_config_cache: cache,
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_proxy: 'http://127.0.0.1:9',
      npm_config_https_proxy: 'http://127.0.0.1:9',
    },
  });
  timings.install = Date.now() - start;
  assert.equal(installed.code, 0, installed.output);
  assert.ok(existsSync(join(install, 'packages/server/dist/cli/main.js')));
  assert.ok(existsSync(join(install, 'packages/console/dist/index.html')));
  assert.ok(existsSync(join(install, ADDON)), "better-sqlite3's addon is installed");
  assert.ok(
    readFileSync(join(install, ADDON)).equals(readFileSync(join(ROOT, ADDON))),
    'the addon is the one kept in the cache, not one compiled or downloaded',
  );

  // Not one package the lockfile marks dev (typescript, tsx, vite, the test libraries…) is installed.
  const lock = JSON.parse(readFileSync(join(install, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const dev = Object.entries(lock.packages)
    .filter(([path, p]) => p.dev && path.includes('node_modules/'))
    .map(([path]) => path);
  assert.ok(dev.includes('node_modules/typescript') && dev.includes('node_modules/tsx'));
  assert.deepEqual(
    dev.filter((path) => existsSync(join(install, path))),
    [],
  );
  assert.ok(existsSync(join(install, 'node_modules/fastify')), 'production dependencies stay');

  // Read-only from here on: root's when this test is root, and no one's to write in any case.
  chown(install, isRoot ? { uid: 0, gid: 0 } : null);
  assert.equal(spawnSync('chmod', ['-R', 'a-w', install]).status, 0);
  const denied = await run('sh', ['-c', `touch ${JSON.stringify(join(install, 'written'))}`], {
    cwd: scratch,
    user,
    env: { PATH },
  });
  assert.notEqual(denied.code, 0, 'the service user cannot write into the install');
  const before = snapshot(install);

  // Every module of the server's build loads without the dev dependencies (the CLI imports its commands
  // lazily). cli/main.js is left out: importing it runs the CLI (it is run below, through the bin).
  const modules = jsFiles(join(install, 'packages/server/dist'))
    .map((f) => relative(install, f))
    .filter((f) => f !== join('packages', 'server', 'dist', 'cli', 'main.js'));
  const load = await run(
    process.execPath,
    ['--input-type=module', '-e', `for (const f of ${JSON.stringify(modules)}) await import('./' + f);`],
    { cwd: install, user, env: { PATH } },
  );
  assert.equal(load.code, 0, load.output);

  // `npm ci --omit=dev` on this built tree runs the same prepare: it keeps the build and succeeds.
  const again = await run(process.execPath, ['scripts/prepare.mjs'], { cwd: install, user, env: { PATH } });
  assert.equal(again.code, 0, again.output);
  assert.match(again.output, /keeping the existing build/);

  // The service, as the unprivileged user, with a data dir of its own (the image's volume).
  const schema = await createPostgresSchema();
  t.after(() => schema.drop());
  const data = join(scratch, 'data');
  mkdirSync(data, { mode: 0o700 });
  chown(data, user);
  const port = await freePort();
  start = Date.now();
  const server = await new TesseraProcess(
    ['packages/server/bin/tessera.mjs', 'serve'],
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      TESSERA_URL: `http://localhost:${port}`,
      DATABASE_URL: schema.url,
      TESSERA_DATA_DIR: data,
      TESSERA_SECRET: TEST_SECRET,
      TESSERA_LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      HOME: data,
    },
    { entry: [], cwd: install, ...(user ? { user } : {}) },
  ).untilServing(port);
  timings.start = Date.now() - start;
  t.after(() => server.stop());
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  assert.equal(ready.status, 200);
  assert.deepEqual(await ready.json(), { status: 'ready', database: 'postgres' });
  const consolePage = await fetch(`http://127.0.0.1:${port}/console/`);
  assert.equal(consolePage.status, 200);
  assert.match(await consolePage.text(), /<div id="app">|<script type="module"/);

  // The image's health check, as the image runs it: healthy now, unhealthy once the service is gone.
  const [command, ...args] = healthcheckCommand();
  assert.equal(command, 'node');
  const health = () => run(process.execPath, args, { cwd: install, user, env: { PATH, PORT: String(port) } });
  assert.equal((await health()).code, 0, 'HEALTHCHECK says healthy');
  await server.stop();
  assert.equal((await health()).code, 1, 'HEALTHCHECK says unhealthy once it is stopped');

  // Nothing in the install was created, changed or removed by running it.
  assert.deepEqual(snapshot(install), before);
  t.diagnostic(`timings (ms): ${JSON.stringify(timings)}`);
});
