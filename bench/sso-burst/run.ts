import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort, onCleanup, runBench, spawnTs, untilReady } from '../support/children.js';
import { quantile, table } from '../support/report.js';
import { untilHealthy } from '../support/tessera-serve.js';
import { type Cast, setUp } from './setup.js';

// Issue #41: 200 parallel anonymous /sso/{con}/start against an OIDC provider that hangs opened 400
// outbound connections and slowed another org's discovery from 12 ms to 1.7 s. This bench sends such a
// burst and measures another org's start meanwhile (a start that needs the other provider's discovery).
// A benchmark, not a test: it asserts nothing about timing.

const BURST = Number(process.env.BENCH_BURST) > 0 ? Number(process.env.BENCH_BURST) : 200;
const IDLE_SAMPLES = Number(process.env.BENCH_SAMPLES) > 0 ? Number(process.env.BENCH_SAMPLES) : 300;
const SERVE_CHILD = new URL('./serve-child.ts', import.meta.url).pathname;

interface Scenario {
  name: string;
  /** Connections of the org `burst` to the hung provider; the burst's starts go round them. */
  connections: number;
  /** BENCH_DISCOVERY_CACHE_MS for the server: undefined keeps the default (10 min), 0 keeps nothing. */
  discoveryCacheMs?: number;
}

const SCENARIOS: Scenario[] = [
  { name: 'one hung connection, discovery kept (default)', connections: 1 },
  { name: '20 hung connections, discovery kept (default)', connections: 20 },
  { name: '20 hung connections, discovery fetched on every start', connections: 20, discoveryCacheMs: 0 },
];

/** A provider that takes connections and never answers; it counts them. */
async function hungProvider() {
  const sockets = new Set<Socket>();
  let opened = 0;
  const server = createTcpServer((socket) => {
    opened++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  onCleanup(() => {
    for (const s of sockets) s.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return { issuer: `http://127.0.0.1:${port}/`, opened: () => opened };
}

/** A provider that answers discovery at once; it counts the documents it served. */
async function answeringProvider() {
  let discoveries = 0;
  const port = await freePort();
  const issuer = `http://localhost:${port}`;
  const server = createHttpServer((req, res) => {
    if (req.url !== '/.well-known/openid-configuration') return res.writeHead(404).end();
    discoveries++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  onCleanup(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { issuer, discoveries: () => discoveries };
}

/** `tessera serve` (serve-child.ts) on a fresh SQLite data dir, set up with `setUp`. */
async function startServer(scenario: Scenario, issuers: { answering: string; hanging: string }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tessera-bench-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TESSERA_DATA_DIR: dataDir,
    PORT: String(port),
    TESSERA_URL: `http://localhost:${port}`,
    TESSERA_SECRET: randomBytes(32).toString('base64url'),
    TESSERA_LOG_LEVEL: 'warn',
    // Both providers listen on this machine.
    TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
  };
  delete env.DATABASE_URL;
  if (scenario.discoveryCacheMs !== undefined)
    env.BENCH_DISCOVERY_CACHE_MS = String(scenario.discoveryCacheMs);
  const cast = await setUp(env, issuers, scenario.connections);
  const child = spawnTs(SERVE_CHILD, [], env);
  const base = `http://127.0.0.1:${port}`;
  await untilReady(child, 'tessera serve', untilHealthy(`${base}/healthz`));
  return { base, port, cast };
}

interface Sample {
  ms: number;
  status: number;
}

async function timed(url: string): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(url, { redirect: 'manual' });
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

async function run(scenario: Scenario) {
  const hung = await hungProvider();
  const answering = await answeringProvider();
  const { base, port, cast } = await startServer(scenario, {
    answering: answering.issuer,
    hanging: hung.issuer,
  });
  const start = (org: string, con: string) => `${base}/sso/${con}/start?host=${org}.localhost:${port}`;
  const steady = () => timed(start('steady', (cast as Cast).steady));
  for (let i = 0; i < 50; i++) await steady();
  const idle: Sample[] = [];
  const busy: Sample[] = [];
  const sampleIdle = async (n: number) => {
    for (let i = 0; i < n; i++) idle.push(await steady());
  };
  const loadBefore = loadavg();
  await sampleIdle(Math.ceil(IDLE_SAMPLES / 2));
  const openedBefore = hung.opened();
  const discoveriesBefore = answering.discoveries();
  const t0 = performance.now();
  let done = false;
  const burst = Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      timed(start('burst', cast.burst[i % cast.burst.length] as string)),
    ),
  ).finally(() => {
    done = true;
  });
  while (!done) busy.push(await steady());
  const answers = await burst;
  const burstMs = performance.now() - t0;
  const opened = hung.opened() - openedBefore;
  const discoveries = answering.discoveries() - discoveriesBefore;
  await sampleIdle(Math.floor(IDLE_SAMPLES / 2));
  const loadAfter = loadavg();

  const sorted = (xs: Sample[]) => xs.map((x) => x.ms).sort((a, b) => a - b);
  const i = sorted(idle);
  const b = sorted(busy);
  const row = [
    'steady: /sso/{con}/start',
    quantile(i, 0.5).toFixed(1),
    quantile(i, 0.95).toFixed(1),
    quantile(b, 0.5).toFixed(1),
    quantile(b, 0.95).toFixed(1),
    (quantile(b, 0.5) / quantile(i, 0.5)).toFixed(2),
    (quantile(b, 0.95) / quantile(i, 0.95)).toFixed(2),
    `${i.length}/${b.length}`,
    String(busy.filter((x) => x.status !== 303).length),
  ];
  const byStatus = new Map<number, number[]>();
  for (const a of answers) byStatus.set(a.status, [...(byStatus.get(a.status) ?? []), a.ms]);
  const statuses = [...byStatus]
    .sort(([x], [y]) => x - y)
    .map(([status, ms]) => {
      const s = ms.sort((x, y) => x - y);
      return `${status} × ${s.length} (p50 ${quantile(s, 0.5).toFixed(0)} ms, max ${(s.at(-1) ?? 0).toFixed(0)} ms)`;
    })
    .join(', ');
  const server = process.env.BENCH_SERVE_ROOT ? ` [the server of ${process.env.BENCH_SERVE_ROOT}]` : '';
  console.log(
    `\n${scenario.name}${server}: ${BURST} parallel anonymous starts of the org burst's ${scenario.connections} connection(s)\n`,
  );
  console.log(
    table(
      [
        'request',
        'idle p50 ms',
        'idle p95',
        'burst p50',
        'burst p95',
        'p50 ratio',
        'p95 ratio',
        'n idle/burst',
        'non-303 in burst',
      ],
      [row],
    ),
  );
  console.log(
    `\nburst answers: ${statuses}; burst wall time ${burstMs.toFixed(0)} ms` +
      `\noutbound connections opened to the hung provider during the burst: ${opened}` +
      `\ndiscovery documents the steady provider served during the burst: ${discoveries} (for ${b.length} starts)` +
      `\nload average (1, 5, 15 min) before measuring: ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, ` +
      `after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
  );
}

await runBench(async () => {
  const only = process.env.BENCH_SCENARIO;
  for (const [n, scenario] of SCENARIOS.entries()) {
    if (only !== undefined && only !== String(n + 1)) continue;
    await run(scenario);
  }
});
