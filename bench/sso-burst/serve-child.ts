// `tessera serve` as the CLI runs it, but with the serve options a bench may set: how long discovery
// is kept (BENCH_DISCOVERY_CACHE_MS; 0 makes every start fetch it, so the bench measures the
// upstream path itself). Configuration from the environment, like `tessera serve`. BENCH_SERVE_ROOT
// names another checkout whose server to run (the one before a change, say), on the same data.

import { pathToFileURL } from 'node:url';

type ServerModule = typeof import('../../packages/server/src/server.js');
type ConfigModule = typeof import('../../packages/server/src/config/config.js');

const root = process.env.BENCH_SERVE_ROOT
  ? pathToFileURL(`${process.env.BENCH_SERVE_ROOT.replace(/\/$/, '')}/`)
  : new URL('../../', import.meta.url);
const { serve } = (await import(new URL('packages/server/src/server.ts', root).href)) as ServerModule;
const { loadConfig } = (await import(
  new URL('packages/server/src/config/config.ts', root).href
)) as ConfigModule;
const cacheMs = process.env.BENCH_DISCOVERY_CACHE_MS;
await serve(loadConfig(), {
  seed: false,
  webhooks: false,
  ...(cacheMs === undefined ? {} : { upstreams: { discoveryCacheMs: Number(cacheMs) } }),
});
