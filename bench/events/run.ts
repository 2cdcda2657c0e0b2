// The audit-event list at scale: GET /organizations/{org}/events over HTTP, on SQLite and PostgreSQL.
// Run from the repo root: npm run bench -- events   (BENCH_EVENTS=100000 for a quicker run)
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { postgresSkip } from '../../packages/server/test/support/environment.js';
import { quantile, table } from '../support/report.js';
import { firstRequests } from './first-request.js';
import { loadEntries, settle } from './load.js';
import { startTarget, type Target } from './target.js';

const SIZE = Number(process.env.BENCH_EVENTS) > 0 ? Number(process.env.BENCH_EVENTS) : 1_000_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES) > 0 ? Number(process.env.BENCH_SAMPLES) : 200;
/** Fresh `tessera serve` processes whose first request is timed (first-request.ts). */
const PROCESSES =
  Number(process.env.BENCH_PROCESSES) >= 0 && process.env.BENCH_PROCESSES
    ? Number(process.env.BENCH_PROCESSES)
    : 5;
const OTHER_ORGS = 20;
const DAY = 86_400_000;
const only = process.env.BENCH_DATABASE;
/** Issue #19's goal: every page of every filter answers in under 20 ms at p95. */
const GOAL_MS = 20;

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The queries measured, each on page 0, its middle page and its last page (see bench()). */
function scenarios(now: number): [string, string][] {
  return [
    ['unfiltered', ''],
    ['unfiltered, per_page=100', 'per_page=100'],
    ['entity=tenant', 'entity=tenant'],
    ['verb=login', 'verb=login'],
    ['actor_id (a user, 0.1%)', 'actor_id=usr_bench0007'],
    ['actor_id (a client, 2%)', 'actor_id=cli_bench0011'],
    ['key_prefix=user.', 'key_prefix=user.'],
    ['key_prefix=se (8 keys)', 'key_prefix=se'],
    ['from (last 30 days)', `from=${iso(now - 30 * DAY)}`],
    ['to (older than 300 days)', `to=${iso(now - 300 * DAY)}`],
    ['from+to (one week, mid-log)', `from=${iso(now - 180 * DAY)}&to=${iso(now - 173 * DAY)}`],
    [
      'entity+verb+actor+from',
      `entity=user&verb=updated&actor_id=usr_bench0008&from=${iso(now - 200 * DAY)}`,
    ],
  ];
}

interface Timing {
  p50: number;
  p95: number;
  status: number;
  entries: number;
}

async function get(target: Target, token: string, query: string) {
  const res = await fetch(`${target.base}/organizations/acme/events${query ? `?${query}` : ''}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as unknown[];
  return {
    status: res.status,
    link: res.headers.get('link'),
    entries: Array.isArray(body) ? body.length : -1,
  };
}

/** p50/p95 of SAMPLES sequential requests, after a few unmeasured ones. */
async function measure(target: Target, token: string, query: string): Promise<Timing> {
  let last = await get(target, token, query);
  for (let i = 0; i < 10; i++) await get(target, token, query);
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    last = await get(target, token, query);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    status: last.status,
    entries: last.entries,
  };
}

const lastPageOf = (link: string | null) =>
  Number(/[?&]page=(\d+)[^>]*>; rel="last"/.exec(link ?? '')?.[1] ?? 0);

async function bench(database: 'sqlite' | 'postgres') {
  const target = await startTarget(database, OTHER_ORGS);
  const cleanup = () => target.close().catch(() => {});
  const onSignal = () => void cleanup().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  try {
    const now = Date.now();
    const db = target.db;
    const loadStart = performance.now();
    await loadEntries(db, database, target.big.id, SIZE, now, (done) =>
      process.stderr.write(
        `\r${database}: acme ${done.toLocaleString('en-US')} / ${SIZE.toLocaleString('en-US')}`,
      ),
    );
    const perOther = Math.ceil(SIZE / OTHER_ORGS);
    for (const [i, org] of target.others.entries()) {
      await loadEntries(db, database, org.id, perOther, now, () =>
        process.stderr.write(
          `\r${database}: other orgs ${((i + 1) * perOther).toLocaleString('en-US')}     `,
        ),
      );
    }
    process.stderr.write('\n');
    const loadS = (performance.now() - loadStart) / 1000;

    let token = await target.token();
    // The org's first read counts its whole history once into per-day counts (domain/event-counts.ts).
    const sealStart = performance.now();
    await get(target, token, '');
    const sealMs = performance.now() - sealStart;
    await settle(db, database);
    const rows: string[][] = [];
    let worst = 0;
    const row = async (name: string, query: string) => {
      token = await target.token();
      const t = await measure(target, token, query);
      if (t.status !== 200) throw new Error(`${name}: HTTP ${t.status} for ?${query}`);
      worst = Math.max(worst, t.p95);
      rows.push([
        name,
        t.p50.toFixed(1),
        t.p95.toFixed(1),
        `${(t.p95 / GOAL_MS).toFixed(2)}`,
        String(t.entries),
        String(t.status),
      ]);
    };
    const loadBefore = loadavg();
    const and = (query: string, extra: string) => (query ? `${query}&${extra}` : extra);
    // Every filter on page 0, on the page in the middle of its matches (the one OFFSET paid most
    // for: it skipped half of them) and on its last page; unfiltered also page 100 and per_page=100.
    for (const [name, query] of scenarios(now)) {
      await row(`${name}, page 0`, query);
      const last = lastPageOf((await get(target, token, query)).link);
      if (last < 2) continue;
      if (query === '') await row('page 100', 'page=100');
      await row(`${name}, middle page (${Math.floor(last / 2)})`, and(query, `page=${Math.floor(last / 2)}`));
      await row(`${name}, last page (${last})`, and(query, `page=${last}`));
    }

    console.log(
      `\n${database}: ${SIZE.toLocaleString('en-US')} entries in acme + ${(perOther * OTHER_ORGS).toLocaleString('en-US')} over ${OTHER_ORGS} other orgs ` +
        `(loaded in ${loadS.toFixed(0)} s); first read of acme (seals its per-day counts): ${sealMs.toFixed(0)} ms; ` +
        `${SAMPLES} sequential requests per row\n`,
    );
    console.log(table(['query', 'p50 ms', 'p95 ms', `p95 / ${GOAL_MS} ms`, 'entries', 'status'], rows));
    console.log(
      `\nworst p95: ${worst.toFixed(1)} ms = ${(worst / GOAL_MS).toFixed(2)} × the ${GOAL_MS} ms goal ` +
        `(${worst < GOAL_MS ? 'met' : 'NOT met'}); load average (1, 5, 15 min) before measuring: ` +
        `${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after: ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
    if (PROCESSES > 0) {
      const loadFirst = loadavg();
      const times = await firstRequests(target.config, () => target.token(), '', PROCESSES);
      const worstFirst = Math.max(...times.map((t) => t.first));
      console.log(
        `\nfirst request per process (unfiltered page 0, ${PROCESSES} fresh tessera serve processes): ` +
          `${times.map((t) => `${t.first.toFixed(1)} (then ${t.second.toFixed(1)})`).join(', ')} ms; worst first ` +
          `${worstFirst.toFixed(1)} ms = ${(worstFirst / GOAL_MS).toFixed(2)} × the ${GOAL_MS} ms goal ` +
          `(${worstFirst < GOAL_MS ? 'met' : 'NOT met'}); ` +
          `load average before: ${loadFirst.map((l) => l.toFixed(2)).join(' ')}, after: ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
      );
    }
  } finally {
    process.off('SIGINT', onSignal);
    await cleanup();
  }
}

const databases: ('sqlite' | 'postgres')[] = [];
if (!only || only === 'postgres') {
  // A reason to skip is printed by postgresSkip (set TESSERA_TEST_DATABASE_URL, as for the tests).
  if (!(await postgresSkip())) databases.push('postgres');
  else console.log('measuring SQLite only');
}
if (!only || only === 'sqlite') databases.push('sqlite');
for (const database of databases) await bench(database);
