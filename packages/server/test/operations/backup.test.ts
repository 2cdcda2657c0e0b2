import '../support/localhost-dns.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { CALLBACK, signIn } from '../sign-in/support/fixtures.js';
import { TEST_SECRET } from '../support/runtime.js';
import { freePort } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';

// DESIGN §18: `tessera backup FILE` copies the SQLite database while a server writes to it, and the
// copy, put into a new data dir, signs the same users in. SQLite only: PostgreSQL is backed up with
// pg_dump (docs/deploying.md), which needs nothing of Tessera.

// The compiled CLI, as an operator runs it (and much quicker to start than the sources).
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const BIN = join(ROOT, 'packages', 'server', 'bin', 'tessera.mjs');
before(() => {
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
});

async function tessera(args: string[], env: Record<string, string>) {
  const run = new TesseraProcess(args, { TESSERA_SECRET: TEST_SECRET, ...env }, { entry: [BIN] });
  const code = await run.exited();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = null;
  }
  return { code, stdout: run.stdout, stderr: run.stderr, json };
}

const serve = (port: number, env: Record<string, string>) =>
  new TesseraProcess(
    ['serve'],
    { TESSERA_SECRET: TEST_SECRET, TESSERA_LOG_LEVEL: 'silent', PORT: String(port), ...env },
    { entry: [BIN] },
  ).untilServing(port);

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const envOf = (port: number, dataDir: string) => ({
  TESSERA_URL: `http://localhost:${port}`,
  TESSERA_DATA_DIR: dataDir,
});

test('a backup taken while serving restores into a new data dir that signs the same users in', async () => {
  const port = await freePort();
  const original = tempDir('tessera-backup-a-');
  const server = await serve(port, envOf(port, original));
  after(() => server.stop());
  const env = envOf(port, original);
  const org = await tessera(
    [
      'org',
      'create',
      '--slug',
      'globex',
      '--owner-email',
      'o@globex.test',
      '--owner-password',
      'owner password 1',
    ],
    env,
  );
  assert.equal(org.code, 0, org.stderr);
  const user = await tessera(
    [
      'user',
      'create',
      '--org',
      'globex',
      '--email',
      'ada@globex.test',
      '--password',
      'correct horse battery',
    ],
    env,
  );
  assert.equal(user.code, 0, user.stderr);
  const web = await tessera(
    ['client', 'create', '--org', 'globex', '--name', 'Web', '--public', '--redirect-uri', CALLBACK],
    env,
  );
  assert.equal(web.code, 0, web.stderr);
  const clientId = web.json?.clientId as string;
  const issuer = `http://globex.localhost:${port}/`;

  // Sign-ins keep writing (sessions, codes, refresh tokens) while the backup runs.
  let signing = true;
  let signIns = 0;
  const load = (async () => {
    while (signing) {
      await signIn(issuer, clientId, 'ada@globex.test');
      signIns++;
    }
  })();
  const file = join(tempDir('tessera-backup-file-'), 'tessera-backup.db');
  const backup = await tessera(['backup', file], env);
  signing = false;
  await load;
  assert.equal(backup.code, 0, backup.stderr);
  assert.equal(backup.json?.file, file);
  assert.equal(typeof backup.json?.bytes, 'number');
  assert.ok(signIns >= 1);
  const check = new BetterSqlite3(file, { readonly: true });
  assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
  check.close();

  // The backup never overwrites a file.
  const again = await tessera(['backup', file], env);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /exists: the backup never overwrites a file/);

  // Restore: the file becomes tessera.db of a new data dir; a server on it signs ada in.
  const restoredPort = await freePort();
  const restored = tempDir('tessera-backup-b-');
  copyFileSync(file, join(restored, 'tessera.db'));
  const second = await serve(restoredPort, envOf(restoredPort, restored));
  after(() => second.stop());
  const tokens = await signIn(`http://globex.localhost:${restoredPort}/`, clientId, 'ada@globex.test');
  assert.match(tokens.accessToken, /^eyJ/);
  assert.ok(
    !existsSync(join(restored, 'demo-credentials.json')),
    'the restored data dir is not seeded afresh',
  );
});

test('tessera backup: a usage error without FILE; on PostgreSQL it points to pg_dump', async () => {
  const dataDir = tempDir('tessera-backup-c-');
  const missing = await tessera(['backup'], { TESSERA_DATA_DIR: dataDir });
  assert.equal(missing.code, 2);
  assert.match(
    missing.stderr,
    /^error: a FILE to write the backup to is required\n\nusage: tessera backup FILE/,
  );
  const pgBackup = await tessera(['backup', join(dataDir, 'x.db')], {
    TESSERA_DATA_DIR: dataDir,
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
  });
  assert.equal(pgBackup.code, 1);
  assert.equal(
    pgBackup.stderr,
    'error: tessera backup copies the SQLite database; with DATABASE_URL back up with pg_dump (see docs/deploying.md)\n',
  );
});
