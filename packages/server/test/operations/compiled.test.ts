import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { createPostgresSchema } from '../support/postgres.js';
import { TEST_SECRET } from '../support/runtime.js';
import { freePort } from '../support/server.js';
import { spawnGroup, TesseraProcess } from '../support/tessera-process.js';

// DESIGN §11: `npm start` runs the compiled JavaScript with no TypeScript loader, and the `tessera` bin
// runs it in its own process. Everything here runs the build output, the way a person would.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER = join(ROOT, 'packages', 'server');
const BIN = join(SERVER, 'bin', 'tessera.mjs');
const DIST = join(SERVER, 'dist');
const CONSOLE_DIST = join(ROOT, 'packages', 'console', 'dist');
const pkg = JSON.parse(readFileSync(join(SERVER, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
};
const startScript = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start;
const noProc = existsSync('/proc/self/cmdline') ? false : 'needs /proc (Linux)';

/** `node <args>` from the repository root, as npm start and the bin run: in a process group of its own. */
function launch(args: string[], env: Record<string, string>): TesseraProcess {
  return new TesseraProcess(
    args,
    { TESSERA_SECRET: TEST_SECRET, TESSERA_LOG_LEVEL: 'silent', ...env },
    { entry: [], cwd: ROOT },
  );
}

function argv(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
}

function childPids(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean),
  );
}

function assertNoLoader(args: string[]) {
  for (const arg of args) {
    assert.doesNotMatch(arg, /tsx|--import|--loader|--experimental-(strip|transform)-types|\.ts$/, arg);
  }
}

before(() => {
  // Incremental: a no-op when dist/ is up to date, a build from a fresh clone or after a source change.
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
  assert.ok(existsSync(join(DIST, 'cli', 'main.js')));
  // The console's build, which `npm run build` makes after tsc (npm ci runs it): made here when missing.
  if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
    const vite = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
      {
        cwd: join(ROOT, 'packages', 'console'),
        encoding: 'utf8',
      },
    );
    assert.equal(vite.status, 0, `${vite.stdout}${vite.stderr}`);
  }
});

test('npm start is node on the tessera bin (the compiled CLI), with no TypeScript loader', () => {
  assert.equal(startScript, 'node packages/server/bin/tessera.mjs serve');
});

test('npm start before a build: one line saying to build, no stack trace, exit 1', async () => {
  // A scratch checkout with the root package.json and the bin, and no dist/: what a clone holds before npm ci.
  const dir = mkdtempSync(join(tmpdir(), 'tessera-unbuilt-'));
  try {
    copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    mkdirSync(join(dir, 'packages', 'server', 'bin'), { recursive: true });
    copyFileSync(BIN, join(dir, 'packages', 'server', 'bin', 'tessera.mjs'));
    const child = spawnGroup('npm', ['start'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: dir, npm_config_update_notifier: 'false' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(
      stderr,
      'tessera: packages/server/dist is missing: run `npm run build` first (`npm ci` builds it too)\n',
    );
    // npm's own header names the script; nothing else, and no stack trace.
    assert.doesNotMatch(stdout, /\n\s+at |Error/, stdout);
    assert.equal(code, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const database of storageSuite(
  'the build loads the PostgreSQL driver, its timed dialect and LISTEN only when DATABASE_URL is set',
)) {
  describe(`the compiled server (${database})`, async () => {
    const skip = (await databaseSkip(database)) || noProc;
    let dataDir = '';
    let schema: Awaited<ReturnType<typeof createPostgresSchema>> | null = null;
    let server: TesseraProcess | null = null;
    let port = 0;

    before(async () => {
      if (skip) return;
      dataDir = mkdtempSync(join(tmpdir(), 'tessera-compiled-'));
      schema = database === 'postgres' ? await createPostgresSchema() : null;
      port = await freePort();
      const [node, ...args] = startScript.split(' ');
      assert.equal(node, 'node');
      server = launch([...args, '--port', String(port)], {
        TESSERA_DATA_DIR: dataDir,
        ...(schema ? { DATABASE_URL: schema.url } : {}),
      });
    });

    after(async () => {
      await server?.stop();
      await schema?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    test('serves /healthz and /readyz from the compiled JavaScript alone', { skip }, async () => {
      assert.ok(server?.pid);
      await server.untilServing(port);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { status: 'ok', database });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      assert.equal(ready.status, 200);
      // The web console's build, from packages/console/dist.
      const app = await fetch(`http://127.0.0.1:${port}/console/`);
      assert.equal(app.status, 200);
      assert.match(await app.text(), /<div id="app"><\/div>/);

      const cmdline = argv(server.pid);
      assert.deepEqual(cmdline, [
        process.execPath,
        'packages/server/bin/tessera.mjs',
        'serve',
        '--port',
        String(port),
      ]);
      assertNoLoader(cmdline);
      assert.deepEqual(childPids(server.pid), []);
    });
  });
}

describe('the tessera bin', () => {
  test('--version prints the package version', () => {
    const run = spawnSync(process.execPath, [BIN, '--version'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, `${pkg.version}\n`);
    assert.equal(run.status, 0);
  });

  test("--help and a group's --help answer from the build (they load no server)", () => {
    const help = spawnSync(process.execPath, [BIN, '--help'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(help.stderr, '');
    assert.equal(help.status, 0);
    assert.ok(help.stdout.startsWith('usage: tessera <command> [flags]\n'), help.stdout);
    const group = spawnSync(process.execPath, [BIN, 'org', '--help'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(group.stderr, '');
    assert.equal(group.status, 0);
    assert.ok(group.stdout.startsWith('usage: tessera org <command> [flags]\n'), group.stdout);
    assert.ok(group.stdout.includes('\n  tessera org create --slug S'), group.stdout);
    assert.ok(group.stdout.includes('\n  tessera org update --org S'), group.stdout);
  });

  test('serves in its own process: no second node, no TypeScript loader', { skip: noProc }, async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'tessera-compiled-'));
    const server = launch([BIN, 'serve', '--port', String(port)], { TESSERA_DATA_DIR: dataDir });
    try {
      assert.ok(server.pid);
      await server.untilServing(port);
      const cmdline = argv(server.pid);
      assert.deepEqual(cmdline, [process.execPath, BIN, 'serve', '--port', String(port)]);
      assertNoLoader(cmdline);
      assert.deepEqual(childPids(server.pid), []);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('without a build it says so in one line and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin', 'tessera.mjs'));
      const run = spawnSync(process.execPath, [join(dir, 'bin', 'tessera.mjs'), '--version'], {
        encoding: 'utf8',
      });
      assert.equal(run.stdout, '');
      assert.equal(
        run.stderr,
        'tessera: packages/server/dist is missing: run `npm run build` first (`npm ci` builds it too)\n',
      );
      assert.equal(run.status, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the compiled server imports only node built-ins and its own dependencies', () => {
  const allowed = new Set(Object.keys(pkg.dependencies));
  const builtins = new Set(builtinModules);
  const seen = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.js')) {
        // TypeScript's import scanner: static imports, re-exports and dynamic import() with a literal.
        const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
        for (const { fileName: specifier } of importedFiles) {
          if (specifier.startsWith('.') || specifier.startsWith('node:') || builtins.has(specifier)) continue;
          const name = specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/');
          seen.add(name);
          assert.ok(allowed.has(name), `${path} imports ${specifier}, which is not a dependency`);
        }
      }
    }
  };
  walk(DIST);
  // The scan found the imports it is meant to check.
  assert.ok(seen.has('fastify') && seen.has('pg'), [...seen].join(' '));
});
