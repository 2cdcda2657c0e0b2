// Webhook delivery: deliveries per second to a local HTTPS receiver and the time from a change to
// its delivery, on SQLite and PostgreSQL; and the cost of routing one event against 10,000 patterns,
// next to a per-pattern RegExp scan measured in the same run.
// Run from the repo root: node --conditions=tessera-source --import tsx bench/webhooks/run.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../packages/server/src/config/config.js';
import { DeliveryWorker } from '../../packages/server/src/delivery/worker.js';
import type { Deps } from '../../packages/server/src/domain/context.js';
import { createTenant } from '../../packages/server/src/domain/directory/tenants.js';
import { compilePatterns } from '../../packages/server/src/domain/webhooks/pattern-matcher.js';
import { openRuntime } from '../../packages/server/src/runtime.js';
import { POSTGRES_URL } from '../../packages/server/test/support/environment.js';
import { createPostgresSchema } from '../../packages/server/test/support/postgres.js';
import { TEST_SECRET } from '../../packages/server/test/support/runtime.js';
import { orgWithUser, subscribe } from '../../packages/server/test/webhooks/support/events.js';
import { tenThousandPatterns, VERBS } from '../../packages/server/test/webhooks/support/patterns.js';
import { Receiver } from '../../packages/server/test/webhooks/support/receiver.js';
import { testTls } from '../../packages/server/test/webhooks/support/tls.js';
import { fmt, quantile, table } from '../support/report.js';

const BURST = Number(process.env.BENCH_EVENTS) > 0 ? Number(process.env.BENCH_EVENTS) : 3000;
const PACED = 300;
const PACED_GAP_MS = 10;

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
}

async function deliveryBench(database: 'sqlite' | 'postgres', receiver: Receiver, ca: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-webhooks-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : null;
  const config = loadConfig({
    TESSERA_URL: 'http://localhost:4000',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_SECRET: TEST_SECRET,
    TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
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
      await receiver.until(() => receiver.received.length >= n, 120_000, `${n} deliveries`);
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
      });
    };
    const create = (deps: Deps, i: number) => createTenant(deps, org, userId, `Tenant ${i}`);
    // Throughput alone: a backlog written with no worker running, then drained by one.
    for (let i = 0; i < BURST; i++) await create(runtime.deps, i);
    receiver.received.length = 0;
    const drainStart = performance.now();
    worker = new DeliveryWorker(runtime.deps, { ca }).start();
    await receiver.until(() => receiver.received.length >= BURST, 120_000, 'the backlog');
    const drained = Math.max(...receiver.received.map((r) => r.at - performance.timeOrigin));
    rows.push({
      database,
      run: 'backlog drain',
      events: BURST,
      perSecond: (BURST / (drained - drainStart)) * 1000,
      p50: Number.NaN,
      p95: Number.NaN,
      max: Number.NaN,
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
      const lane = async () => {
        while (next < BURST) each((await create(runtime.deps, next++)).id);
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
  console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} CPUs`);
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
  console.log('latency: from the change committing to the receiver reading the request\n');
  console.log(
    table(
      ['database', 'run', 'events', 'deliveries/s', 'p50 ms', 'p95 ms', 'max ms'],
      rows.map((r) => [
        r.database,
        r.run,
        fmt(r.events),
        fmt(r.perSecond),
        Number.isNaN(r.p50) ? '-' : fmt(r.p50, 1),
        Number.isNaN(r.p95) ? '-' : fmt(r.p95, 1),
        Number.isNaN(r.max) ? '-' : fmt(r.max, 1),
      ]),
    ),
  );
}

await main();
