import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { postgresSkip } from '../../packages/server/test/support/environment.js';
import { onCleanup, runBench } from '../support/children.js';
import { newConnectionLoad } from '../support/new-connections.js';
import { cpuMs, postgresCpuMs, rssMb } from '../support/process-stats.js';
import { fmt, quantile, table } from '../support/report.js';
import { serveTessera } from '../support/tessera-serve.js';
import { startTlsFront, tlsFrontSkip } from '../support/tls-front.js';
import { type Cast, setUp } from './setup.js';

const positive = (name: string, fallback: number) =>
  Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback;
const SECONDS = positive('BENCH_SECONDS', 10);
const ROUNDS = positive('BENCH_ROUNDS', 3);
const SESSIONS = positive('BENCH_SESSIONS', 16);
const WARMUP_SECONDS = 2;
const only = process.env.BENCH_DATABASE;

interface Server {
  tokenUrl: URL;
  cast: Cast;
  pid: number;
  database: 'sqlite' | 'postgres';
}

async function start(database: 'sqlite' | 'postgres'): Promise<Server> {
  const { base, port, cast, pid } = await serveTessera(database, `tessera (${database})`, (env) =>
    setUp(env, SESSIONS),
  );
  return { tokenUrl: new URL(`${base}/oauth/token?host=bench.localhost:${port}`), cast, pid, database };
}

const agent = new Agent({ keepAlive: true, maxSockets: SESSIONS });

/** One POST of a form to the token endpoint over a kept-alive connection: the status and the JSON body. */
function post(url: URL, form: string): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(form),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(form);
  });
}

interface Run {
  requests: number;
  failed: number;
  reqPerSec: number;
  p99: number;
  /** The server's CPU time per request in ms: its main thread, and all its threads (signing runs on libuv's pool). */
  cpu: { main: number; all: number } | null;
  /** PostgreSQL's CPU time per request in ms, all its processes, when it runs on this machine. */
  database: number | null;
}

type Grant = 'client_credentials' | 'refresh_token';

/**
 * SESSIONS loops, each sending its next request as soon as the last is answered, for `seconds`. A
 * refresh loop is one session: it sends the refresh token the previous answer rotated to (so every
 * request is a real rotation), and checks the answer carries an ID token.
 */
async function drive(server: Server, grant: Grant, seconds: number): Promise<Run> {
  const { clientId, clientSecret, refreshTokens } = server.cast;
  const auth = `client_id=${encodeURIComponent(clientId)}&client_secret=${encodeURIComponent(clientSecret)}`;
  const latencies: number[] = [];
  let failed = 0;
  const cpuBefore = cpuMs(server.pid);
  const databaseBefore = server.database === 'postgres' ? postgresCpuMs() : null;
  const started = performance.now();
  const end = started + seconds * 1000;
  const loop = async (i: number) => {
    while (performance.now() < end) {
      const form =
        grant === 'client_credentials'
          ? `grant_type=client_credentials&${auth}`
          : `grant_type=refresh_token&refresh_token=${refreshTokens[i]}&${auth}`;
      const t0 = performance.now();
      const { status, body } = await post(server.tokenUrl, form);
      latencies.push(performance.now() - t0);
      const ok =
        status === 200 &&
        typeof body.access_token === 'string' &&
        (grant === 'client_credentials' ||
          (typeof body.id_token === 'string' && typeof body.refresh_token === 'string'));
      if (!ok) {
        failed++;
        if (grant === 'refresh_token') throw new Error(`refresh answered ${status}: ${JSON.stringify(body)}`);
      } else if (grant === 'refresh_token') refreshTokens[i] = body.refresh_token as string;
    }
  };
  await Promise.all(refreshTokens.map((_, i) => loop(i)));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpuMs(server.pid);
  const databaseAfter = databaseBefore === null ? null : postgresCpuMs();
  latencies.sort((a, b) => a - b);
  const n = latencies.length;
  return {
    requests: n,
    failed,
    reqPerSec: n / elapsed,
    p99: quantile(latencies, 0.99),
    cpu:
      cpuBefore && cpuAfter
        ? { main: (cpuAfter.main - cpuBefore.main) / n, all: (cpuAfter.all - cpuBefore.all) / n }
        : null,
    database: databaseBefore !== null && databaseAfter !== null ? (databaseAfter - databaseBefore) / n : null,
  };
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Rows of the variant with a new TLS connection per request, filled by each database's run. */
const tlsRows: string[][] = [];

/**
 * Both grants again with a new TLS connection per request, nginx terminating TLS in front of the
 * server (bench/support/tls-front.ts), as Keycloak's sizing figures are measured (120–200
 * client-credentials grants and 120 refreshes per second per vCPU): per core is 1000 ÷ the CPU ms
 * per request of the server and nginx together (the database's own CPU is not counted).
 */
async function overTls(server: Server, database: string): Promise<string[][]> {
  if (tlsFrontSkip()) return [];
  const front = await startTlsFront([Number(server.tokenUrl.port)]);
  const url = `${front.origins[0]}${server.tokenUrl.pathname}${server.tokenUrl.search}`;
  const { clientId, clientSecret, refreshTokens } = server.cast;
  const auth = `client_id=${encodeURIComponent(clientId)}&client_secret=${encodeURIComponent(clientSecret)}`;
  const rows: string[][] = [];
  for (const grant of ['client_credentials', 'refresh_token'] as Grant[]) {
    const run = (seconds: number) =>
      newConnectionLoad({
        url,
        ca: front.ca,
        lanes: SESSIONS,
        seconds,
        form: (i) =>
          grant === 'client_credentials'
            ? `grant_type=client_credentials&${auth}`
            : `grant_type=refresh_token&refresh_token=${refreshTokens[i]}&${auth}`,
        answered: (i, status, text) => {
          if (status !== 200) {
            if (grant === 'refresh_token') throw new Error(`refresh answered ${status}: ${text}`);
            return false;
          }
          const body = JSON.parse(text) as Record<string, unknown>;
          if (grant === 'client_credentials') return typeof body.access_token === 'string';
          if (typeof body.id_token !== 'string' || typeof body.refresh_token !== 'string') return false;
          refreshTokens[i] = body.refresh_token;
          return true;
        },
      });
    await run(WARMUP_SECONDS);
    const before = { server: cpuMs(server.pid), tls: cpuMs(front.pid), load: load() };
    const result = await run(SECONDS);
    const after = { server: cpuMs(server.pid), tls: cpuMs(front.pid) };
    const n = Math.max(1, result.requests);
    const serverMs = before.server && after.server ? (after.server.all - before.server.all) / n : Number.NaN;
    const tlsMs = before.tls && after.tls ? (after.tls.all - before.tls.all) / n : Number.NaN;
    rows.push([
      `${database} ${grant === 'client_credentials' ? 'client_credentials' : 'refresh (openid)'}`,
      fmt(result.reqPerSec),
      fmt(result.p99, 1),
      String(result.failed),
      fmt(serverMs, 2),
      fmt(tlsMs, 2),
      fmt(1000 / (serverMs + tlsMs)),
      fmt(1000 / serverMs),
      `${before.load} → ${load()}`,
    ]);
  }
  return rows;
}

async function bench(database: 'sqlite' | 'postgres'): Promise<string[][]> {
  const server = await start(database);
  await drive(server, 'client_credentials', WARMUP_SECONDS);
  await drive(server, 'refresh_token', WARMUP_SECONDS);
  const rows: string[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const before = load();
    // Alternating the order, so neither grant always runs on the warmer or the busier machine.
    const order: Grant[] =
      round % 2 === 1 ? ['client_credentials', 'refresh_token'] : ['refresh_token', 'client_credentials'];
    const runs = {} as Record<Grant, Run>;
    for (const grant of order) runs[grant] = await drive(server, grant, SECONDS);
    const cc = runs.client_credentials;
    const refresh = runs.refresh_token;
    const cpu = (run: Run) => (run.cpu ? `${fmt(run.cpu.main, 2)} / ${fmt(run.cpu.all, 2)}` : '-');
    rows.push([
      `${database} #${round}`,
      fmt(cc.reqPerSec),
      fmt(cc.p99, 1),
      fmt(refresh.reqPerSec),
      fmt(refresh.p99, 1),
      cpu(cc),
      cpu(refresh),
      String(cc.failed + refresh.failed),
      `×${fmt(refresh.reqPerSec / cc.reqPerSec, 2)}`,
      cc.cpu && refresh.cpu ? `×${fmt(cc.cpu.all / refresh.cpu.all, 2)}` : '-',
      cc.database !== null && refresh.database !== null
        ? `${fmt(cc.database, 2)} / ${fmt(refresh.database, 2)}`
        : '-',
      cc.cpu && refresh.cpu && cc.database !== null && refresh.database !== null
        ? `×${fmt((cc.cpu.all + cc.database) / (refresh.cpu.all + refresh.database), 2)}`
        : '-',
      `${before} → ${load()}`,
    ]);
    console.log(`  ${database} round ${round}: ×${fmt(refresh.reqPerSec / cc.reqPerSec, 2)}`);
  }
  // Read after the rounds, as before the variant over TLS was added, so runs stay comparable.
  const rss = rssMb(server.pid);
  console.log(`  ${database}: server resident memory after the run ${rss === null ? '-' : `${fmt(rss)} MB`}`);
  tlsRows.push(...(await overTls(server, database)));
  return rows;
}

async function main(): Promise<void> {
  const databases: ('sqlite' | 'postgres')[] = [];
  if (only !== 'postgres') databases.push('sqlite');
  if (only !== 'sqlite') {
    const skip = await postgresSkip();
    if (skip) console.log(`PostgreSQL: ${skip}`);
    else databases.push('postgres');
  }
  console.log(
    `${SESSIONS} sessions / connections, ${SECONDS} s per grant, ${ROUNDS} rounds; load average (1 5 15 min) ${load()}`,
  );
  const rows: string[][] = [];
  for (const database of databases) rows.push(...(await bench(database)));
  console.log(
    `\n${table(
      [
        'round',
        'client_credentials req/s',
        'p99 ms',
        'refresh (openid) req/s',
        'p99 ms',
        'cc CPU ms/req main / all',
        'refresh CPU ms/req main / all',
        'failed',
        'refresh ÷ cc',
        'by server CPU',
        'PostgreSQL CPU ms/req cc / refresh',
        'by server + PostgreSQL CPU',
        'load average before → after',
      ],
      rows,
    )}`,
  );
  const skip = tlsFrontSkip();
  if (skip) {
    console.log(`\nnew TLS connection per request: skipped, ${skip}`);
    return;
  }
  console.log(
    `\nNew TLS connection per request (${SESSIONS} at once, ${SECONDS} s per grant), nginx terminating TLS (one process, RSA-2048 certificate, no session resumption); CPU from /proc, the client's and the database's not counted\n${table(
      [
        'grant',
        'req/s',
        'p99 ms',
        'failed',
        'server cpu ms/req',
        'TLS cpu ms/req',
        'per core (server + TLS) /s',
        'per core (server alone) /s',
        'load average before → after',
      ],
      tlsRows,
    )}`,
  );
  console.log(
    "Keycloak's published sizing: 120–200 client-credentials grants and 120 refreshes per second per vCPU, new TLS connection per request",
  );
}

onCleanup(() => agent.destroy());
await runBench(main);
