// Webhook delivery: deliveries per second to a local HTTPS receiver and the time from a change to
// its delivery, on SQLite and PostgreSQL; and the cost of routing one event against 10,000 patterns,
// next to a per-pattern RegExp scan measured in the same run.
// Run from the repo root: node --conditions=tessera-source --import tsx bench/webhooks/run.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../packages/server/src/config/config.js';
import { DeliveryWorker } from '../../packages/server/src/delivery/worker.js';
import type { Deps } from '../../packages/server/src/domain/context.js';
import { createTenant } from '../../packages/server/src/domain/directory/tenants.js';
import { announceDeliveries } from '../../packages/server/src/domain/webhooks/outbox-signal.js';
import { compilePatterns } from '../../packages/server/src/domain/webhooks/pattern-matcher.js';
import { openRuntime } from '../../packages/server/src/runtime.js';
import type { Db } from '../../packages/server/src/storage/db.js';
import { POSTGRES_URL } from '../../packages/server/test/support/environment.js';
import { createPostgresSchema } from '../../packages/server/test/support/postgres.js';
import { TEST_SECRET } from '../../packages/server/test/support/runtime.js';
import { orgWithUser, subscribe } from '../../packages/server/test/webhooks/support/events.js';
import { tenThousandPatterns, VERBS } from '../../packages/server/test/webhooks/support/patterns.js';
import { Receiver } from '../../packages/server/test/webhooks/support/receiver.js';
import { testTls } from '../../packages/server/test/webhooks/support/tls.js';
import { fmt, quantile, table } from '../support/report.js';
import { plainHttpsRate } from './plain-https.js';

const BURST = Number(process.env.BENCH_EVENTS) > 0 ? Number(process.env.BENCH_EVENTS) : 3000;
const PACED = 300;
const PACED_GAP_MS = 10;
/** The worker's default concurrency, and so the peer's. */
const CONCURRENCY = 32;
/** Measured rounds of the backlog drain (after one not counted). */
const DRAIN_ROUNDS = 3;

/** Every delivery of the org pending again and due now, with a fresh series, and the worker told. */
async function requeueAll(db: Db, orgId: string) {
  const now = Date.now();
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, claim_token: null, updated_at: now })
    .where('org_id', '=', orgId)
    .execute();
  await announceDeliveries(db);
}

// ---------------------------------------------------------------- routing: 10,000 patterns

/** The peer: every pattern compiled to a RegExp once, and every one of them tried per event. */
function regexpScan(subs: ReturnType<typeof tenThousandPatterns>) {
  const compiled = subs.flatMap((s) =>
    s.events.map((p) => {
      const source =
        p === '#'
          ? '^.*$'
          : `^${p
              .split('.')
              .map((part) => (part === '*' ? '[^.]+' : part))
              .join('\\.')}$`;
      return { id: s.id, re: new RegExp(source) };
    }),
  );
  return (key: string) => {
    const found = new Set<string>();
    for (const { id, re } of compiled) if (re.test(key)) found.add(id);
    return [...found];
  };
}

function timePerCall(keys: string[], fn: (key: string) => readonly string[], minMs = 1000) {
  let calls = 0;
  let sink = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (const key of keys) sink += fn(key).length;
    calls += keys.length;
    elapsed = performance.now() - start;
  }
  if (sink < 0) console.log(sink);
  return (elapsed * 1000) / calls; // µs
}

function routingBench() {
  const subs = tenThousandPatterns();
  const started = performance.now();
  const trie = compilePatterns(subs);
  const compileMs = performance.now() - started;
  const scan = regexpScan(subs);
  // 4,000 distinct keys (more than the matcher remembers), half matching literals, half only wildcards.
  const distinct = Array.from({ length: 2000 }, (_, i) => `entity${i % 500}.${VERBS[Math.floor(i / 500)]}`);
  distinct.push(...Array.from({ length: 2000 }, (_, i) => `other${i}.${VERBS[i % 4]}`));
  for (const key of distinct.slice(0, 50)) {
    const a = [...trie.match(key)].sort().join();
    const b = scan(key).sort().join();
    if (a !== b) throw new Error(`trie and scan disagree on ${key}`);
  }
  const repeated = ['tenant.created', 'user.login', 'entity7.updated', 'membership.deleted'];
  timePerCall(distinct, (k) => trie.match(k), 300); // warm-up
  const trieCold = timePerCall(distinct, (k) => trie.match(k));
  const trieWarm = timePerCall(repeated, (k) => trie.match(k));
  const scanUs = timePerCall(distinct.slice(0, 400), scan);
  console.log(`\nRouting one event against ${fmt(trie.size)} patterns (${subs.length} webhooks)`);
  console.log(`compile: ${fmt(compileMs, 1)} ms once per change of the org's webhooks\n`);
  console.log(
    table(
      ['matcher', 'µs per event', 'vs RegExp scan'],
      [
        ['trie, 4,000 distinct keys', fmt(trieCold, 2), `${fmt(scanUs / trieCold, 0)}× faster`],
        ['trie, a few repeated keys', fmt(trieWarm, 3), `${fmt(scanUs / trieWarm, 0)}× faster`],
        ['RegExp per pattern (peer)', fmt(scanUs, 2), '1×'],
      ],
    ),
  );
}

// ---------------------------------------------------------------- delivery

interface DeliveryRow {
  database: string;
  run: string;
  events: number;
  perSecond: number;
  p50: number;
  p95: number;
  max: number;
  /** Changes committed per second by the writers. */
  written: number;
  /** Requests per second a plain keep-alive Node HTTPS client reached with the same payloads, same run. */
  peer: number;
}

async function deliveryBench(database: 'sqlite' | 'postgres', receiver: Receiver, ca: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-webhooks-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : null;
  const config = loadConfig({
    TESSERA_URL: 'http://localhost:4000',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_SECRET: TEST_SECRET,
    TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
    ...(schema ? { DATABASE_URL: schema.url } : {}),
  });
  const runtime = await openRuntime(config, () => {});
  // As in `tessera serve`: the worker runs in the process that makes the changes.
  let worker: DeliveryWorker | null = null;
  const rows: DeliveryRow[] = [];
  try {
    const { org, userId } = await orgWithUser(runtime.deps, `bench-${database}`);
    await subscribe(runtime.deps, org, receiver.url(`/${database}`), ['tenant.created']);
    const measure = async (run: string, n: number, make: (each: (id: string) => void) => Promise<void>) => {
      const committed = new Map<string, number>();
      receiver.received.length = 0;
      const started = performance.now();
      await make((id) => committed.set(id, performance.now()));
      const written = (n / (performance.now() - started)) * 1000;
      await receiver.count(n, 120_000);
      const latencies: number[] = [];
      let last = 0;
      for (const r of receiver.received) {
        const tenantId = (JSON.parse(r.body) as { data: { data: { id: string } } }).data.data.id;
        const at = committed.get(tenantId);
        const arrived = r.at - performance.timeOrigin;
        if (at !== undefined) latencies.push(arrived - at);
        last = Math.max(last, arrived);
      }
      latencies.sort((a, b) => a - b);
      rows.push({
        database,
        run,
        events: n,
        perSecond: (n / (last - started)) * 1000,
        p50: quantile(latencies, 0.5),
        p95: quantile(latencies, 0.95),
        max: latencies.at(-1) ?? Number.NaN,
        written,
        peer: Number.NaN,
      });
    };
    const create = (deps: Deps, i: number) => createTenant(deps, org, userId, `Tenant ${i}`);
    // Throughput alone: a backlog written with no worker running, then delivered by one worker;
    // then put back and delivered again, each round right before the peer posts the very requests
    // the worker sent. The first round (connections, the JIT) is not counted; the median round is.
    const writeStart = performance.now();
    for (let i = 0; i < BURST; i++) await create(runtime.deps, i);
    const written = (BURST / (performance.now() - writeStart)) * 1000;
    const drains: { rate: number; peer: number; cpu: number; cpuMs: number; peerCpuMs: number }[] = [];
    for (let round = 0; round <= DRAIN_ROUNDS; round++) {
      receiver.received.length = 0;
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      if (worker) await requeueAll(runtime.db, org.id);
      else worker = new DeliveryWorker(runtime.deps, { ca, concurrency: CONCURRENCY }).start();
      await receiver.count(BURST, 120_000);
      const last = Math.max(...receiver.received.map((r) => r.at - performance.timeOrigin));
      const cpu = process.cpuUsage(cpuStart);
      const sent = receiver.received.map((r) => ({ headers: r.headers, body: r.body }));
      receiver.received.length = 0;
      const peerCpuStart = process.cpuUsage();
      const peer = await plainHttpsRate(receiver.url('/peer'), sent, CONCURRENCY, ca);
      const peerCpu = process.cpuUsage(peerCpuStart);
      const elapsed = last - start;
      if (round > 0) {
        drains.push({
          rate: (BURST / elapsed) * 1000,
          peer,
          cpu: (cpu.user + cpu.system) / 10 / elapsed,
          // This process's CPU per request, the receiver's included on both sides (the peer's
          // connections and warm-up too); PostgreSQL's own CPU is not in it.
          cpuMs: (cpu.user + cpu.system) / 1000 / BURST,
          peerCpuMs: (peerCpu.user + peerCpu.system) / 1000 / BURST,
        });
      }
    }
    drains.sort((x, y) => x.rate / x.peer - y.rate / y.peer);
    const median = drains[Math.floor(drains.length / 2)] as (typeof drains)[number];
    console.log(
      `${database} drain rounds (deliveries/s ÷ plain HTTPS/s): ${drains.map((d) => `${fmt(d.rate)}/${fmt(d.peer)} = ${fmt(d.rate / d.peer, 2)}×`).join(', ')}; process CPU in the median round ${fmt(median.cpu)} %; load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `${database} CPU ms per request, plain HTTPS ÷ drain (receiver included on both sides): ${drains.map((d) => `${fmt(d.peerCpuMs, 3)}/${fmt(d.cpuMs, 3)} = ${fmt(d.peerCpuMs / d.cpuMs, 2)}×`).join(', ')}`,
    );
    rows.push({
      database,
      run: `backlog drain (median of ${DRAIN_ROUNDS})`,
      events: BURST,
      perSecond: median.rate,
      p50: Number.NaN,
      p95: Number.NaN,
      max: Number.NaN,
      written,
      peer: median.peer,
    });
    // Warm-up: connections, the JIT, the routing cache.
    await measure('warm-up', 50, async (each) => {
      for (let i = 0; i < 50; i++) each((await create(runtime.deps, i)).id);
    });
    rows.pop();
    await measure(`paced, 1 per ${PACED_GAP_MS} ms`, PACED, async (each) => {
      for (let i = 0; i < PACED; i++) {
        each((await create(runtime.deps, i)).id);
        await new Promise((r) => setTimeout(r, PACED_GAP_MS));
      }
    });
    await measure('burst, 8 writers', BURST, async (each) => {
      let next = 0;
      // Each writer's next change starts in a later turn of the event loop, as a change made by a
      // request does; a lane chaining promises would keep the loop from the worker's I/O until the
      // whole burst was written, a queue no server sees.
      const lane = async () => {
        while (next < BURST) {
          each((await create(runtime.deps, next++)).id);
          await new Promise((r) => setImmediate(r));
        }
      };
      await Promise.all(Array.from({ length: 8 }, lane));
    });
  } finally {
    await worker?.stop();
    await runtime.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

async function main() {
  console.log(
    `node ${process.version}, ${(await import('node:os')).cpus().length} CPUs, load average (1 5 15 min) ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  routingBench();

  const tls = testTls();
  const receiver = await Receiver.start(tls);
  const rows: DeliveryRow[] = [];
  try {
    rows.push(...(await deliveryBench('sqlite', receiver, tls.cert)));
    rows.push(...(await deliveryBench('postgres', receiver, tls.cert)));
  } finally {
    await receiver.close();
  }
  console.log(
    `\nDelivery to a local HTTPS receiver (answers 204 at once), worker in the writing process; PostgreSQL at ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}`,
  );
  console.log('latency: from the change committing to the receiver reading the request');
  console.log(
    `vs plain HTTPS: against a plain keep-alive Node HTTPS client posting the same requests, ${CONCURRENCY} in flight, right after the drain\n`,
  );
  console.log(
    table(
      [
        'database',
        'run',
        'events',
        'written/s',
        'deliveries/s',
        'vs plain HTTPS',
        'p50 ms',
        'p95 ms',
        'max ms',
      ],
      rows.map((r) => [
        r.database,
        r.run,
        fmt(r.events),
        fmt(r.written),
        fmt(r.perSecond),
        Number.isNaN(r.peer) ? '-' : `${fmt(r.perSecond / r.peer, 2)}× of ${fmt(r.peer)}`,
        Number.isNaN(r.p50) ? '-' : fmt(r.p50, 1),
        Number.isNaN(r.p95) ? '-' : fmt(r.p95, 1),
        Number.isNaN(r.max) ? '-' : fmt(r.max, 1),
      ]),
    ),
  );
}

await main();
