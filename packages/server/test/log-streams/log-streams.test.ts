import assert from 'node:assert/strict';
import { after, before, describe, test as plainTest } from 'node:test';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import pg from 'pg';
import { newEventId } from '../../src/crypto/random.js';
import { LogStreamWorker } from '../../src/delivery/log-stream-worker.js';
import { toAuditEntry } from '../../src/domain/audit/events.js';
import { ServiceError } from '../../src/domain/errors.js';
import {
  createLogStream,
  getLogStream,
  type LogStreamView,
  type NewLogStream,
  serializeEntry,
  updateLogStream,
} from '../../src/domain/log-streams/index.js';
import { type AuditRecord, type Org, SYSTEM } from '../../src/domain/types.js';
import { insertAuditEvent, readEntriesAfter } from '../../src/storage/repos/audit-events.js';
import { call, ownerMemberStranger } from '../management/support/console.js';
import { checkPaging } from '../management/support/paging.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';
import { createTenants, orgWithUser } from '../webhooks/support/events.js';
import { eventually } from '../webhooks/support/eventually.js';
import { testTls } from '../webhooks/support/tls.js';
import { SiemReceivers } from './support/siem-receivers.js';

const SPLUNK_TOKEN = '8d0f6c8e-2b8c-4c47-9a2e-5b7f0c1d3e4a';
const DATADOG_KEY = 'a3f1c2e4b5d6978812345678abcdef01';
const ENTRIES = 200;
/**
 * How long a wait for deliveries may take. On PostgreSQL a stream reads below the oldest write
 * transaction still open on the server, so other suites' long transactions (a new schema's migrations
 * run in one) delay it, never reorder it.
 */
const PATIENCE_MS = 60_000;

const STORAGE_TESTS = [
  'Splunk- and Datadog-shaped intakes get every entry, in order, none missing, across a SIGKILL of the streaming worker and two workers sharing them after',
  'backfill_from streams the entries already written from that time on, in order (Datadog, gzip)',
  'a refusing intake shows in status and last_error; a new token resumes from the cursor',
];
/** SQLite has no NOTIFY: its stream workers poll. */
const POSTGRES_ONLY = [
  'on PostgreSQL a new entry wakes the worker by NOTIFY (migration 051), with no poll at all',
];

for (const database of storageSuite(
  'the stream cursor (the order entries are read in per dialect: transaction ids below the oldest open one on PostgreSQL, a per-org counter under the write lock on SQLite), leases claimed across processes, a SIGKILL mid-batch',
)) {
  describe(`audit-log streams on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const test = storageTestsOn(database, STORAGE_TESTS, POSTGRES_ONLY);
    const tls = testTls();
    const logs: string[] = [];
    let server: TestServer;
    let siem: SiemReceivers;
    let env: Record<string, string>;
    let acme: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    const workers: TesseraProcess[] = [];
    /** Every secret used in this suite: none may appear in a log line or an answer. */
    const secrets = [SPLUNK_TOKEN, DATADOG_KEY];

    before(async () => {
      if (skip) return;
      siem = await SiemReceivers.start(tls);
      // This process writes and answers the API; streaming is done by `tessera worker` children.
      server = await startServer({
        database,
        logs,
        webhooks: false,
        logStreams: false,
        env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      });
      ({ acme, owner, member, stranger } = await ownerMemberStranger(server));
      env = {
        TESSERA_URL: server.config.baseUrl,
        TESSERA_DATA_DIR: server.dataDir,
        ...(server.config.databaseUrl ? { DATABASE_URL: server.config.databaseUrl } : {}),
        TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
        // A claim outlives a killed worker by 2 s (twice the request timeout), not 30 s.
        TESSERA_WEBHOOK_TIMEOUT: '1s',
        TESSERA_LOG_LEVEL: 'info',
        NODE_EXTRA_CA_CERTS: tls.certPath,
      };
    });
    after(async () => {
      if (skip) return;
      for (const w of workers) await w.stop('SIGKILL');
      await siem.close();
      await server.close();
    });

    /** The `tessera worker` streaming now, started when none runs. */
    async function streamingWorker(): Promise<TesseraProcess> {
      const running = workers.find((w) => w.running);
      if (running) return running;
      const w = await TesseraProcess.worker(env);
      workers.push(w);
      return w;
    }

    /** The org's entry ids a stream must send, in the streams' order. */
    async function expectedIds(orgId: string, from: number): Promise<string[]> {
      const rows = await server.db
        .selectFrom('audit_events')
        .select('id')
        .where('org_id', '=', orgId)
        .where('at', '>=', from)
        .orderBy('tx_order')
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    }

    const streamOf = (org: Org, input: Partial<NewLogStream> & Pick<NewLogStream, 'type' | 'url'>) =>
      createLogStream(
        server.deps,
        org,
        { name: input.type, secret: null, settings: {}, backfillFrom: null, ...input },
        SYSTEM,
      );

    /** What a destination got, in order, repeats dropped; and how often it went back (a resend). */
    function arrived(ids: readonly string[], expected: readonly string[]) {
      const place = new Map(expected.map((id, i) => [id, i]));
      const seen = new Set<string>();
      const firsts: string[] = [];
      let rewinds = 0;
      let last = -1;
      for (const id of ids) {
        const at = place.get(id) ?? -2;
        if (at < last) rewinds++;
        last = at;
        if (!seen.has(id)) {
          seen.add(id);
          firsts.push(id);
        }
      }
      return { firsts, rewinds, repeats: ids.length - firsts.length };
    }

    test('owners create, read, change and delete streams; secrets are never shown again; members, strangers and other orgs are refused', {
      skip,
    }, async (t) => {
      // No worker runs yet: the Datadog stream below names Datadog's real intake, never to be reached.
      // The streams here name hosts that are not this machine's; should this test fail before it
      // deletes them, they go anyway, or the workers started later would look those hosts up.
      const unreachable: string[] = [];
      t.after(async () => {
        for (const id of unreachable)
          await call(server, 'DELETE', `/organizations/acme/log-streams/${id}`, owner);
      });
      const base = '/organizations/acme/log-streams';
      const splunk = await call(server, 'POST', base, owner, {
        type: 'splunk_hec',
        name: 'Splunk',
        url: 'https://splunk.example.com:8088',
        token: SPLUNK_TOKEN,
        index: 'identity',
      });
      assert.equal(splunk.status, 201);
      unreachable.push(splunk.body.id);
      assert.equal(splunk.headers.get('cache-control'), 'no-store');
      assert.match(splunk.body.id, /^lst_[a-z0-9]{20}$/);
      assert.deepEqual(
        { ...splunk.body, id: '', created_at: '', updated_at: '', backfill_from: '', lag: null },
        {
          id: '',
          name: 'Splunk',
          type: 'splunk_hec',
          url: 'https://splunk.example.com:8088',
          settings: { index: 'identity' },
          active: true,
          backfill_from: '',
          status: 'active',
          last_error: null,
          last_error_at: null,
          last_sent_at: null,
          sent_entries: 0,
          lag: null,
          created_at: '',
          updated_at: '',
        },
      );
      // Its own creation is the first entry it will send.
      assert.equal(splunk.body.lag.entries, 1);
      assert.equal(splunk.body.backfill_from, splunk.body.created_at);
      const row = await server.db
        .selectFrom('log_streams')
        .select('secret_sealed')
        .where('id', '=', splunk.body.id)
        .executeTakeFirstOrThrow();
      assert.ok(!row.secret_sealed.includes(SPLUNK_TOKEN));
      assert.equal(server.deps.sealer.open(row.secret_sealed), SPLUNK_TOKEN);

      const https = await call(server, 'POST', base, owner, {
        type: 'https',
        name: 'Hook',
        url: 'https://siem.example.com/in',
      });
      assert.equal(https.status, 201);
      unreachable.push(https.body.id);
      assert.match(https.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      secrets.push(https.body.secret);
      const datadog = await call(server, 'POST', base, owner, {
        type: 'datadog',
        name: 'DD',
        api_key: DATADOG_KEY,
        gzip: true,
        ddtags: 'env:test',
      });
      assert.equal(datadog.status, 201);
      unreachable.push(datadog.body.id);
      assert.equal(datadog.body.url, 'https://http-intake.logs.datadoghq.com');
      assert.deepEqual(datadog.body.settings, { gzip: true, ddtags: 'env:test' });
      assert.equal(datadog.body.secret, undefined);

      // Read: owners only; the list and the item never carry a secret.
      const list = await call(server, 'GET', base, owner);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((s: { id: string }) => s.id),
        [splunk.body.id, https.body.id, datadog.body.id],
      );
      for (const secret of secrets) assert.ok(!list.text.includes(secret));
      assert.equal((await call(server, 'GET', `${base}/${splunk.body.id}`, owner)).status, 200);
      assert.equal((await call(server, 'GET', base, member)).status, 403);
      assert.equal(
        (await call(server, 'POST', base, member, { type: 'https', name: 'x', url: 'https://a.example/' }))
          .status,
        403,
      );
      assert.equal((await call(server, 'GET', base, stranger)).status, 404);
      assert.equal((await call(server, 'GET', base, null)).status, 401);
      // Another org's owner, naming acme's stream under their own org: not found, nothing changed.
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { active: false }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(
          server,
          method,
          `/organizations/beta/log-streams/${splunk.body.id}`,
          stranger,
          body,
        );
        assert.equal(res.status, 404, method);
        assert.equal(res.headers.get('tessera-error-code'), 'log_stream.not_found');
      }
      assert.equal((await call(server, 'GET', `${base}/whk_nope`, owner)).status, 404);

      // Bad input: clear 400s naming the field.
      const bad: [unknown, string][] = [
        [{ type: 'kafka', name: 'k', url: 'https://k.example/' }, 'type'],
        [{ type: 'https', name: 'h', url: 'http://plain.example/' }, 'url'],
        [{ type: 'https', name: 'h', url: 'https://u:p@creds.example/' }, 'url'],
        [{ type: 'splunk_hec', name: 's', url: 'https://s.example/' }, 'token'],
        [{ type: 'splunk_hec', name: 's', url: 'https://s.example/', token: 'a b' }, 'token'],
        [{ type: 'https', name: 'h', url: 'https://h.example/', token: 'x' }, 'token'],
        [
          { type: 'https', name: 'h', url: 'https://h.example/', backfill_from: 'yesterday' },
          'backfill_from',
        ],
        [{ type: 'datadog', name: 'd', api_key: 'k', service: 'a\nb' }, 'service'],
      ];
      for (const [body, field] of bad) {
        const res = await call(server, 'POST', base, owner, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, 'invalid_request');
        assert.ok(res.body.error_detail.includes(field), res.body.error_detail);
      }
      const foreign = await call(server, 'PATCH', `${base}/${datadog.body.id}`, owner, {
        index: 'main',
        token: 't',
      });
      assert.equal(foreign.status, 400);
      assert.equal(foreign.headers.get('tessera-error-code'), 'log_stream.field.other_type');
      assert.equal(foreign.body.error_detail, 'not a setting of a datadog stream: index, token');

      const paused = await call(server, 'PATCH', `${base}/${splunk.body.id}`, owner, {
        active: false,
        token: 'new-token',
      });
      assert.equal(paused.status, 200);
      assert.equal(paused.body.status, 'paused');
      for (const id of [splunk.body.id, https.body.id, datadog.body.id]) {
        assert.equal((await call(server, 'DELETE', `${base}/${id}`, owner)).status, 204);
      }
      assert.equal((await call(server, 'DELETE', `${base}/${splunk.body.id}`, owner)).status, 404);

      // Every change is audited, and no entry holds a secret.
      const events = await server.db
        .selectFrom('audit_events')
        .select(['key', 'data', 'previous'])
        .where('org_id', '=', acme.id)
        .where('entity', '=', 'log_stream')
        .orderBy('tx_order')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        events.map((e) => e.key),
        [
          'log_stream.created',
          'log_stream.created',
          'log_stream.created',
          'log_stream.updated',
          'log_stream.deleted',
          'log_stream.deleted',
          'log_stream.deleted',
        ],
      );
      for (const e of events)
        for (const secret of [...secrets, 'new-token']) assert.ok(!`${e.data}${e.previous}`.includes(secret));

      // Ten streams at most, created at once or not.
      const made = await Promise.all(
        Array.from({ length: 11 }, (_, i) =>
          call(server, 'POST', base, owner, { type: 'https', name: `n${i}`, url: `https://n${i}.example/` }),
        ),
      );
      for (const r of made) if (r.status === 201) unreachable.push(r.body.id);
      assert.deepEqual(made.map((r) => r.status).sort(), [...Array(10).fill(201), 409]);
      const refused = made.find((r) => r.status === 409);
      assert.equal(refused?.headers.get('tessera-error-code'), 'log_stream.too_many');
      assert.equal(refused?.body.error, 'conflict');
      // The ten through the shared pager: oldest first, one per page through Link next as all at once.
      const paged = await checkPaging(server, base, owner, (s) => s.id as string);
      const stored = await server.db
        .selectFrom('log_streams')
        .select('id')
        .where('org_id', '=', acme.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        paged,
        stored.map((r) => r.id),
      );
      assert.equal(paged.length, 10);
      for (const r of made.filter((x) => x.status === 201)) {
        assert.equal((await call(server, 'DELETE', `${base}/${r.body.id}`, owner)).status, 204);
      }
    });

    test(STORAGE_TESTS[0] as string, { skip }, async (t) => {
      siem.splunkTokens.add(SPLUNK_TOKEN);
      siem.datadogKeys.add(DATADOG_KEY);
      const { org, userId } = await orgWithUser(server.deps, 'kill');
      const splunk = await streamOf(org, { type: 'splunk_hec', url: siem.url(), secret: SPLUNK_TOKEN });
      const datadog = await streamOf(org, { type: 'datadog', url: siem.url('/'), secret: DATADOG_KEY });
      const first = await streamingWorker();
      // Each answer takes a moment, so the kill finds a batch on the wire.
      siem.delayMs = 15;

      let killed: Promise<number> | undefined;
      await createTenants(server.deps, org, userId, ENTRIES, {
        parallel: 3,
        onEach: async (done) => {
          if (done < ENTRIES / 3) return;
          killed ??= (async () => {
            await siem.until(
              () => siem.idsVia(SPLUNK_TOKEN).length >= 40,
              PATIENCE_MS,
              '40 entries in Splunk',
            );
            const got = siem.got.length;
            await first.stop('SIGKILL');
            return got;
          })();
          await killed;
        },
      });
      t.diagnostic(`killed after ${await killed} entries arrived`);
      // Two workers come up, another process and one inside this one, and share the streams; the
      // killed one's claims end after their lease.
      const beside = new LogStreamWorker(server.deps, { ca: tls.cert, pollMs: 50 }).start();
      t.after(() => beside.stop());
      await streamingWorker();

      for (const [stream, via] of [
        [splunk.stream, SPLUNK_TOKEN],
        [datadog.stream, DATADOG_KEY],
      ] as const) {
        const expected = await expectedIds(org.id, stream.backfillFrom);
        assert.ok(expected.length >= ENTRIES);
        await siem.until(
          () => new Set(siem.idsVia(via)).size >= expected.length,
          PATIENCE_MS,
          `${expected.length} entries via ${stream.type}`,
        );
        const { firsts, rewinds, repeats } = arrived(siem.idsVia(via), expected);
        // Every entry, in order, nothing else; at most one step back (the batch on the wire at the kill).
        assert.deepEqual(firsts, expected);
        assert.ok(rewinds <= 1, `${stream.type} went back ${rewinds} times`);
        t.diagnostic(`${stream.type}: ${repeats} repeat(s) after the kill`);
        // A repeat is the very same entry under the same id.
        const bodies = new Map<string, string>();
        for (const g of siem.got.filter((x) => x.via === via)) {
          const before = bodies.get(g.id);
          if (before === undefined) bodies.set(g.id, g.entry);
          else assert.equal(g.entry, before);
        }
      }
      // What each intake got is shaped as its API says (the intakes refuse anything else).
      assert.deepEqual(siem.refused, []);
      const event = siem.got.find((g) => g.via === SPLUNK_TOKEN)?.record as Record<string, unknown>;
      assert.deepEqual(Object.keys(event), ['time', 'source', 'sourcetype', 'event']);
      assert.equal(event.source, 'tessera');
      assert.equal(event.sourcetype, 'tessera:audit');
      const log = siem.got.find((g) => g.via === DATADOG_KEY)?.record as Record<string, unknown>;
      assert.deepEqual(Object.keys(log), ['ddsource', 'service', 'message', 'date', 'evt', 'audit']);
      const audit = log.audit as { id: string; key: string; at: string };
      assert.deepEqual(log.evt, { id: audit.id, name: audit.key });
      assert.equal(log.date, audit.at);

      await eventually(
        async () => (await getLogStream(server.deps, org, splunk.stream.id)).lag.entries === 0,
        PATIENCE_MS,
        'the Splunk stream to have no lag',
      );
      const health = await getLogStream(server.deps, org, splunk.stream.id);
      assert.equal(health.status, 'active');
      assert.equal(health.sentEntries, (await expectedIds(org.id, splunk.stream.backfillFrom)).length);
      assert.equal(health.lag.oldestUnsentAt, null);
    });

    if (database === 'postgres') {
      plainTest(
        'an entry whose transaction commits late is sent, before the later ones, none skipped',
        {
          skip,
        },
        async () => {
          siem.delayMs = 0;
          await streamingWorker();
          const token = 'late-commit-token';
          siem.splunkTokens.add(token);
          const { org, userId } = await orgWithUser(server.deps, 'late');
          const { stream } = await streamOf(org, { type: 'splunk_hec', url: siem.url(), secret: token });
          await siem.until(() => siem.idsVia(token).length >= 1, PATIENCE_MS, 'the stream’s creation entry');

          // A writer opens its transaction and writes its entry; three more commit while it stays open.
          const client = new pg.Client({ connectionString: server.config.databaseUrl as string });
          await client.connect();
          try {
            await client.query('begin');
            const lateId = newEventId(Date.now());
            await client.query(
              `insert into audit_events (id, org_id, key, entity, verb, at, actor_kind, actor_id, data)
             values ($1, $2, 'tenant.created', 'tenant', 'created', $3, 'system', null, '{"late":true}')`,
              [lateId, org.id, Date.now()],
            );
            await createTenants(server.deps, org, userId, 3);
            const committed = (await expectedIds(org.id, stream.backfillFrom)).slice(-3);
            assert.ok(
              committed.every((id) => id > lateId),
              'the later entries sort after the late one by id',
            );
            // The stream's read stops below the open transaction: nothing of the three can be sent yet,
            // or the late entry, sorting before them, would be passed over.
            const cursorNow = (await getLogStream(server.deps, org, stream.id)).cursor;
            const readable = await readEntriesAfter(server.db, {
              orgId: org.id,
              cursor: cursorNow,
              from: stream.backfillFrom,
              limit: 100,
            });
            assert.deepEqual(
              readable.filter((e) => committed.includes(e.id)),
              [],
            );
            assert.ok(!siem.idsVia(token).some((id) => committed.includes(id)));
            await client.query('commit');

            const expected = await expectedIds(org.id, stream.backfillFrom);
            await siem.until(
              () => new Set(siem.idsVia(token)).size >= expected.length,
              PATIENCE_MS,
              'the late entry and the three after it',
            );
            const { firsts } = arrived(siem.idsVia(token), expected);
            assert.deepEqual(firsts, expected);
            assert.ok(firsts.indexOf(lateId) < firsts.indexOf(committed[0] as string));
          } finally {
            await client.end();
          }
        },
      );
    }

    test(STORAGE_TESTS[1] as string, { skip }, async () => {
      await streamingWorker();
      const key = 'backfill-datadog-key';
      siem.datadogKeys.add(key);
      const { org, userId } = await orgWithUser(server.deps, 'backfill');
      await createTenants(server.deps, org, userId, 30);
      const older = await expectedIds(org.id, 0);
      const fromRow = await server.db
        .selectFrom('audit_events')
        .select('at')
        .where('id', '=', older[10] as string)
        .executeTakeFirstOrThrow();
      const from = Number(fromRow.at);
      const { stream } = await streamOf(org, {
        type: 'datadog',
        url: siem.url(),
        secret: key,
        backfillFrom: from,
        settings: { gzip: true, service: 'idp' },
      });
      const expected = await expectedIds(org.id, from);
      assert.ok(expected.length >= 21);
      await siem.until(() => new Set(siem.idsVia(key)).size >= expected.length, PATIENCE_MS, 'the backfill');
      const { firsts } = arrived(siem.idsVia(key), expected);
      assert.deepEqual(firsts, expected);
      assert.ok(!siem.idsVia(key).includes(older[0] as string));
      assert.equal(siem.got.find((g) => g.via === key)?.record.service, 'idp');
      assert.equal(stream.backfillFrom, from);
    });

    test(STORAGE_TESTS[2] as string, { skip }, async () => {
      await streamingWorker();
      const created = await call(server, 'POST', '/organizations/acme/log-streams', owner, {
        type: 'splunk_hec',
        name: 'Wrong token',
        url: siem.url(),
        token: 'not-a-token-splunk-knows',
      });
      assert.equal(created.status, 201);
      const path = `/organizations/acme/log-streams/${created.body.id}`;
      let res = await call(server, 'GET', path, owner);
      await eventually(
        async () => {
          res = await call(server, 'GET', path, owner);
          return res.body.status === 'failing';
        },
        PATIENCE_MS,
        'the stream to fail',
      );
      assert.equal(res.body.last_error, 'HTTP 403');
      assert.match(res.body.last_error_at, /^\d{4}-\d{2}-\d{2}T/);
      assert.equal(res.body.sent_entries, 0);
      assert.ok(res.body.lag.entries >= 1);
      assert.equal(res.body.lag.oldest_unsent_at, res.body.created_at);
      assert.ok(siem.refused.some((r) => r.includes('403 {"text":"Invalid token","code":4}')));
      siem.refused.length = 0;

      // The right token: retried at once, from where it stopped (its own creation entry first).
      const fixed = 'fixed-splunk-token';
      siem.splunkTokens.add(fixed);
      const patched = await call(server, 'PATCH', path, owner, { token: fixed });
      assert.equal(patched.status, 200);
      assert.ok(!patched.text.includes(fixed));
      const expected = await expectedIds(acme.id, Date.parse(created.body.backfill_from));
      await siem.until(
        () => new Set(siem.idsVia(fixed)).size >= expected.length,
        PATIENCE_MS,
        'the resumed stream',
      );
      assert.deepEqual(arrived(siem.idsVia(fixed), expected).firsts, expected);
      await eventually(
        async () => (await call(server, 'GET', path, owner)).body.status === 'active',
        PATIENCE_MS,
        'the stream to be active again',
      );
      assert.equal((await call(server, 'DELETE', path, owner)).status, 204);
    });

    test('a batch read gives each entry as the events list shows it, entity and verb as stored whether or not the key says them', {
      skip,
    }, async () => {
      const { org } = await orgWithUser(server.deps, 'shapes');
      // Later than the org's own entries (written just now), which the batch must not hold.
      const at = Date.now() + 60_000;
      // [key, entity, verb]: as written (the key says them, with a dotted entity too), and rows whose key
      // does not say them (a dotted verb, another entity, no dot at all).
      const shapes = [
        ['tenant.updated', 'tenant', 'updated'],
        ['org.domain.verified', 'org.domain', 'verified'],
        ['a.b.c', 'a', 'b.c'],
        ['tenant.created', 'client', 'created'],
        ['tenant.created', 'tenant', 'deleted'],
        ['legacy', 'tenant', 'updated'],
        ['tenant.', 'tenant', ''],
      ] as const;
      const records: AuditRecord[] = shapes.map(([key, entity, verb], i) => ({
        id: newEventId(at + i),
        orgId: org.id,
        key,
        entity,
        verb,
        at: at + i,
        actor: i % 2 === 0 ? SYSTEM : { kind: 'user', id: `usr_"${i}"` },
        data: { i, text: 'Zoë "quoted" \\ \u0001' },
        previous: { name: 'before' },
        changes: { name: 'after' },
      }));
      for (const record of records) await insertAuditEvent(server.db, record);
      const batch = () => readEntriesAfter(server.db, { orgId: org.id, cursor: null, from: at, limit: 100 });
      // On PostgreSQL a batch stops below the oldest write transaction open on the server (other suites').
      await eventually(async () => (await batch()).length >= shapes.length, PATIENCE_MS, 'the entries');
      const read = await batch();
      assert.deepEqual(
        read.map((e) => [e.key, e.entity, e.verb]),
        shapes.map((s) => [...s]),
      );
      assert.deepEqual(
        read.map((e) => serializeEntry(e).json),
        records.map((r) => JSON.stringify(toAuditEntry(r))),
      );
    });

    test('an intake that answers every batch twice (a second 200 on the connection) still gets every entry, in order', {
      skip,
    }, async (t) => {
      // A raw HTTPS intake: it keeps each request's body, then writes two 200 answers. The second
      // reaches the worker as an answer no request asked for: on the same connection, it must not
      // be taken for the next batch's, nor lose or reorder a batch.
      const bodies: string[] = [];
      const intake = createTlsServer({ key: tls.key, cert: tls.cert }, (socket: TLSSocket) => {
        let buffered = Buffer.alloc(0);
        socket.on('error', () => {});
        socket.on('data', (chunk: Buffer) => {
          buffered = Buffer.concat([buffered, chunk]);
          for (;;) {
            const end = buffered.indexOf('\r\n\r\n');
            if (end < 0) return;
            const head = buffered.subarray(0, end).toString('latin1');
            const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
            if (buffered.length < end + 4 + length) return;
            bodies.push(buffered.subarray(end + 4, end + 4 + length).toString('utf8'));
            buffered = buffered.subarray(end + 4 + length);
            const ok =
              'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 27\r\n\r\n{"text":"Success","code":0}';
            socket.write(ok + ok);
          }
        });
      });
      await new Promise<void>((resolve) => intake.listen(0, '127.0.0.1', resolve));
      t.after(() => intake.close());
      const port = (intake.address() as { port: number }).port;
      const { org, userId } = await orgWithUser(server.deps, 'twice');
      const { stream } = await streamOf(org, {
        type: 'splunk_hec',
        url: `https://localhost:${port}`,
        secret: 'twice-token',
      });
      await createTenants(server.deps, org, userId, 30);
      // Small batches, so that many follow one another on the one connection.
      const worker = new LogStreamWorker(server.deps, { ca: tls.cert, pollMs: 50, batchEntries: 4 }).start();
      t.after(() => worker.stop());
      const expected = await expectedIds(org.id, stream.backfillFrom);
      const got = () =>
        bodies.flatMap((b) =>
          b.split('\n').map((line) => (JSON.parse(line) as { event: { id: string } }).event.id),
        );
      await eventually(async () => new Set(got()).size >= expected.length, PATIENCE_MS, 'every entry');
      const { firsts, rewinds } = arrived(got(), expected);
      assert.deepEqual(firsts, expected);
      assert.equal(rewinds, 0);
      await eventually(
        async () => (await getLogStream(server.deps, org, stream.id)).lag.entries === 0,
        PATIENCE_MS,
        'the stream to have no lag',
      );
      await worker.stop();
      await updateLogStream(server.deps, org, stream.id, { active: false }, SYSTEM);
    });

    test('a hanging intake times out, a huge answer is cut off, private addresses are refused, and no secret reaches a log', {
      skip,
    }, async () => {
      const worker = await streamingWorker();
      const { org } = await orgWithUser(server.deps, 'hostile');
      const hang = (await streamOf(org, { type: 'https', url: siem.url('/hang') })).stream;
      const huge = (await streamOf(org, { type: 'https', url: siem.url('/huge') })).stream;
      let view: LogStreamView | undefined;
      await eventually(
        async () => {
          view = await getLogStream(server.deps, org, hang.id);
          return view.status === 'failing';
        },
        PATIENCE_MS,
        'the hanging intake to time out',
      );
      assert.equal(view?.lastError, 'timed out after 1 s');
      await eventually(
        async () => (await getLogStream(server.deps, org, huge.id)).sentEntries >= 1,
        PATIENCE_MS,
        'the huge answer to count as accepted',
      );
      assert.ok(worker.running);
      await updateLogStream(server.deps, org, hang.id, { active: false }, SYSTEM);
      await updateLogStream(server.deps, org, huge.id, { active: false }, SYSTEM);

      // The worker stops on SIGTERM, letting its streams go; then no secret was ever in its log.
      assert.equal(await worker.stop('SIGTERM'), 0);
      const written = worker.stdout + worker.stderr + logs.join('');
      for (const secret of [...secrets, 'fixed-splunk-token', 'late-commit-token', 'backfill-datadog-key']) {
        assert.ok(!written.includes(secret), 'a secret was logged');
      }

      // With private addresses off, a URL on this machine is refused up front, and a name that
      // resolves to one is refused when the request connects.
      const strict = { ...server.deps, config: { ...server.deps.config, outboundAllowPrivate: false } };
      for (const url of [
        'https://localhost:1/',
        'https://127.0.0.1/x',
        'https://[::1]/',
        'https://0.0.0.0/',
      ]) {
        await assert.rejects(
          createLogStream(
            strict,
            org,
            { name: 'x', type: 'https', url, secret: null, settings: {}, backfillFrom: null },
            SYSTEM,
          ),
          (e: unknown) => e instanceof ServiceError && e.situation === 'log_stream.url.loopback',
        );
      }
      const ssrf = (
        await streamOf(org, { type: 'https', url: `https://rebind.example:${siem.port}/hook/ssrf` })
      ).stream;
      const strictWorker = new LogStreamWorker(strict, {
        pollMs: 50,
        resolver: async () => [{ address: '127.0.0.1', family: 4 }],
      }).start();
      try {
        await eventually(
          async () => {
            view = await getLogStream(server.deps, org, ssrf.id);
            return view.status === 'failing';
          },
          PATIENCE_MS,
          'the private address to be refused',
        );
      } finally {
        await strictWorker.stop();
      }
      assert.match(
        view?.lastError ?? '',
        /^refused to connect to rebind\.example: an address it resolves to is loopback$/,
      );
      assert.deepEqual(siem.idsVia('/hook/ssrf'), []);
    });

    test(POSTGRES_ONLY[0] as string, { skip }, async () => {
      const { org, userId } = await orgWithUser(server.deps, 'notified');
      const token = 'c0ffee00-0000-4000-8000-00000000051a';
      siem.splunkTokens.add(token);
      const { stream } = await streamOf(org, { type: 'splunk_hec', url: siem.url(), secret: token });
      // A clock whose waits never end: this worker looks for streams only when something wakes it.
      const frozen = { now: () => Date.now(), after: () => () => {} };
      const notified = new LogStreamWorker(server.deps, { ca: tls.cert, clock: frozen }).start();
      try {
        // Woken as its listener connects: it sends what is there (the stream's own entry).
        let expected = await expectedIds(org.id, stream.backfillFrom);
        await siem.until(() => siem.countVia(token) >= expected.length, PATIENCE_MS, 'the first entry');
        // Then only a NOTIFY can wake it: the trigger sends one for each entry of an org with a stream.
        await createTenants(server.deps, org, userId, 3);
        expected = await expectedIds(org.id, stream.backfillFrom);
        await siem.until(() => siem.countVia(token) >= expected.length, PATIENCE_MS, 'the three entries');
        assert.deepEqual(siem.idsVia(token), expected);
      } finally {
        await notified.stop();
      }
    });
  });
}
