import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  freePort,
  onCleanup,
  ROOT,
  redact,
  spawnTessera,
  spawnTs,
  tesseraCommand,
  untilReady,
} from '../support/children.js';
import { untilHealthy } from '../support/tessera-serve.js';

/** One server under test: where to POST, what to send, where its public keys are. */
export interface Target {
  name: string;
  tokenUrl: string;
  body: string;
  jwksUrl: string;
  /** The server process, for reading its CPU time. */
  pid: number | undefined;
}

const form = (clientId: string, secret: string) =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: secret,
  }).toString();

/** A one-shot `tessera …` command; returns the JSON it prints. Its output holds secrets: never echoed. */
async function tesseraCli(env: NodeJS.ProcessEnv, args: string[]): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, tesseraCommand(args), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`tessera ${args.slice(0, 2).join(' ')} failed (${code}):\n${redact(err)}`);
  return JSON.parse(out) as Record<string, unknown>;
}

/** Tessera on a fresh data dir (and, given `databaseUrl`, a fresh PostgreSQL database). */
export async function startTessera(name: string, databaseUrl: string | null): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-bench-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TESSERA_DATA_DIR: dataDir,
    PORT: String(port),
    TESSERA_URL: `http://localhost:${port}`,
    // Set, so the server does not warn about generating one; nobody needs to know it.
    TESSERA_SECRET: randomBytes(32).toString('base64url'),
    // oidc-provider logs nothing per request; Tessera at the default `info` writes two lines per request.
    // Set TESSERA_LOG_LEVEL=info to measure with them.
    TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'warn',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const password = randomBytes(18).toString('base64url');
  await tesseraCli(env, [
    'org',
    'create',
    '--slug',
    'bench',
    '--owner-email',
    'o@bench.test',
    '--owner-password',
    password,
  ]);
  const client = await tesseraCli(env, [
    'client',
    'create',
    '--org',
    'bench',
    '--name',
    'bench',
    '--confidential',
  ]);
  const server = spawnTessera(['serve'], env);
  const base = `http://127.0.0.1:${port}`;
  await untilReady(server, name, untilHealthy(`${base}/healthz`));
  const host = `host=bench.localhost:${port}`;
  return {
    name,
    tokenUrl: `${base}/oauth/token?${host}`,
    jwksUrl: `${base}/.well-known/jwks.json?${host}`,
    pid: server.process.pid,
    body: form(String(client.clientId), String(client.clientSecret)),
  };
}

/** A throw-away database next to the one DATABASE_URL names, so every run starts empty. */
export async function freshDatabase(baseUrl: string): Promise<string> {
  const name = `tessera_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  // Registered before the server starts, so it runs after the server has stopped (cleanup is LIFO).
  onCleanup(() => admin(`DROP DATABASE IF EXISTS ${name}`));
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * A peer server in its own child (`file`), told its port and its one client over PEER_PORT,
 * PEER_CLIENT_ID and PEER_CLIENT_SECRET; it says "ready" over IPC and serves /token and /jwks.
 */
async function startPeer(name: string, file: string, env: NodeJS.ProcessEnv = {}): Promise<Target> {
  const port = await freePort();
  const clientId = 'bench';
  const secret = randomBytes(32).toString('base64url');
  const child = spawnTs(new URL(file, import.meta.url).pathname, [], {
    ...process.env,
    ...env,
    PEER_PORT: String(port),
    PEER_CLIENT_ID: clientId,
    PEER_CLIENT_SECRET: secret,
  });
  await untilReady(child, name, once(child.process, 'message'));
  const base = `http://127.0.0.1:${port}`;
  return {
    name,
    tokenUrl: `${base}/token`,
    jwksUrl: `${base}/jwks`,
    body: form(clientId, secret),
    pid: child.process.pid,
  };
}

/** node-oidc-provider with one client_secret_post client and RS256 JWT access tokens. */
export const startOidcProvider = (): Promise<Target> =>
  startPeer('oidc-provider', './oidc-provider-child.ts', { NODE_ENV: 'production' });

export const BARE = 'bare node:http';

/** The platform's floor (bare-child.ts): node:http and one pooled signature per token, nothing else. */
export const startBare = (): Promise<Target> => startPeer(BARE, './bare-child.ts');
