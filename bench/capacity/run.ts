import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { postgresSkip } from '../../packages/server/test/support/environment.js';
import {
  exchange,
  form,
  listPage,
  machineToken,
  refresh,
  type Server,
  signIn,
} from '../round-trips/operations.js';
import { setUp } from '../round-trips/setup.js';
import { onCleanup, runBench } from '../support/children.js';
import { cpuMs } from '../support/process-stats.js';
import { fmt, quantile, table } from '../support/report.js';
import { serveTessera } from '../support/tessera-serve.js';

const positive = (name: string, fallback: number) =>
  Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback;
/** Seconds each workload runs. */
const SECONDS = positive('BENCH_SECONDS', 10);
/** Concurrent loops of each workload but the sign-in. */
const CONCURRENCY = positive('BENCH_CONCURRENCY', 8);
/** Concurrent sign-ins: argon2 runs on libuv's pool (4 threads), so more only queue. */
const SIGN_IN_CONCURRENCY = positive('BENCH_SIGN_IN_CONCURRENCY', 4);
/** Seconds of sign-ins: each costs tens of ms of CPU, and their codes feed the exchange. */
const SIGN_IN_SECONDS = positive('BENCH_SIGN_IN_SECONDS', 2 * SECONDS);
/** Seconds of idle measured first (subtracted from every workload). */
const IDLE_SECONDS = 5;
/** Users with a password (each sign-in uses the next one, round robin). */
const USERS = positive('BENCH_USERS', 64);

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

// ---- what PostgreSQL spends ------------------------------------------------------------------------

/**
 * The PostgreSQL server's CPU and WAL as this process can read them: the CPU time of the postmaster and
 * every process it started (from /proc, when the server runs on this machine and its data directory is
 * readable here: its postmaster.pid names the postmaster), and its WAL flushes (pg_stat_wal, PostgreSQL
 * 14+) and commits. All of it is the whole server's: point the bench at a server nothing else uses.
 */
class Database {
  readonly #client: pg.Client;
  #postmaster: number | null = null;

  constructor(url: string) {
    this.#client = new pg.Client({ connectionString: url });
  }

  async open(): Promise<void> {
    await this.#client.connect();
    onCleanup(() => this.#client.end());
    const { rows } = await this.#client.query<{ dir: string }>(
      'select current_setting($$data_directory$$) as dir',
    );
    const pidFile = join(rows[0]?.dir ?? '', 'postmaster.pid');
    if (existsSync(pidFile)) this.#postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  }

  /** Milliseconds of CPU the server's processes have run so far (those alive now), or null. */
  cpuMs(): number | null {
    const root = this.#postmaster;
    if (root === null) return null;
    let total = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue;
      }
      // pid (comm) state ppid …: the fields after the command's closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) !== root && ppid !== root) continue;
      total += cpuMs(Number(entry))?.all ?? 0;
    }
    return total;
  }

  async counters(): Promise<{ walSyncs: number; commits: number }> {
    const wal = await this.#client.query<{ n: string }>('select wal_sync::text as n from pg_stat_wal');
    const commits = await this.#client.query<{ n: string }>(
      'select sum(xact_commit)::text as n from pg_stat_database',
    );
    return { walSyncs: Number(wal.rows[0]?.n ?? 0), commits: Number(commits.rows[0]?.n ?? 0) };
  }
}

// ---- one workload ----------------------------------------------------------------------------------

interface Result {
  name: string;
  concurrency: number;
  ops: number;
  seconds: number;
  latencies: number[];
  serverCpu: { main: number; all: number };
  benchCpuMs: number;
  pgCpuMs: number | null;
  walSyncs: number;
  commits: number;
  poolWaitMs: number;
  loadAfter: string;
}

/** The server's own counters of connection waits (`tessera_db_pool_wait_seconds`): sum in ms, count. */
async function poolWaits(base: string): Promise<{ ms: number; count: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return {
    ms: value('tessera_db_pool_wait_seconds_sum') * 1000,
    count: value('tessera_db_pool_wait_seconds_count'),
  };
}

/**
 * `concurrency` loops each running `op` one after the other for SECONDS (or until `op` says there is
 * no more work by returning false), with the server's, this process's and PostgreSQL's CPU and
 * PostgreSQL's counters read before and after.
 */
async function workload(
  name: string,
  concurrency: number,
  server: Server & { pid: number },
  db: Database,
  op: (loop: number) => Promise<boolean | undefined>,
  duration = SECONDS,
): Promise<Result> {
  const cpu0 = cpuMs(server.pid);
  const bench0 = process.cpuUsage();
  const pg0 = db.cpuMs();
  const counters0 = await db.counters();
  const waits0 = await poolWaits(server.base);
  const latencies: number[] = [];
  const start = performance.now();
  const until = start + duration * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const more = await op(loop);
        if (more === false) return;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const cpu1 = cpuMs(server.pid);
  const bench1 = process.cpuUsage(bench0);
  const pg1 = db.cpuMs();
  const counters1 = await db.counters();
  const waits1 = await poolWaits(server.base);
  latencies.sort((a, b) => a - b);
  return {
    name,
    concurrency,
    ops: latencies.length,
    seconds,
    latencies,
    serverCpu: {
      main: (cpu1?.main ?? 0) - (cpu0?.main ?? 0),
      all: (cpu1?.all ?? 0) - (cpu0?.all ?? 0),
    },
    benchCpuMs: (bench1.user + bench1.system) / 1000,
    pgCpuMs: pg0 !== null && pg1 !== null ? pg1 - pg0 : null,
    walSyncs: counters1.walSyncs - counters0.walSyncs,
    commits: counters1.commits - counters0.commits,
    poolWaitMs: waits1.count > waits0.count ? (waits1.ms - waits0.ms) / (waits1.count - waits0.count) : 0,
    loadAfter: load(),
  };
}

async function main(): Promise<void> {
  const skip = await postgresSkip();
  if (skip) {
    console.log(`PostgreSQL: ${skip}; this bench measures a node on PostgreSQL and has nothing to do.`);
    return;
  }
  const loadBefore = load();
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, SIGN_IN_CONCURRENCY) * 2 });
  onCleanup(() => agent.destroy());
  let databaseUrl = '';
  const { port, base, pid, cast } = await serveTessera(
    'postgres',
    'tessera (postgres)',
    (env) => {
      databaseUrl = env.DATABASE_URL ?? '';
      return setUp(env, USERS);
    },
    // The test schemas' connections commit without waiting for the WAL flush; a production node's wait.
    async (url) => {
      const reached = new URL(url);
      const options = reached.searchParams.get('options') ?? '';
      reached.searchParams.set('options', options.replace('-c synchronous_commit=off', '').trim());
      return reached.toString();
    },
  );
  const server = { port, base, pid, cast, agent };
  const db = new Database(databaseUrl);
  await db.open();

  const account = await form(server, '/oauth/token', 'localhost', {
    grant_type: 'client_credentials',
    client_id: cast.account.clientId,
    client_secret: cast.account.secret,
  });
  if (account.status !== 200) throw new Error(`the service account's token: ${account.status}`);
  const managementToken = account.body.access_token as string;

  // Warm every path (JIT, caches, the pool's connections).
  for (let i = 0; i < 20; i++) await machineToken(server);
  const warm = await signIn(server, cast.emails[0] as string);
  await refresh(server, await exchange(server, warm.code, warm.verifier));
  for (let i = 0; i < 20; i++) await listPage(server, managementToken);

  // What the node and PostgreSQL spend on their own while no request comes (the worker's polls,
  // PostgreSQL's background processes), per second: subtracted from each workload's figures.
  const idle = await workload('idle', 1, server, db, async () => {
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    return false;
  });
  const idleRate = {
    main: idle.serverCpu.main / idle.seconds,
    all: idle.serverCpu.all / idle.seconds,
    pg: idle.pgCpuMs === null ? null : idle.pgCpuMs / idle.seconds,
    walSyncs: idle.walSyncs / idle.seconds,
    transactions: idle.commits / idle.seconds,
  };
  const net = (r: Result): Result => ({
    ...r,
    serverCpu: {
      main: r.serverCpu.main - idleRate.main * r.seconds,
      all: r.serverCpu.all - idleRate.all * r.seconds,
    },
    pgCpuMs: r.pgCpuMs === null || idleRate.pg === null ? null : r.pgCpuMs - idleRate.pg * r.seconds,
    walSyncs: r.walSyncs - idleRate.walSyncs * r.seconds,
    commits: r.commits - idleRate.transactions * r.seconds,
  });

  const results: Result[] = [];
  results.push(
    await workload('client_credentials', CONCURRENCY, server, db, async () => {
      await machineToken(server);
      return true;
    }),
  );
  // Sign-ins leave their codes for the exchange; exchanges leave refresh tokens for the refreshes.
  const codes: { code: string; verifier: string }[] = [];
  let next = 0;
  results.push(
    await workload(
      'password sign-in (authorize → code)',
      SIGN_IN_CONCURRENCY,
      server,
      db,
      async () => {
        codes.push(await signIn(server, cast.emails[next++ % cast.emails.length] as string));
        return true;
      },
      SIGN_IN_SECONDS,
    ),
  );
  const tokens: string[] = [];
  results.push(
    await workload('code exchange', CONCURRENCY, server, db, async () => {
      const code = codes.shift();
      if (!code) return false;
      tokens.push(await exchange(server, code.code, code.verifier));
      return true;
    }),
  );
  // Each loop refreshes chains of its own (a chain is one session's token, rotated each time).
  const chains = Array.from({ length: CONCURRENCY }, (_, loop) =>
    tokens.filter((_, i) => i % CONCURRENCY === loop),
  );
  let turn = 0;
  results.push(
    await workload('refresh (openid)', CONCURRENCY, server, db, async (loop) => {
      const mine = chains[loop] as string[];
      if (mine.length === 0) return false;
      const i = turn++ % mine.length;
      mine[i] = await refresh(server, mine[i] as string);
      return true;
    }),
  );
  results.push(
    await workload('management list page (users, 50)', CONCURRENCY, server, db, async () => {
      await listPage(server, managementToken);
      return true;
    }),
  );

  const per = (value: number, r: Result) => (r.ops > 0 ? value / r.ops : Number.NaN);
  const rows = results.map(net).map((r) => {
    const allMs = per(r.serverCpu.all, r);
    // Below a hundredth of a ms the idle correction dominates (a machine token reads no database).
    const pgMs = r.pgCpuMs === null ? null : Math.max(0, per(r.pgCpuMs, r));
    return [
      r.name,
      String(r.concurrency),
      fmt(r.ops),
      fmt(r.ops / r.seconds, 1),
      fmt(quantile(r.latencies, 0.5), 1),
      fmt(quantile(r.latencies, 0.99), 1),
      `${fmt(per(r.serverCpu.main, r), 2)} / ${fmt(allMs, 2)}`,
      pgMs === null ? '-' : fmt(pgMs, 2),
      fmt(Math.max(0, per(r.walSyncs, r)), 2),
      fmt(Math.max(0, per(r.commits, r)), 2),
      fmt(r.poolWaitMs, 2),
      fmt(per(r.benchCpuMs, r), 2),
      fmt(1000 / allMs, 0),
      pgMs === null || pgMs < 0.01 ? '-' : fmt(1000 / pgMs, 0),
      pgMs === null || pgMs < 0.01 ? '-' : fmt(allMs / pgMs, 1),
      r.loadAfter,
    ];
  });
  console.log(
    `${SECONDS} s per workload (sign-ins ${SIGN_IN_SECONDS} s, exchanges until the codes run out); node: one \`tessera serve\` (TESSERA_DB_POOL default); PostgreSQL CPU is the whole server's${db.cpuMs() === null ? ' (not readable here: -)' : ''}; ` +
      `idle, subtracted: node ${fmt(idleRate.all, 1)} ms CPU/s, PostgreSQL ${idleRate.pg === null ? '-' : fmt(idleRate.pg, 1)} ms CPU/s, ${fmt(idleRate.walSyncs, 2)} WAL fsyncs/s, ${fmt(idleRate.transactions, 1)} transactions/s\n`,
  );
  console.log(
    table(
      [
        'workload',
        'loops',
        'ops',
        'ops/s',
        'p50 ms',
        'p99 ms',
        'node CPU ms/op main / all',
        'PG CPU ms/op',
        'WAL fsyncs/op',
        'transactions/op',
        'pool wait ms',
        'bench CPU ms/op',
        'ops/s per node core',
        'ops/s per PG core',
        'node cores per PG core',
        'load after',
      ],
      rows,
    ),
  );
  console.log(`\nload average (1 5 15 min): ${loadBefore} before → ${load()} after`);
}

await runBench(main);
