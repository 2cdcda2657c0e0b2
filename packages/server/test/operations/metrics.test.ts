import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { createTenant } from '../../src/domain/directory/tenants.js';
import type { Org } from '../../src/domain/types.js';
import { WARM_CONNECTIONS } from '../../src/storage/warm-pool.js';
import { makeUser } from '../sign-in/support/fixtures.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import { startServer, type TestServer } from '../support/server.js';
import { subscribe } from '../webhooks/support/events.js';
import { eventually } from '../webhooks/support/eventually.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { testTls } from '../webhooks/support/tls.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * The Prometheus text exposition format (version 0.0.4), strictly: every line is a HELP or TYPE
 * comment naming a metric, or a sample `name{label="value",…} number`. Throws on any other line.
 */
function parsePrometheus(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const label = `([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\\\\n]|\\\\[\\\\n"])*)"`;
  const sampleLine = new RegExp(`^(${name})(\\{(?:${label}(?:,${label})*)?,?\\})? (\\S+)( -?\\d+)?$`);
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const help = new RegExp(`^# HELP (${name}) .*$`).exec(line);
    if (help) continue;
    const type = new RegExp(`^# TYPE (${name}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (type) {
      types.set(type[1] as string, type[2] as string);
      continue;
    }
    const m = sampleLine.exec(line);
    assert.ok(m, `not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(new RegExp(label, 'g'))) labels[k as string] = v as string;
    // Go's ParseFloat, which Prometheus uses, takes NaN and Inf in any case.
    const raw = m.at(-2) as string;
    const value = /^nan$/i.test(raw) ? Number.NaN : Number(raw.replace(/^([+-]?)inf$/i, '$1Infinity'));
    assert.ok(!Number.isNaN(value) || /^nan$/i.test(raw), `not a number in ${line}`);
    samples.push({ name: m[1] as string, labels, value });
  }
  return { types, samples };
}

const sumOf = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

for (const database of storageSuite(
  "pool use and waits come from each dialect's own timed driver; the outbox depth is a query of its own",
)) {
  describe(`/metrics on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'counts a webhook delivery by outcome, and the outbox depth and pool use',
      'shows how long queries waited for a database connection',
    ]);
    const tls = testTls();
    let server: TestServer;
    let receiver: Receiver;
    let org: Org;
    let machine: { clientId: string; clientSecret: string; issuer: string };

    before(async () => {
      if (skip) return;
      receiver = await Receiver.start(tls);
      server = await startServer({
        database,
        env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
        webhooks: { ca: tls.cert, pollMs: 200 },
      });
      const made = await orgWithMachineClient(server.deps, 'metered');
      org = made.org;
      machine = made;
    });
    after(async () => {
      if (skip) return;
      await server.close();
      await receiver.close();
    });

    const scrape = async () => {
      const res = await fetch(`${server.base}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      return parsePrometheus(await res.text());
    };

    test('parses as Prometheus text and names every family DESIGN §11 lists', { skip }, async () => {
      const { types } = await scrape();
      assert.equal(types.get('tessera_http_request_duration_seconds'), 'histogram');
      assert.equal(types.get('tessera_tokens_issued_total'), 'counter');
      assert.equal(types.get('tessera_webhook_deliveries_total'), 'counter');
      assert.equal(types.get('tessera_webhook_outbox_depth'), 'gauge');
      assert.equal(types.get('tessera_db_pool_connections'), 'gauge');
      assert.equal(types.get('tessera_db_pool_wait_seconds'), 'histogram');
      assert.equal(types.get('tessera_process_cpu_seconds_total'), 'counter');
    });

    test('counts a token request under its grant and its route template', { skip }, async () => {
      const before = await scrape();
      const res = await fetch(`${machine.issuer}oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: machine.clientId,
          client_secret: machine.clientSecret,
        }),
      });
      assert.equal(res.status, 200);
      const refused = await fetch(`${machine.issuer}oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: machine.clientId,
          client_secret: 'wrong',
        }),
      });
      assert.equal(refused.status, 401);
      await fetch(`${server.base}/no/such/route/${'x'.repeat(20)}`);
      const now = await scrape();
      const grant = { grant_type: 'client_credentials' };
      assert.equal(
        sumOf(now.samples, 'tessera_tokens_issued_total', grant) -
          sumOf(before.samples, 'tessera_tokens_issued_total', grant),
        1,
        'one token issued, the refused request not counted',
      );
      const count = (s: Sample[], status: string) =>
        sumOf(s, 'tessera_http_request_duration_seconds_count', {
          route: '/oauth/token',
          method: 'POST',
          status_code: status,
        });
      assert.equal(count(now.samples, '200') - count(before.samples, '200'), 1);
      assert.equal(count(now.samples, '401') - count(before.samples, '401'), 1);
      const routes = new Set(now.samples.map((s) => s.labels.route).filter(Boolean));
      assert.ok(routes.has('unmatched'), 'a path with no route is counted as unmatched');
      assert.ok(![...routes].some((r) => r?.includes('xxxx')), 'raw paths never become labels');
      const text = await (await fetch(`${server.base}/metrics`)).text();
      assert.ok(!text.includes(machine.clientSecret) && !text.includes(machine.clientId));
    });

    test('counts a webhook delivery by outcome, and the outbox depth and pool use', { skip }, async () => {
      const before = await scrape();
      await subscribe(server.deps, org, receiver.url('/metered'), ['tenant.created']);
      const { user } = await makeUser(server.deps, org, 'ada@metered.test');
      await createTenant(server.deps, org, user.id, 'Counted');
      // The user's personal tenant and the one created here: two tenant.created deliveries.
      const arrived = () => receiver.received.filter((r) => r.path === '/metered').length;
      await eventually(() => arrived() === 2, 10_000, 'the deliveries');
      const delivered = await eventually(
        async () => {
          const { samples } = await scrape();
          const d = (s: Sample[]) => sumOf(s, 'tessera_webhook_deliveries_total', { outcome: 'delivered' });
          return d(samples) - d(before.samples) === arrived() ? samples : null;
        },
        10_000,
        'the deliveries to be counted',
      );
      assert.equal(sumOf(delivered, 'tessera_webhook_outbox_depth', {}), 0);
      const pool = delivered.filter((s) => s.name === 'tessera_db_pool_connections');
      if (database === 'postgres') {
        assert.deepEqual(pool.map((s) => s.labels.state).sort(), ['idle', 'total', 'waiting']);
        // Opened before the server answered, and kept however idle it was since (warm-pool.ts).
        assert.ok(sumOf(pool, 'tessera_db_pool_connections', { state: 'total' }) >= WARM_CONNECTIONS);
      } else {
        assert.deepEqual(pool, [], 'SQLite has no pool to report');
      }
    });

    test('shows how long queries waited for a database connection', { skip }, async () => {
      const WAIT = 'tessera_db_pool_wait_seconds';
      const waits = (samples: Sample[], le?: string) =>
        le === undefined ? sumOf(samples, `${WAIT}_count`, {}) : sumOf(samples, `${WAIT}_bucket`, { le });
      const before = await scrape();
      // A transaction holds a connection; on SQLite it is the only one, so the query beside it waits.
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let began = () => {};
      const inside = new Promise<void>((resolve) => {
        began = resolve;
      });
      const held = server.db.transaction().execute(async (trx) => {
        await trx.selectFrom('organizations').select('id').execute();
        began();
        await gate;
      });
      await inside;
      const beside = server.db.selectFrom('organizations').select('id').execute();
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await Promise.all([held, beside]);
      const now = await scrape();
      assert.ok(waits(now.samples) - waits(before.samples) >= 2, 'both acquisitions counted');
      if (database === 'sqlite') {
        const longWaits = (s: Sample[]) => waits(s) - waits(s, '0.25');
        // At least the query beside it; the server's own background work (the delivery worker's poll)
        // may have queued behind the transaction in those 300 ms too (seen once: 2).
        assert.ok(
          longWaits(now.samples) - longWaits(before.samples) >= 1,
          'the query waited for the transaction',
        );
      }
    });
  });
}
