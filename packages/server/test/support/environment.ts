import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Suites that need PostgreSQL or Chromium run when they are found and say plainly when they are
 * skipped. CI sets TESSERA_TEST_REQUIRE=postgres,chromium so a missing one fails instead.
 */
const required = new Set((process.env.TESSERA_TEST_REQUIRE ?? '').split(',').map((s) => s.trim()));

export const POSTGRES_URL =
  process.env.TESSERA_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const CHROMIUM_PATH = process.env.TESSERA_TEST_CHROMIUM ?? '/usr/bin/chromium';

let pgProbe: Promise<string | null> | undefined;

/** Errors that say no PostgreSQL is there (nothing listening, no such host, database or role). */
const ABSENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENOENT']);
const absent = (error: unknown) => {
  const code = String((error as { code?: unknown }).code ?? '');
  return ABSENT.has(code) || code.startsWith('28') || code === '3D000';
};

/**
 * null when PostgreSQL answers, else why it is taken as missing. A server that is down refuses at
 * once; one that is there but slow to answer (a loaded machine: a synchronous SQLite migration beside
 * the probe can hold a test process's event loop for seconds) is asked again with a longer limit,
 * so that a busy machine does not skip the PostgreSQL half of the suites.
 */
async function probePostgres(): Promise<string | null> {
  let reason = 'not reachable';
  for (const limit of [15_000, 60_000]) {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: limit });
    try {
      await client.connect();
      await client.query('select 1');
      return null;
    } catch (error) {
      if (absent(error)) return 'not reachable';
      reason = `not answering within ${limit / 1000} s`;
    } finally {
      await client.end().catch(() => {});
    }
  }
  return reason;
}

/** `false` = run; a string = the reason to skip. Throws when CI requires what is missing. */
export async function postgresSkip(): Promise<false | string> {
  pgProbe ??= probePostgres();
  const missing = await pgProbe;
  if (missing === null) return false;
  const reason = `SKIPPED: PostgreSQL ${missing} at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}`;
  if (required.has('postgres')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

export function chromiumSkip(): false | string {
  if (existsSync(CHROMIUM_PATH)) return false;
  const reason = `SKIPPED: Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium)`;
  if (required.has('chromium')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

export const NGINX_PATH = process.env.TESSERA_TEST_NGINX ?? '/usr/sbin/nginx';

/**
 * Debian's nginx, for the suites behind a real reverse proxy. CI installs it (.ci/run); elsewhere it
 * is installed here when apt-get can (root, non-interactive), else the suite is skipped.
 */
export function nginxSkip(): false | string {
  if (!existsSync(NGINX_PATH) && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = spawnSync('apt-get', ['install', '-y', '-q', 'nginx-light'], { env, stdio: 'ignore' });
    if (install.status !== 0)
      spawnSync('apt-get', ['install', '-y', '-q', 'nginx'], { env, stdio: 'ignore' });
  }
  if (existsSync(NGINX_PATH)) return false;
  const reason = `SKIPPED: nginx not found at ${NGINX_PATH} (apt-get install -y nginx-light)`;
  if (required.has('nginx')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

/** Debian's python3 (not a pyenv one first on PATH) with what examples/fastapi-authlib imports. */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/**
 * Debian's FastAPI, uvicorn and Authlib, for the Python example (examples/fastapi-authlib). CI installs
 * them (.ci/run); elsewhere the example is skipped, saying what to install.
 */
export function fastapiSkip(): false | string {
  const probe = spawnSync(DEBIAN_PYTHON, ['-c', 'import fastapi, uvicorn, authlib'], { stdio: 'ignore' });
  if (probe.status === 0) return false;
  const reason = `SKIPPED: ${DEBIAN_PYTHON} lacks fastapi, uvicorn or authlib (apt-get install -y python3-fastapi python3-uvicorn python3-authlib)`;
  if (required.has('fastapi')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

/** Debian's Go sources, which Go programs of the tests build against in GOPATH mode. */
export const GOCODE = '/usr/share/gocode';

/**
 * `go` and Debian's coreos/go-oidc (v2) sources, for the Go example (examples/go-oidc). CI installs them
 * (.ci/run); elsewhere the example is skipped, saying what to install.
 */
export function goOidcSkip(): false | string {
  const hasGo = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
  if (hasGo && existsSync(join(GOCODE, 'src', 'github.com', 'coreos', 'go-oidc'))) return false;
  const reason =
    'SKIPPED: go or coreos/go-oidc not found (apt-get install -y golang-go golang-github-coreos-go-oidc-dev)';
  if (required.has('go-oidc')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

/**
 * Whether `npm install --offline <specs>` can resolve from npm's cache, for a test that installs that way (a
 * test never reaches the registry). `npm ci` keeps tarballs but not the registry's documents an install
 * resolves versions with; `.ci/run` puts them there with one online install of the same specs. Without them
 * the suite is skipped, saying how to fill the cache. The probe is a dry run in a scratch folder.
 */
export function npmCacheSkip(specs: readonly string[]): false | string {
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-npm-probe-'));
  try {
    writeFileSync(join(scratch, 'package.json'), '{"name":"probe","private":true}');
    const probe = spawnSync(
      'npm',
      ['install', '--offline', '--dry-run', '--no-audit', '--no-fund', '--ignore-scripts', ...specs],
      { cwd: scratch, stdio: 'ignore', timeout: 120_000, env: cleanNpmEnv() },
    );
    if (probe.status === 0) return false;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const reason = `SKIPPED: npm's cache cannot resolve ${specs.join(' ')} offline (fill it once, online: npm install ${specs.join(' ')} in a scratch folder)`;
  if (required.has('npm-cache')) throw new Error(`${reason}, and TESSERA_TEST_REQUIRE demands it`);
  process.stderr.write(`${reason}\n`);
  return reason;
}

/** The process environment without an enclosing `npm test`'s npm_* settings (its prefix is the repository). */
export function cleanNpmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|node_options$|node_env$)/i.test(key)),
  );
}
