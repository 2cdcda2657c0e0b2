import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { postgresSkip } from '../../packages/server/test/support/environment.js';
import { cleanup } from '../support/children.js';
import { quantile, table } from '../support/report.js';
import { serveTessera } from '../support/tessera-serve.js';
import { type Cast, setUp } from './setup.js';

const BURSTS = Number(process.env.BENCH_BURSTS) > 0 ? Number(process.env.BENCH_BURSTS) : 3;
const BURST = 40;
const IDLE_SAMPLES = Number(process.env.BENCH_SAMPLES) > 0 ? Number(process.env.BENCH_SAMPLES) : 500;
const only = process.env.BENCH_DATABASE;

interface Server {
  base: string;
  /** The `host` query override that addresses the org `steady` (TESSERA_URL is loopback). */
  steady: string;
  cast: Cast;
}

async function start(database: 'sqlite' | 'postgres'): Promise<Server> {
  const { base, port, cast } = await serveTessera(database, 'tessera serve', (env) => setUp(env, BURSTS));
  return { base, steady: `host=steady.localhost:${port}`, cast };
}

interface Sample {
  ms: number;
  status: number;
}

async function timed(request: () => Promise<Response>): Promise<Sample> {
  const t0 = performance.now();
  const res = await request();
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

const discovery = (s: Server) => timed(() => fetch(`${s.base}/.well-known/openid-configuration?${s.steady}`));
const token = (s: Server) =>
  timed(() =>
    fetch(`${s.base}/oauth/token?${s.steady}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: s.cast.machine.clientId,
        client_secret: s.cast.machine.clientSecret,
      }).toString(),
    }),
  );

/** The connection-wait histogram's count and sum (seconds) from /metrics. */
async function poolWaits(s: Server): Promise<{ count: number; sum: number }> {
  const text = await (await fetch(`${s.base}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    count: value('tessera_db_pool_wait_seconds_count'),
    sum: value('tessera_db_pool_wait_seconds_sum'),
  };
}

const sorted = (samples: Sample[]) => samples.map((x) => x.ms).sort((a, b) => a - b);

async function bench(database: 'sqlite' | 'postgres') {
  const server = await start(database);
  const idle = { discovery: [] as Sample[], token: [] as Sample[] };
  const busy = { discovery: [] as Sample[], token: [] as Sample[] };
  // Warm-up: the JIT, the caches and the connections, so the idle samples are not the cold start.
  for (let i = 0; i < 300; i++) {
    await discovery(server);
    await token(server);
  }
  const loadBefore = loadavg();
  // Half the idle samples before the bursts and half after, so both sides meet the same drift.
  const sampleIdle = async (n: number) => {
    for (let i = 0; i < n; i++) {
      idle.discovery.push(await discovery(server));
      idle.token.push(await token(server));
    }
  };
  await sampleIdle(Math.ceil(IDLE_SAMPLES / 2));
  const answers: { status: number; retryAfter: string | null; ms: number }[] = [];
  const burstMs: number[] = [];
  const waitsBefore = await poolWaits(server);
  for (let round = 0; round < BURSTS; round++) {
    const authorization = `Bearer ${server.cast.consoleTokens[round]}`;
    const t0 = performance.now();
    let done = false;
    const burst = Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const sent = performance.now();
        const res = await fetch(`${server.base}/organizations`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ slug: `burst-${round}-${i}` }),
        });
        await res.arrayBuffer();
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          ms: performance.now() - sent,
        };
      }),
    ).finally(() => {
      done = true;
    });
    // Other tenants' requests, one after the other, for as long as the burst lasts.
    while (!done) {
      busy.discovery.push(await discovery(server));
      busy.token.push(await token(server));
    }
    answers.push(...(await burst));
    burstMs.push(performance.now() - t0);
  }
  const waitsAfter = await poolWaits(server);
  await sampleIdle(Math.floor(IDLE_SAMPLES / 2));
  const loadAfter = loadavg();

  const count = (status: number) => answers.filter((a) => a.status === status).length;
  const other = answers.filter((a) => a.status !== 201 && a.status !== 429).length;
  const no429RetryAfter = answers.filter((a) => a.status === 429 && !/^\d+$/.test(a.retryAfter ?? '')).length;
  const rows = (['discovery', 'token'] as const).map((kind) => {
    const i = sorted(idle[kind]);
    const b = sorted(busy[kind]);
    const p = (xs: number[], q: number) => quantile(xs, q);
    const failed = busy[kind].filter((x) => x.status !== 200).length;
    return [
      kind === 'discovery' ? 'steady: discovery' : 'steady: client_credentials token',
      p(i, 0.5).toFixed(1),
      p(i, 0.95).toFixed(1),
      p(b, 0.5).toFixed(1),
      p(b, 0.95).toFixed(1),
      (p(b, 0.5) / p(i, 0.5)).toFixed(2),
      (p(b, 0.95) / p(i, 0.95)).toFixed(2),
      `${i.length}/${b.length}`,
      String(failed),
    ];
  });
  const answerMs = (status: number) =>
    answers
      .filter((a) => a.status === status)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
  const spread = (xs: number[]) =>
    `p50 ${quantile(xs, 0.5).toFixed(0)} ms, max ${(xs.at(-1) ?? Number.NaN).toFixed(0)} ms`;
  const waits = waitsAfter.count - waitsBefore.count;
  const waitSum = waitsAfter.sum - waitsBefore.sum;
  console.log(
    `\n${database}: ${BURSTS} bursts of ${BURST} parallel POST /organizations, each by a console user with no org\n`,
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
        'non-200 in burst',
      ],
      rows,
    ),
  );
  console.log(
    `\nburst answers: 201 ${count(201)}, 429 ${count(429)} (${no429RetryAfter} without Retry-After), ` +
      `503 ${count(503)}, other ${other - count(503)}; burst wall time p50 ${quantile(
        burstMs.sort((a, b) => a - b),
        0.5,
      ).toFixed(0)} ms` +
      `\nanswer times within a burst: 201 ${spread(answerMs(201))}; 429 ${spread(answerMs(429))}` +
      `\nconnection waits during the bursts (/metrics): ${waits} acquisitions, mean ${(
        (waitSum / Math.max(1, waits)) * 1000
      ).toFixed(2)} ms, total ${(waitSum * 1000).toFixed(0)} ms` +
      `\nload average (1, 5, 15 min) before measuring: ${loadBefore
        .map((l) => l.toFixed(2))
        .join(' ')}, after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
  );
  await cleanup();
}

process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
try {
  const databases: ('sqlite' | 'postgres')[] = [];
  if (!only || only === 'postgres') {
    if (!(await postgresSkip())) databases.push('postgres');
    else console.log('measuring SQLite only');
  }
  if (!only || only === 'sqlite') databases.push('sqlite');
  for (const database of databases) await bench(database);
} finally {
  await cleanup();
}
