// Audit-log streams: entries per second a stream sends to a local Splunk-HEC-shaped intake, next to
// a plain Node HTTPS client posting the very same batches to the same intake, in the same run, on
// SQLite and PostgreSQL.
// Run from the repo root: npm run bench -- log-streams   (BENCH_ENTRIES=20000 for more)
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../packages/server/src/config/config.js';
import { newEventId } from '../../packages/server/src/crypto/random.js';
import { LogStreamWorker } from '../../packages/server/src/delivery/log-stream-worker.js';
import {
  createLogStream,
  MAX_BATCH_ENTRIES,
  serializeEntry,
  streamRequest,
  toStreamEntry,
} from '../../packages/server/src/domain/log-streams/index.js';
import { SYSTEM } from '../../packages/server/src/domain/types.js';
import { openRuntime } from '../../packages/server/src/runtime.js';
import { insertAuditEvent, readEntriesAfter } from '../../packages/server/src/storage/repos/audit-events.js';
import { SiemReceivers } from '../../packages/server/test/log-streams/support/siem-receivers.js';
import { createPostgresSchema } from '../../packages/server/test/support/postgres.js';
import { TEST_SECRET } from '../../packages/server/test/support/runtime.js';
import { orgWithUser } from '../../packages/server/test/webhooks/support/events.js';
import { testTls } from '../../packages/server/test/webhooks/support/tls.js';
import { fmt, table } from '../support/report.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES) > 0 ? Number(process.env.BENCH_ENTRIES) : 10_000;
const ROUNDS = 3;
const tls = testTls();

/** The plain peer: the same requests, one after another (a stream sends one batch at a time), one keep-alive agent. */
async function plainRate(
  requests: { url: string; headers: Record<string, string>; body: string }[],
  count: number,
) {
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
            'content-length': String(Buffer.byteLength(r.body)),
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
    await post(requests[0] as (typeof requests)[number]);
    const started = performance.now();
    for (const r of requests) await post(r);
    return (count / (performance.now() - started)) * 1000;
  } finally {
    agent.destroy();
  }
}

async function run(database: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-streams-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : null;
  const config = loadConfig({
    TESSERA_URL: 'http://localhost:4000',
    TESSERA_DATA_DIR: dataDir,
    TESSERA_SECRET: TEST_SECRET,
    TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
    ...(schema ? { DATABASE_URL: schema.url } : {}),
  });
  const runtime = await openRuntime(config, () => {});
  const siem = await SiemReceivers.start(tls);
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
    const rows: string[][] = [];
    for (let round = 0; round <= ROUNDS; round++) {
      const token = `bench-token-${round}`;
      siem.splunkTokens.add(token);
      siem.got.length = 0;
      const { stream } = await createLogStream(
        deps,
        org,
        {
          name: 'bench',
          type: 'splunk_hec',
          url: siem.url(),
          secret: token,
          settings: {},
          backfillFrom: start,
        },
        SYSTEM,
      );
      const worker = new LogStreamWorker(deps, { ca: tls.cert, pollMs: 20 });
      const began = performance.now();
      worker.start();
      await siem.until(() => siem.idsVia(token).length >= ENTRIES, 300_000, 'the backlog');
      const streamed = (ENTRIES / (performance.now() - began)) * 1000;
      await worker.stop();
      // The peer posts the same batches (as the stream cut them) to the same intake.
      const entries = await readEntriesAfter(deps.store, {
        orgId: org.id,
        cursor: null,
        from: start,
        limit: ENTRIES,
      });
      const requests = [];
      for (let i = 0; i < entries.length; i += MAX_BATCH_ENTRIES) {
        const batch = entries.slice(i, i + MAX_BATCH_ENTRIES).map((e) => serializeEntry(toStreamEntry(e)));
        requests.push(streamRequest(stream, token, batch, Math.floor(Date.now() / 1000)));
      }
      const plain = await plainRate(requests, entries.length);
      if (round > 0)
        rows.push([`${database} round ${round}`, fmt(streamed), fmt(plain), fmt(streamed / plain, 2)]);
    }
    console.log(table(['run', 'stream entries/s', 'plain HTTPS entries/s', 'ratio'], rows));
  } finally {
    await siem.close();
    await runtime.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `${fmt(ENTRIES)} audit entries backfilled by a new Splunk HEC stream, per round (first round not shown)\n`,
);
await run('sqlite');
console.log('');
await run('postgres');
