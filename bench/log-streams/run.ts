// Audit-log streams: entries per second a stream sends to a Splunk-HEC-shaped intake, next to a plain
// Node HTTPS client posting the very same batches to the same intake, in the same run, on SQLite and
// PostgreSQL.
// Run from the repo root: npm run bench -- log-streams   (BENCH_ENTRIES=20000 for more)
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../packages/server/src/config/config.js';
import { newEventId } from '../../packages/server/src/crypto/random.js';
import { LogStreamWorker } from '../../packages/server/src/delivery/log-stream-worker.js';
import {
  createLogStream,
  deleteLogStream,
  MAX_BATCH_ENTRIES,
  type StreamRequest,
  serializeEntry,
  streamRequest,
} from '../../packages/server/src/domain/log-streams/index.js';
import { SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';
import { opened } from '../../packages/server/src/storage/opened.js';
import { insertAuditEvent, readEntriesAfter } from '../../packages/server/src/storage/repos/audit-events.js';
import { createPostgresSchema } from '../../packages/server/test/support/postgres.js';
import { TEST_SECRET } from '../../packages/server/test/support/runtime.js';
import { orgWithUser } from '../../packages/server/test/webhooks/support/events.js';
import { testTls } from '../../packages/server/test/webhooks/support/tls.js';
import { type Child, runBench, spawnTs, untilReady } from '../support/children.js';
import { cpuMs } from '../support/process-stats.js';
import { fmt, table } from '../support/report.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES) > 0 ? Number(process.env.BENCH_ENTRIES) : 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS) > 0 ? Number(process.env.BENCH_ROUNDS) : 5;
/** `sqlite`, `postgres` or both (the default), comma-separated. */
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const tls = testTls();

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** The intake, in a process of its own (intake-child.ts). */
interface Intake {
  url: string;
  /** The intake process's CPU time so far, ms (null off Linux). */
  cpuMs(): number | null;
  accept(token: string): Promise<void>;
  /** Resolves once `token` brought at least `n` entries. */
  until(token: string, n: number): Promise<void>;
}

async function startIntake(): Promise<Intake> {
  const child: Child = spawnTs(new URL('./intake-child.ts', import.meta.url).pathname, [], {
    ...process.env,
    INTAKE_TLS_KEY: tls.certPath.replace(/cert\.pem$/, 'key.pem'),
    INTAKE_TLS_CERT: tls.certPath,
  });
  const ipc = child.process;
  const next = <T>(kind: string) =>
    new Promise<T>((resolve, reject) => {
      const on = (m: { kind: string; message?: string } & T) => {
        if (m.kind === 'failed') reject(new Error(m.message));
        if (m.kind !== kind) return;
        ipc.off('message', on);
        resolve(m);
      };
      ipc.on('message', on);
    });
  const { port } = await untilReady(child, 'the intake', next<{ port: number }>('port'));
  return {
    url: `https://localhost:${port}`,
    cpuMs: () => cpuMs(ipc.pid ?? 0)?.all ?? null,
    accept: async (token) => {
      const done = next('token');
      ipc.send({ kind: 'token', token });
      await done;
    },
    until: async (token, n) => {
      const done = next('reached');
      ipc.send({ kind: 'until', token, n });
      await done;
    },
  };
}

/**
 * The plain peer: the same requests, one after another (a stream has one batch on the wire at a time),
 * over one keep-alive connection it opens inside the timing, as a stream's worker does.
 */
async function plainPost(requests: { url: string; headers: Record<string, string>; body: Buffer }[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: tls.cert });
  const post = (r: (typeof requests)[number]) =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        r.url,
        {
          method: 'POST',
          agent,
          headers: {
            ...r.headers,
            'content-type': 'application/json',
            'content-length': String(r.body.length),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(r.body);
    });
  try {
    for (const r of requests) await post(r);
  } finally {
    agent.destroy();
  }
}

interface Measured {
  ms: number;
  /** This process's CPU time. */
  cpuMs: number;
  /** The intake's CPU time (NaN when it cannot be read). */
  intakeCpuMs: number;
}

/** What `work` took: wall time, this process's CPU time and the intake's, ms. */
async function measured(intake: Intake, work: () => Promise<void>): Promise<Measured> {
  const cpu = process.cpuUsage();
  const intakeBefore = intake.cpuMs();
  const began = performance.now();
  await work();
  const ms = performance.now() - began;
  const used = process.cpuUsage(cpu);
  const intakeAfter = intake.cpuMs();
  return {
    ms,
    cpuMs: (used.user + used.system) / 1000,
    intakeCpuMs: intakeBefore === null || intakeAfter === null ? Number.NaN : intakeAfter - intakeBefore,
  };
}

async function run(database: 'sqlite' | 'postgres', intake: Intake) {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-streams-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : null;
  const config = loadConfig({
    TESSERA_URL: 'http://localhost:4000',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_SECRET: TEST_SECRET,
    TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
    ...(schema ? { DATABASE_URL: schema.url } : {}),
    // An A/B of named prepared statements: TESSERA_DB_PREPARED_STATEMENTS=off in the bench's environment.
    ...(schema && process.env.TESSERA_DB_PREPARED_STATEMENTS
      ? { TESSERA_DB_PREPARED_STATEMENTS: process.env.TESSERA_DB_PREPARED_STATEMENTS }
      : {}),
  });
  const runtime = await openRuntime(config, () => {});
  try {
    const deps = runtime.deps;
    const { org } = await orgWithUser(deps, 'bench');
    const start = Date.now();
    // The backlog: ENTRIES entries written before the streams exist (each stream backfills them).
    for (let done = 0; done < ENTRIES; done += 500) {
      await deps.unitOfWork.run(async (tx) => {
        for (let i = done; i < Math.min(ENTRIES, done + 500); i++) {
          const at = start + i;
          await insertAuditEvent(tx, {
            id: newEventId(at),
            orgId: org.id,
            key: 'tenant.created',
            entity: 'tenant',
            verb: 'created',
            at,
            actor: SYSTEM,
            data: { id: `tnt_${i}`, name: `Tenant ${i}`, createdAt: new Date(at).toISOString() },
            previous: null,
            changes: null,
          });
        }
      });
    }
    // The statistics autovacuum (or `PRAGMA optimize`) gathers within a minute of a bulk write, as every
    // deployment's audit table has them: on a never-analyzed table PostgreSQL's planner guessed a handful
    // of rows and read each batch by a bitmap scan and a sort of every entry after the cursor (the whole
    // backlog, for each batch of 500) instead of walking audit_events_org_tx_order for 500 rows.
    await sql
      .raw(database === 'postgres' ? 'vacuum analyze audit_events' : 'analyze')
      .execute(opened(deps.store));
    const rows: string[][] = [];
    const ratios: number[] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const token = `bench-${database}-${round}`;
      await intake.accept(token);
      const { stream } = await createLogStream(
        deps,
        org,
        {
          name: 'bench',
          type: 'splunk_hec',
          url: intake.url,
          secret: token,
          settings: {},
          backfillFrom: start,
        },
        SYSTEM,
      );
      // The peer: the very batches the stream sends (500 entries, the same bodies and headers), ready-made.
      const entries = await readEntriesAfter(deps.store, {
        orgId: org.id,
        cursor: null,
        from: start,
        limit: ENTRIES,
      });
      const requests: StreamRequest[] = [];
      for (let i = 0; i < entries.length; i += MAX_BATCH_ENTRIES) {
        const batch = entries.slice(i, i + MAX_BATCH_ENTRIES).map(serializeEntry);
        requests.push(streamRequest(stream, token, batch, Math.floor(Date.now() / 1000)));
      }
      const plainRun = async (peerToken: string) => {
        await intake.accept(peerToken);
        // Ready-made to the last byte: the bodies are UTF-8 already, as the worker makes them before sending.
        const mine = requests.map((r) => ({
          url: r.url,
          headers: { ...r.headers, authorization: `Splunk ${peerToken}` },
          body: Buffer.from(r.body),
        }));
        return measured(intake, async () => {
          const reached = intake.until(peerToken, entries.length);
          await plainPost(mine);
          await reached;
        });
      };
      // The peer runs just before and just after the stream: the machine's load moves between them.
      const before = await plainRun(`${token}-peer-before`);
      // The stream: a worker as `tessera serve` runs one, from its start to the intake holding the backlog.
      // Polling as `tessera serve` polls (its first look is at its start): a look every 20 ms, as this bench had,
      // spent CPU on claims beside the one stream it sends.
      // Without the LISTEN connection (PostgreSQL): a serving node opens it once, at its start, not for
      // each backlog, and here it was opened inside the timing of every round.
      const worker = new LogStreamWorker(
        { ...deps, config: { ...deps.config, databaseListenUrl: null } },
        { ca: tls.cert },
      );
      const streamed = await measured(intake, async () => {
        const reached = intake.until(token, ENTRIES);
        worker.start();
        await reached;
      });
      await worker.stop();
      // Only this round's stream: the next round's worker must not also send to this one.
      await deleteLogStream(deps, org, stream.id, SYSTEM);
      const after = await plainRun(`${token}-peer-after`);
      if (round > 0) {
        const rate = (t: { ms: number }, n: number) => (n / t.ms) * 1000;
        const cpu = (t: { cpuMs: number }, n: number) => (t.cpuMs / n) * 1000;
        const intakeCpu = (t: Measured, n: number) => (t.intakeCpuMs / n) * 1000;
        const plainRate = (rate(before, entries.length) + rate(after, entries.length)) / 2;
        const ratio = rate(streamed, ENTRIES) / plainRate;
        ratios.push(ratio);
        rows.push([
          `${database} round ${round}`,
          fmt(rate(streamed, ENTRIES)),
          fmt(plainRate),
          fmt(ratio, 2),
          fmt(cpu(streamed, ENTRIES), 1),
          fmt((cpu(before, entries.length) + cpu(after, entries.length)) / 2, 1),
          fmt(intakeCpu(streamed, ENTRIES), 1),
          fmt((intakeCpu(before, entries.length) + intakeCpu(after, entries.length)) / 2, 1),
          load(),
        ]);
      }
    }
    ratios.sort((a, b) => a - b);
    console.log(
      `${database}: median ratio ${fmt(ratios[Math.floor(ratios.length / 2)] as number, 2)} ` +
        `(${fmt(ratios[0] as number, 2)}–${fmt(ratios.at(-1) as number, 2)}) over ${ratios.length} rounds, ` +
        `load average ${load()}`,
    );
    console.log(
      table(
        [
          'run',
          'stream entries/s',
          'plain entries/s (before, after: mean)',
          'ratio',
          'stream CPU ms/1k',
          'plain CPU ms/1k',
          'intake CPU ms/1k (stream)',
          'intake CPU ms/1k (plain)',
          'load average',
        ],
        rows,
      ),
    );
  } finally {
    await runtime.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await runBench(async () => {
  console.log(
    `${fmt(ENTRIES)} audit entries backfilled by a new Splunk HEC stream per round (first round not shown); ` +
      `the intake in its own process; load average ${load()}\n`,
  );
  const intake = await startIntake();
  for (const database of ['sqlite', 'postgres'] as const) {
    if (!DATABASES.includes(database)) continue;
    await run(database, intake);
    console.log('');
  }
});
