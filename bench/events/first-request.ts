// The events list's first request in a fresh process: `tessera serve` started on the bench's store
// (the same SQLite file or PostgreSQL schema), asked once for the list when /healthz answers, then
// stopped. The process has the in-process server's TESSERA_URL (so the console token minted there is
// valid) on a port of its own; requests name the URL's host. That request pays what a warm process does not: the org, membership and key look-ups'
// first queries and compiled plans, and the sealed per-day counts, read once per process
// (domain/audit/sealed-counts.ts).
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Config } from '../../packages/server/src/config/config.js';
import { freePort, spawnTessera, stop, untilReady } from '../support/children.js';
import { untilHealthy } from '../support/tessera-serve.js';

/**
 * Milliseconds of the first GET of `query` in each of `processes` fresh processes, one after another,
 * and of the same GET right after it (what the first paid for being first).
 */
export async function firstRequests(
  config: Config,
  token: () => Promise<string>,
  query: string,
  processes: number,
): Promise<{ first: number; second: number }[]> {
  const times: { first: number; second: number }[] = [];
  for (let i = 0; i < processes; i++) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      TESSERA_URL: config.baseUrl,
      TESSERA_DATA_DIR: config.dataDir,
      TESSERA_SECRET: config.secret ?? '',
      TESSERA_LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    if (config.databaseUrl) env.DATABASE_URL = config.databaseUrl;
    const child = spawnTessera(['serve'], env);
    try {
      const base = `http://127.0.0.1:${port}`;
      await untilReady(child, 'tessera serve', untilHealthy(`${base}/healthz`));
      const bearer = await token();
      const path = `/organizations/acme/events${query ? `?${query}` : ''}`;
      const host = new URL(config.baseUrl).host;
      const timed = async () => {
        const start = performance.now();
        const status = await get(port, host, path, bearer);
        if (status !== 200) throw new Error(`first request: HTTP ${status}`);
        return performance.now() - start;
      };
      const first = await timed();
      times.push({ first, second: await timed() });
    } finally {
      await stop(child.process);
    }
  }
  return times;
}

/** GET `path` on the loopback port with this Host header; resolves with the status once the body is read. */
function get(port: number, host: string, path: string, bearer: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { host, authorization: `Bearer ${bearer}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
