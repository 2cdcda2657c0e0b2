import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { postgresSkip } from '../../packages/server/test/support/environment.js';
import { type Child, onCleanup, runBench, spawnTs, untilReady } from '../support/children.js';
import { fmt, quantile, table } from '../support/report.js';
import { serveTessera } from '../support/tessera-serve.js';
import { exchange, form, listPage, machineToken, refresh, type Server, signIn } from './operations.js';
import { setUp } from './setup.js';

const positive = (name: string, fallback: number) =>
  Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback;
/** Operations per row: the counts are their mean, the latencies their p50. */
const SAMPLES = positive('BENCH_SAMPLES', 40);
/** The one-way delay of the slow phase, in ms (0.5 each way: PostgreSQL 1 ms away). */
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 0.5);
/** How long the idle rate is counted (BENCH_IDLE_SECONDS; the workers' fallback polls come every 8–12 s). */
const IDLE_SECONDS = positive('BENCH_IDLE_SECONDS', 3);
/** BENCH_IDLE_ONLY=1: count the idle rate (and what an idle node's statements are) and stop. */
const IDLE_ONLY = process.env.BENCH_IDLE_ONLY === '1';
/** BENCH_TRACE=1: after the warm-up, one of each operation with its statements on stderr, and no figures. */
const TRACE = process.env.BENCH_TRACE === '1';

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

// ---- the proxy ---------------------------------------------------------------------------------

interface Proxy {
  port: number;
  trips(): Promise<number>;
  delay(ms: number): Promise<void>;
  trace(on: boolean): Promise<string[]>;
}

async function startProxy(upstream: URL): Promise<Proxy> {
  const child: Child = spawnTs(new URL('./proxy-child.ts', import.meta.url).pathname, [], {
    ...process.env,
    PROXY_UPSTREAM_HOST: upstream.hostname,
    PROXY_UPSTREAM_PORT: upstream.port || '5432',
  });
  const ipc = child.process;
  const ask = async <T>(message: object, kind: string): Promise<T> => {
    const answer = new Promise<T>((resolve) => {
      const on = (m: { kind: string } & T) => {
        if (m.kind !== kind) return;
        ipc.off('message', on);
        resolve(m);
      };
      ipc.on('message', on);
    });
    if (Object.keys(message).length > 0) ipc.send(message);
    return answer;
  };
  const { port } = await untilReady(child, 'the proxy', ask<{ port: number }>({}, 'port'));
  return {
    port,
    trips: async () => (await ask<{ trips: number }>({ kind: 'count' }, 'count')).trips,
    delay: async (ms) => {
      await ask({ kind: 'delay', ms }, 'delay');
    },
    trace: async (on) => (await ask<{ lines: string[] }>({ kind: 'trace', on }, 'trace')).lines,
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
onCleanup(() => agent.destroy());

// ---- measuring ---------------------------------------------------------------------------------

/**
 * SAMPLES operations one after another (each after `prepare`, which is not counted): the mean number
 * of round trips each made (less what the server does on its own while idle, at the rate measured) and
 * the p50 of their latency.
 */
async function measure(
  proxy: Proxy,
  idlePerMs: number,
  prepare: (i: number) => Promise<void>,
  op: (i: number) => Promise<void>,
): Promise<{ trips: number; p50: number }> {
  let trips = 0;
  let elapsed = 0;
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    await prepare(i);
    const before = await proxy.trips();
    const t0 = performance.now();
    await op(i);
    const ms = performance.now() - t0;
    trips += (await proxy.trips()) - before;
    elapsed += ms;
    latencies.push(ms);
  }
  latencies.sort((a, b) => a - b);
  return { trips: (trips - idlePerMs * elapsed) / SAMPLES, p50: quantile(latencies, 0.5) };
}

async function main(): Promise<void> {
  const skip = await postgresSkip();
  if (skip) {
    console.log(`PostgreSQL: ${skip}; this bench counts PostgreSQL round trips and has nothing to do.`);
    return;
  }
  const loadBefore = load();
  let proxy: Proxy | null = null;
  const { port, base, cast } = await serveTessera(
    'postgres',
    'tessera (postgres, through the proxy)',
    (env) => setUp(env, SAMPLES),
    async (url) => {
      const upstream = new URL(url);
      proxy = await startProxy(upstream);
      upstream.hostname = '127.0.0.1';
      upstream.port = String(proxy.port);
      return upstream.toString();
    },
  );
  const p = proxy as unknown as Proxy;
  const server: Server = { port, base, cast, agent };

  // What the server does on its own (the worker's polls), per ms, subtracted from every count.
  const idle0 = await p.trips();
  if (IDLE_ONLY) await p.trace(true);
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const idlePerMs = ((await p.trips()) - idle0) / (IDLE_SECONDS * 1000);
  if (IDLE_ONLY) {
    const statements = (await p.trace(false)).filter((line) => line !== '--');
    const counted = new Map<string, number>();
    for (const s of statements) counted.set(s, (counted.get(s) ?? 0) + 1);
    for (const [s, n] of [...counted].sort((a, b) => b[1] - a[1])) console.log(`${n}× ${s.slice(0, 160)}`);
    console.log(
      `idle for ${IDLE_SECONDS} s: ${fmt(idlePerMs * 1000, 2)} round trips/s (load average ${loadBefore} before, ${load()} after)`,
    );
    return;
  }

  const account = await form(server, '/oauth/token', `localhost`, {
    grant_type: 'client_credentials',
    client_id: cast.account.clientId,
    client_secret: cast.account.secret,
  });
  if (account.status !== 200) throw new Error(`the service account's token: ${account.status}`);
  const managementToken = account.body.access_token as string;

  // Warm every cache and every path once.
  for (let i = 0; i < 5; i++) await machineToken(server);
  const warm = await signIn(server, cast.emails[0] as string);
  await refresh(server, await exchange(server, warm.code, warm.verifier));
  await listPage(server, managementToken);

  if (TRACE) {
    // One of each, with every statement it sends (and the worker's polls meanwhile): what to take out next.
    const traced = async (name: string, op: () => Promise<unknown>) => {
      await p.trace(true);
      await op();
      console.log(`\n==== ${name}\n${(await p.trace(false)).join('\n')}`);
    };
    await traced('client_credentials', () => machineToken(server));
    let one = { code: '', verifier: '' };
    await traced('sign-in', async () => {
      one = await signIn(server, cast.emails[1] as string);
    });
    let refreshToken = '';
    await traced('code exchange', async () => {
      refreshToken = await exchange(server, one.code, one.verifier);
    });
    await traced('refresh', () => refresh(server, refreshToken));
    await traced('users list', () => listPage(server, managementToken));
    return;
  }

  const phase = async (delay: number) => {
    await p.delay(delay);
    const codes: { code: string; verifier: string }[] = [];
    const refreshTokens: string[] = [];
    const rows: Record<string, { trips: number; p50: number }> = {};
    rows.client_credentials = await measure(
      p,
      idlePerMs,
      async () => {},
      () => machineToken(server),
    );
    rows.signIn = await measure(
      p,
      idlePerMs,
      async () => {},
      async (i) => {
        codes[i] = await signIn(server, cast.emails[i] as string);
      },
    );
    rows.exchange = await measure(
      p,
      idlePerMs,
      async () => {},
      async (i) => {
        const { code, verifier } = codes[i] as { code: string; verifier: string };
        refreshTokens[i] = await exchange(server, code, verifier);
      },
    );
    rows.refresh = await measure(
      p,
      idlePerMs,
      async () => {},
      async (i) => {
        refreshTokens[i] = await refresh(server, refreshTokens[i] as string);
      },
    );
    rows.list = await measure(
      p,
      idlePerMs,
      async () => {},
      () => listPage(server, managementToken),
    );
    return rows;
  };

  const fast = await phase(0);
  const slow = await phase(DELAY_MS);
  await p.delay(0);

  // What one bare round trip through the proxy adds with the delay on (a `SELECT 1` over its own
  // connection through the same proxy): the yardstick of the goals' "per round trip".
  const proxiedUrl = new URL(
    process.env.TESSERA_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  );
  proxiedUrl.hostname = '127.0.0.1';
  proxiedUrl.port = String(p.port);
  const yardstick = new pg.Client({ connectionString: proxiedUrl.toString() });
  await yardstick.connect();
  const trip = async (delay: number) => {
    await p.delay(delay);
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await yardstick.query('select 1');
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return quantile(times, 0.5);
  };
  const oneTrip = (await trip(DELAY_MS)) - (await trip(0));
  await p.delay(0);
  await yardstick.end();

  const goals: [string, string, number][] = [
    ['client_credentials', 'client_credentials (warm caches)', 0],
    ['refresh', 'refresh (openid)', 2],
    ['exchange', 'code exchange', 3],
    ['signIn', 'password sign-in, /oauth/authorize → code', 10],
    ['list', 'management list page (users, 50)', 2],
  ];
  const rows: string[][] = goals.map(([key, name, goal]) => {
    const f = fast[key] as { trips: number; p50: number };
    const s = slow[key] as { trips: number; p50: number };
    const added = s.p50 - f.p50;
    return [
      name,
      fmt(f.trips, 1),
      String(goal),
      fmt(f.p50, 2),
      fmt(s.p50, 2),
      fmt(added, 2),
      fmt(goal * 1.6, 1),
      oneTrip > 0 ? fmt(added / oneTrip, 1) : '-',
    ];
  });
  console.log(
    `${SAMPLES} operations per row, one at a time; the server alone made ${fmt(idlePerMs * 1000, 2)} round trips/s while idle (subtracted); one bare round trip through the proxy adds ${fmt(oneTrip, 2)} ms with ${DELAY_MS} ms each way\n`,
  );
  console.log(
    table(
      [
        'operation',
        'round trips',
        'goal',
        'p50 ms, no delay',
        `p50 ms, ${DELAY_MS} ms each way`,
        'added ms',
        'goal: added ≤ ms',
        'added ÷ one trip',
      ],
      rows,
    ),
  );
  console.log(`\nload average (1 5 15 min): ${loadBefore} before → ${load()} after`);
}

await runBench(main);
