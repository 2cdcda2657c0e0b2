import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { POSTGRES_URL, postgresSkip } from '../support/environment.js';
import { freePort } from '../support/server.js';
import { spawnGroup } from '../support/tessera-process.js';

/**
 * docs/deploying.md as written: every ```sh tested``` block of the guide, in the guide's order, run by
 * bash in one session (`set -euo pipefail`), against the local PostgreSQL with a throwaway role and
 * database, in a temporary directory, with the guide's names pointed there. Nothing runs as another
 * user and nothing is written outside that directory.
 *
 * Four commands are stand-ins, put first on PATH, for what a test cannot do here:
 * - `sudo [-u USER] CMD…` runs CMD as the test's user (PGUSER names PostgreSQL's superuser instead);
 * - `systemctl enable --now|restart tessera` runs what the unit runs, `tessera serve` with the unit's
 *   environment (through deploy/tessera, the command the guide installs), detached, and stops the one
 *   it ran before with SIGTERM;
 * - `git clone --branch TAG URL DIR` makes DIR a release of this checkout: its deploy/ and a
 *   packages/server/bin/tessera.mjs that runs the CLI from this checkout's sources;
 * - `npm ci`, `npm prune --omit=dev` in that release do nothing: the build they do is checked on a copy
 *   of the repository by production-install.test.ts (minutes, not this test's seconds).
 * The rest is real: psql, pg_dump, createdb, pg_restore, openssl, install, tee, ln, mv, curl, the
 * `tessera` command and the service.
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const guide = readFileSync(join(ROOT, 'docs', 'deploying.md'), 'utf8');
const blocks = [...guide.matchAll(/^```sh tested\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);

const dir = mkdtempSync(join(tmpdir(), 'tessera-guide-'));
const name = `tessera_guide_${process.pid}_${Date.now().toString(36)}`;
const pidfile = join(dir, 'service.pid');
const admin = new URL(POSTGRES_URL);

async function sql<T extends pg.QueryResultRow>(database: string, text: string, values: unknown[] = []) {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

after(async () => {
  if (existsSync(pidfile)) {
    try {
      process.kill(-Number(readFileSync(pidfile, 'utf8').trim()), 'SIGKILL');
    } catch {
      // stopped already
    }
  }
  const database = admin.pathname.slice(1) || 'postgres';
  for (const db of [name, `${name}_restored`]) {
    await sql(database, `drop database if exists "${db}" with (force)`).catch(() => {});
  }
  await sql(database, `drop role if exists "${name}"`).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

/** The stand-ins the test's comment describes, as executables in `shims/`. */
function writeShims(cliEntry: string): string {
  const shims = join(dir, 'shims');
  mkdirSync(shims);
  const shim = (file: string, text: string) => {
    writeFileSync(join(shims, file), text);
    chmodSync(join(shims, file), 0o755);
  };
  shim(
    'sudo',
    '#!/bin/sh\n# sudo stand-in: the command, as this user\nif [ "$1" = -u ]; then shift 2; fi\nexec "$@"\n',
  );
  shim(
    'systemctl',
    `#!/bin/bash
# systemd stand-in for the unit tessera.service: tessera serve with its environment, detached
set -eu
stop() {
  [ -f "${pidfile}" ] || return 0
  pid=$(cat "${pidfile}")
  kill -TERM -- "-$pid" || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "${pidfile}"
}
case "$1" in
  enable | start | restart)
    stop
    setsid tessera serve >>"${join(dir, 'service.log')}" 2>&1 </dev/null &
    echo $! >"${pidfile}" ;;
  stop) stop ;;
  *) echo "systemctl stand-in: $*" >&2; exit 1 ;;
esac
`,
  );
  shim(
    'git',
    `#!/bin/sh
# git stand-in: \`git clone … --branch TAG URL DIR\` makes DIR a release of this checkout
set -eu
[ "$1" = clone ] || { echo "git stand-in: $*" >&2; exit 1; }
tag="" prev="" target=""
for arg; do
  if [ "$prev" = --branch ]; then tag=$arg; fi
  prev=$arg
  target=$arg
done
mkdir -p "$target/packages/server/bin" "$target/scripts"
cp -R "${join(ROOT, 'deploy')}" "$target/deploy"
cp -p "${join(ROOT, 'scripts', 'install-production.sh')}" "$target/scripts/install-production.sh"
ln -s "${join(ROOT, 'node_modules')}" "$target/node_modules"
echo 'await import(${JSON.stringify(pathToFileURL(cliEntry).href)});' >"$target/packages/server/bin/tessera.mjs"
echo "$tag" >"$target/RELEASE"
`,
  );
  shim(
    'npm',
    '#!/bin/sh\n# npm stand-in: the release is built already\ncase "$1" in ci | prune) exit 0 ;; *) echo "npm stand-in: $*" >&2; exit 1 ;; esac\n',
  );
  return shims;
}

test('docs/deploying.md, run as written: role and database, install, the tessera command, first owner, restore, upgrade', {
  timeout: 180_000,
}, async (t) => {
  const skip = await postgresSkip();
  if (skip) return t.skip(skip);
  assert.equal(blocks.length, 9, 'the guide has the blocks this test knows of');
  const cliEntry = execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../support/cli-bundle.mjs', import.meta.url))],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const shims = writeShims(cliEntry);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const port = await freePort();
  const home = join(dir, 'opt', 'tessera');
  const envFile = join(dir, 'etc', 'tessera', 'tessera.env');
  const script = join(dir, 'guide.sh');
  writeFileSync(script, `set -euo pipefail\n${blocks.join('\n')}`);

  const run = spawnGroup('bash', [script], {
    cwd: dir,
    env: {
      PATH: [shims, bin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
      HOME: dir,
      TESSERA_DB: name,
      TESSERA_HOME: home,
      TESSERA_ENV: envFile,
      TESSERA_BIN: bin,
      TESSERA_PORT: String(port),
      // What deploy/tessera reads besides the guide's names: the unit's user (this one) and data dir.
      TESSERA_USER: userInfo().username,
      TESSERA_DATA_DIR: join(dir, 'data'),
      PGHOST: admin.hostname,
      PGPORT: admin.port || '5432',
      PGUSER: decodeURIComponent(admin.username) || 'postgres',
      TESSERA_LOG_LEVEL: 'info',
    },
    stdin: 'a long first password\n',
  });
  let stdout = '';
  let stderr = '';
  run.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  run.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
  const log = existsSync(join(dir, 'service.log')) ? readFileSync(join(dir, 'service.log'), 'utf8') : '';
  assert.equal(
    code,
    0,
    `the guide's blocks failed:\n${stderr}\n--- stdout\n${stdout}\n--- service log\n${log.slice(-4000)}`,
  );

  // The environment file is the root-only file of the guide.
  assert.equal(statSync(envFile).mode & 0o777, 0o600);
  const env = readFileSync(envFile, 'utf8');
  assert.match(
    env,
    new RegExp(`^DATABASE_URL=postgres://${name}:[0-9a-f]{48}@127\\.0\\.0\\.1:5432/${name}$`, 'm'),
  );
  assert.match(env, /^TESSERA_SECRET=[0-9a-f]{64}$/m);

  // Both starts answered ready on PostgreSQL; the first owner's org has the service's issuer.
  const printed = stdout.split('\n').filter((l) => l.startsWith('{'));
  assert.deepEqual(
    printed.filter((l) => l.includes('"status"')),
    ['{"status":"ready","database":"postgres"}', '{"status":"ready","database":"postgres"}'],
  );
  const org = JSON.parse(printed.find((l) => l.includes('"slug"')) ?? '{}');
  assert.equal(org.slug, 'acme');
  assert.equal(org.issuer, 'https://acme.id.example.com/');
  assert.equal(org.owner.email, 'you@example.com');

  // The first start created the tables, one `migrated` line each; the restart after the upgrade found
  // nothing to apply (same schema), and each start listened once.
  const lines = log
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.ok(lines.filter((l) => l.msg === 'migrated').length > 30);
  assert.equal(lines.filter((l) => l.msg === 'listening').length, 2);
  assert.equal(
    lines.filter((l) => l.msg === 'stopped').length,
    1,
    'the restart stopped the old node cleanly',
  );

  // The upgrade switched `current` to the release built beside it; the old one is still there.
  assert.equal(readlinkSync(join(home, 'current')), 'releases/v1.5.0');
  assert.equal(readFileSync(join(home, 'current', 'RELEASE'), 'utf8').trim(), 'v1.5.0');
  assert.ok(existsSync(join(home, 'releases', 'v1.4.0', 'deploy', 'tessera')));
  assert.equal(readlinkSync(join(bin, 'tessera')), join(home, 'current', 'deploy', 'tessera'));

  // The restored database holds what the live one held, owned by the service's role.
  const restored = `${name}_restored`;
  assert.deepEqual(
    (await sql<{ slug: string }>(restored, 'select slug from organizations order by slug')).map(
      (r) => r.slug,
    ),
    ['acme', 'console'],
  );
  assert.deepEqual(
    await sql(restored, `select distinct tableowner from pg_tables where schemaname = 'public'`),
    [{ tableowner: name }],
  );
});
