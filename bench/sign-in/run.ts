import { createHash, randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { hashPassword } from '../../packages/server/src/crypto/passwords.js';
import { postgresSkip } from '../../packages/server/test/support/environment.js';
import { onCleanup, runBench } from '../support/children.js';
import { cpuMs, postgresCpuMs, rssMb } from '../support/process-stats.js';
import { fmt, quantile, table } from '../support/report.js';
import { serveTessera } from '../support/tessera-serve.js';
import { Browser, readForm } from './browser.js';
import { type Cast, PASSWORD, REDIRECT_URI, setUp } from './setup.js';

const positive = (name: string, fallback: number) =>
  Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback;
const SECONDS = positive('BENCH_SECONDS', 10);
const ROUNDS = positive('BENCH_ROUNDS', 3);
// As many at once as the server hashes at once: argon2 runs on libuv's thread pool (4 threads unless
// UV_THREADPOOL_SIZE says otherwise), in the server as in this process.
const CONCURRENCY =
  process.env.BENCH_STEPS === '1'
    ? 1
    : positive('BENCH_CONCURRENCY', Number(process.env.UV_THREADPOOL_SIZE) || 4);
const WARMUP_SECONDS = 2;
const only = process.env.BENCH_DATABASE;
// BENCH_STEPS=1: one sign-in at a time, and the server's CPU read around each request, so that each
// request's share of a sign-in is its own (printed after the rounds as a table of requests).
const STEPS = process.env.BENCH_STEPS === '1';

interface Server {
  issuer: string;
  port: number;
  cast: Cast;
  pid: number;
  database: 'sqlite' | 'postgres';
}

async function start(database: 'sqlite' | 'postgres'): Promise<Server> {
  const { port, cast, pid } = await serveTessera(database, `tessera (${database})`, (env) =>
    setUp(env, CONCURRENCY),
  );
  return { issuer: `http://bench.localhost:${port}`, port, cast, pid, database };
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });

/**
 * One full password sign-in, as a browser that has never been there: GET /oauth/authorize (PKCE,
 * scope openid) → the login page → POST the form with the password → redirects to the client's
 * redirect URI with a code → POST /oauth/token with the verifier. Checks every step's status and
 * that the answer carries an access and an ID token.
 */
async function signIn(server: Server, email: string): Promise<void> {
  const browser = stepped(new Browser(agent, server.port), server.pid, server.database === 'postgres');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL('/oauth/authorize', server.issuer);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: server.cast.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'openid email',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
  })) {
    authorize.searchParams.set(k, v);
  }
  let url = authorize.href;
  let answer = await browser.get(url);
  let submitted = false;
  for (let step = 0; step < 8 && !url.startsWith(REDIRECT_URI); step++) {
    if ((answer.status !== 302 && answer.status !== 303) || answer.location === null) {
      throw new Error(`${answer.status} at ${new URL(url).pathname}`);
    }
    url = answer.location;
    if (url.startsWith(REDIRECT_URI)) break;
    if (new URL(url).pathname === '/login') {
      if (submitted) throw new Error('the login page came back: the password was refused');
      const page = await browser.get(url);
      if (page.status !== 200) throw new Error(`${page.status} at /login`);
      const form = readForm(page.body);
      answer = await browser.post(new URL(form.action, url).href, {
        ...form.hidden,
        email,
        password: PASSWORD,
      });
      submitted = true;
    } else {
      answer = await browser.get(url);
    }
  }
  const code = new URL(url).searchParams.get('code');
  if (!url.startsWith(REDIRECT_URI) || code === null) throw new Error(`no code: ended at ${url}`);
  const token = await browser.post(new URL('/oauth/token', server.issuer).href, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: server.cast.clientId,
  });
  const body = token.status === 200 ? (JSON.parse(token.body) as Record<string, unknown>) : {};
  if (typeof body.access_token !== 'string' || typeof body.id_token !== 'string') {
    throw new Error(`the token endpoint answered ${token.status}`);
  }
}

/** Per request of a sign-in (BENCH_STEPS): how many, and the server's CPU they took, in ms. */
const steps = new Map<string, { n: number; main: number; all: number; database: number }>();

/** The browser, reading the server's CPU before and after each request when STEPS is on. */
function stepped(browser: Browser, pid: number, postgres: boolean): Pick<Browser, 'get' | 'post'> {
  if (!STEPS) return browser;
  const timed =
    <A extends unknown[], R>(method: string, call: (url: string, ...rest: A) => Promise<R>) =>
    async (url: string, ...rest: A): Promise<R> => {
      const before = cpuMs(pid);
      const databaseBefore = postgres ? postgresCpuMs() : null;
      const answer = await call(url, ...rest);
      const after = cpuMs(pid);
      const databaseAfter = databaseBefore === null ? null : postgresCpuMs();
      const name = `${method} ${new URL(url).pathname}`;
      const step = steps.get(name) ?? { n: 0, main: 0, all: 0, database: 0 };
      if (before && after) {
        step.n++;
        step.main += after.main - before.main;
        step.all += after.all - before.all;
        if (databaseBefore !== null && databaseAfter !== null)
          step.database += databaseAfter - databaseBefore;
      }
      steps.set(name, step);
      return answer;
    };
  return { get: timed('GET', browser.get.bind(browser)), post: timed('POST', browser.post.bind(browser)) };
}

interface Run {
  perSec: number;
  p99: number;
  /** The server's CPU time per sign-in in ms (main thread / all threads); null for the hashes. */
  cpu: { main: number; all: number } | null;
  /**
   * This process's CPU time per operation in ms, all threads: a hash's cost for the hashes, the
   * client's (HTTP, cookies, the form) for the sign-ins. Null off Linux.
   */
  own: number | null;
  /** PostgreSQL's CPU per sign-in in ms, all its processes, when it runs on this machine; else null. */
  database: number | null;
}

/** CONCURRENCY loops, each starting its next operation as soon as the last is done, for `seconds`. */
async function loops(
  seconds: number,
  op: (i: number) => Promise<void>,
  pid?: number,
  postgres = false,
): Promise<Run> {
  const latencies: number[] = [];
  const cpuBefore = pid === undefined ? null : cpuMs(pid);
  const databaseBefore = postgres ? postgresCpuMs() : null;
  const ownBefore = cpuMs(process.pid);
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = pid === undefined ? null : cpuMs(pid);
  const databaseAfter = databaseBefore === null ? null : postgresCpuMs();
  const ownAfter = cpuMs(process.pid);
  latencies.sort((a, b) => a - b);
  const n = latencies.length;
  return {
    perSec: n / elapsed,
    p99: quantile(latencies, 0.99),
    cpu:
      cpuBefore && cpuAfter
        ? { main: (cpuAfter.main - cpuBefore.main) / n, all: (cpuAfter.all - cpuBefore.all) / n }
        : null,
    own: ownBefore && ownAfter ? (ownAfter.all - ownBefore.all) / n : null,
    database: databaseBefore !== null && databaseAfter !== null ? (databaseAfter - databaseBefore) / n : null,
  };
}

// The server's own hashing function: the same library and parameters as a sign-in's password check.
const hashes = (seconds: number) => loops(seconds, () => hashPassword(PASSWORD).then(() => {}));
const signIns = (server: Server, seconds: number) =>
  loops(
    seconds,
    (i) => signIn(server, server.cast.emails[i] as string),
    server.pid,
    server.database === 'postgres',
  );

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function bench(database: 'sqlite' | 'postgres'): Promise<string[][]> {
  const server = await start(database);
  await hashes(WARMUP_SECONDS);
  await signIns(server, WARMUP_SECONDS);
  const rows: string[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const before = load();
    // Alternating the order, so neither always runs on the warmer or the busier machine.
    let hash: Run;
    let sign: Run;
    if (round % 2 === 1) {
      hash = await hashes(SECONDS);
      sign = await signIns(server, SECONDS);
    } else {
      sign = await signIns(server, SECONDS);
      hash = await hashes(SECONDS);
    }
    const ratio = `×${fmt(sign.perSec / hash.perSec, 2)}`;
    rows.push([
      `${database} #${round}`,
      fmt(hash.perSec, 1),
      hash.own === null ? '-' : fmt(hash.own, 2),
      fmt(sign.perSec, 1),
      fmt(sign.p99, 1),
      sign.cpu ? `${fmt(sign.cpu.main, 2)} / ${fmt(sign.cpu.all, 2)}` : '-',
      sign.own === null ? '-' : fmt(sign.own, 2),
      ratio,
      // What the ratio would be if the client cost nothing: a hash's CPU over a sign-in's on the server.
      hash.own !== null && sign.cpu ? `×${fmt(hash.own / sign.cpu.all, 2)}` : '-',
      sign.database === null ? '-' : fmt(sign.database, 2),
      `${before} → ${load()}`,
    ]);
    console.log(`  ${database} round ${round}: ${ratio}`);
  }
  const rss = rssMb(server.pid);
  console.log(`  ${database}: server resident memory after the run ${rss === null ? '-' : `${fmt(rss)} MB`}`);
  if (STEPS) {
    const perSignIn = Math.max(...[...steps.values()].map((s) => s.n));
    console.log(
      `\n${database}: the server's CPU per request of a sign-in, one sign-in at a time (${perSignIn} sign-ins)\n${table(
        ['request', 'per sign-in', 'CPU ms main', 'CPU ms all threads', 'PostgreSQL CPU ms'],
        [...steps].map(([name, s]) => [
          name,
          fmt(s.n / perSignIn, 2),
          fmt(s.main / s.n, 2),
          fmt(s.all / s.n, 2),
          database === 'postgres' ? fmt(s.database / s.n, 2) : '-',
        ]),
      )}`,
    );
    steps.clear();
  }
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
    `${CONCURRENCY} at once, ${SECONDS} s each, ${ROUNDS} rounds; load average (1 5 15 min) ${load()}`,
  );
  const rows: string[][] = [];
  for (const database of databases) rows.push(...(await bench(database)));
  console.log(
    `\n${table(
      [
        'round',
        'argon2 hashes/s',
        'CPU ms/hash',
        'sign-ins/s',
        'sign-in p99 ms',
        'server CPU ms/sign-in main / all',
        'client CPU ms/sign-in',
        'sign-ins ÷ hashes',
        'hash CPU ÷ server CPU',
        'PostgreSQL CPU ms/sign-in',
        'load average before → after',
      ],
      rows,
    )}`,
  );
}

onCleanup(() => agent.destroy());
await runBench(main);
