// `tessera serve` for a bench: a child process on a fresh SQLite data dir or PostgreSQL schema, set up
// first by the bench's own `setUp`, answered when /healthz says 200. Cleaned up with the bench.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresSchema } from '../../packages/server/test/support/postgres.js';
import { freePort, onCleanup, spawnTessera, untilReady } from './children.js';

/** Resolves once `url` answers 200 (every 100 ms, up to 60 s). */
export async function untilHealthy(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer 200 within 60 s`);
}

/**
 * Starts `tessera serve` after `setUp` has prepared its data with the same environment. `reach`, when
 * given, turns the PostgreSQL URL into the one the server and the set-up use (a proxy in between).
 */
export async function serveTessera<C>(
  database: 'sqlite' | 'postgres',
  label: string,
  setUp: (env: NodeJS.ProcessEnv) => Promise<C>,
  reach?: (url: string) => Promise<string>,
): Promise<{ base: string; port: number; pid: number; cast: C }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-bench-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const schema = database === 'postgres' ? await createPostgresSchema() : null;
  if (schema) onCleanup(() => schema.drop());
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TESSERA_DATA_DIR: dataDir,
    PORT: String(port),
    TESSERA_URL: `http://localhost:${port}`,
    TESSERA_SECRET: randomBytes(32).toString('base64url'),
    TESSERA_LOG_LEVEL: process.env.TESSERA_LOG_LEVEL ?? 'warn',
  };
  delete env.DATABASE_URL;
  if (schema) env.DATABASE_URL = reach ? await reach(schema.url) : schema.url;
  const cast = await setUp(env);
  const child = spawnTessera(['serve'], env);
  const base = `http://127.0.0.1:${port}`;
  await untilReady(child, label, untilHealthy(`${base}/healthz`));
  return { base, port, pid: child.process.pid ?? 0, cast };
}
