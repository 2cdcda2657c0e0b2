import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { createTenant } from '../../src/domain/directory/tenants.js';
import type { Org } from '../../src/domain/types.js';
import { addConsoleMember, call, consoleOf } from '../management/support/console.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { SkippingClock } from './support/clock.js';
import { orgWithUser, subscribe } from './support/events.js';
import { eventually } from './support/eventually.js';
import { type Received, Receiver, verified } from './support/receiver.js';
import { testTls } from './support/tls.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Three retries 200 ms apart (±10 % jitter) instead of 5 s … 10 h. */
const SCHEDULE = '200ms,200ms,200ms';
const STEP_MS = 200;

for (const database of storageSuite(
  "retry and failure settlements through each dialect's write (one statement on PostgreSQL, the disabling transaction), read back in the delivery log",
)) {
  describe(`webhook retries, auto-disable and the delivery log on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'a receiver that keeps failing gets every retry, then the webhook is disabled',
    ]);
    const tls = testTls();
    let server: TestServer;
    let receiver: Receiver;
    let acme: Org;
    let userId: string;
    let owner: string;
    /**
     * The worker's clock: waiting for a delivery's log, the test skips the worker's waits (the
     * schedule's 200 ms, a Retry-After second) instead of sitting them out; the attempts' times in
     * the log are on this clock, so each wait still shows in them. Receivers (and a hung one's
     * timeout) keep the wall clock.
     */
    const clock = new SkippingClock();
    /**
     * Each test subscribes its own paths to `tenant.created` and makes one event. (Webhooks of
     * earlier tests get it too; they are done with by then.)
     */
    type Made = { id: string; secret: string };
    const hooks = async (...paths: string[]): Promise<Made[]> => {
      const made: Made[] = [];
      for (const path of paths) {
        const { webhook, secret } = await subscribe(server.deps, acme, receiver.url(path), [
          'tenant.created',
        ]);
        made.push({ id: webhook.id, secret });
      }
      await createTenant(server.deps, acme, userId, `Tenant for ${paths.join(' ')}`);
      return made;
    };
    const hook = async (path: string) => (await hooks(path))[0] as Made;
    const log = (webhookId: string, token = owner) =>
      call(server, 'GET', `/organizations/acme/webhooks/${webhookId}/deliveries`, token);
    const retry = (webhookId: string, deliveryId: string, token = owner) =>
      call(server, 'POST', `/organizations/acme/webhooks/${webhookId}/deliveries/${deliveryId}/retry`, token);
    const active = async (id: string) =>
      (await server.db.selectFrom('webhooks').select('active').where('id', '=', id).executeTakeFirst())
        ?.active;
    const settledLog = (id: string, status: string) =>
      eventually(
        async () => {
          clock.skip();
          const res = await log(id);
          return res.body[0]?.status === status ? res : null;
        },
        10_000,
        `a ${status} delivery`,
      );

    before(async () => {
      if (skip) return;
      receiver = await Receiver.start(tls);
      server = await startServer({
        database,
        env: {
          TESSERA_OUTBOUND_ALLOW_PRIVATE: '1',
          TESSERA_WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
          TESSERA_WEBHOOK_TIMEOUT: '1s',
        },
        // A lease long enough that the skips (a few seconds in all) never end one mid-attempt.
        webhooks: { ca: tls.cert, pollMs: 100, clock, leaseMs: 60_000 },
      });
      ({ org: acme, userId } = await orgWithUser(server.deps, 'acme'));
      owner = await (await consoleOf(server)).token('owner@acme.test');
    });
    after(async () => {
      if (skip) return;
      await server.close();
      await receiver.close();
    });

    test('a receiver that keeps failing gets every retry, then the webhook is disabled', {
      skip,
    }, async () => {
      receiver.respond = (r) => (r.path === '/down' ? { status: 500 } : { status: 204 });
      // Another webhook hears about the disabling: `webhook.updated` is an event like any other.
      const watcher = await subscribe(server.deps, acme, receiver.url('/watch'), ['webhook.updated']);
      const { id, secret } = await hook('/down');

      const res = await settledLog(id, 'failed');
      const down = receiver.at('/down');
      // The first attempt and the three retries of the schedule; then no more.
      assert.equal(down.length, 4);
      assert.equal(new Set(down.map((r) => r.id)).size, 1, 'one webhook-id on every attempt');
      assert.equal(new Set(down.map((r) => r.body)).size, 1, 'one body on every attempt');
      for (const r of down) assert.equal(verified(secret, r).type, 'tenant.created');

      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.body.length, 1);
      const [delivery] = res.body;
      assert.deepEqual(Object.keys(delivery), [
        'id',
        'event_id',
        'type',
        'status',
        'created_at',
        'next_attempt_at',
        'attempts',
      ]);
      assert.match(delivery.id, /^wdl_/);
      assert.equal(delivery.event_id, down[0]?.id);
      assert.equal(delivery.type, 'tenant.created');
      assert.match(delivery.created_at, ISO);
      assert.equal(delivery.next_attempt_at, null);
      assert.equal(delivery.attempts.length, 4);
      for (const a of delivery.attempts) {
        assert.deepEqual(Object.keys(a), ['at', 'status_code', 'duration_ms', 'error']);
        assert.match(a.at, ISO);
        assert.equal(a.status_code, 500);
        assert.equal(a.error, 'HTTP 500');
        assert.ok(Number.isInteger(a.duration_ms) && a.duration_ms >= 0);
      }
      // Each retry waited its turn of the schedule (less the jitter) after the attempt before.
      const starts = delivery.attempts.map((a: { at: string }) => Date.parse(a.at));
      for (let i = 1; i < starts.length; i++) assert.ok(starts[i] - starts[i - 1] >= STEP_MS * 0.9);

      // Disabled, with `webhook.updated` recorded by the system and delivered to the watcher.
      assert.equal(await active(id), 0);
      const list = await call(server, 'GET', '/organizations/acme/webhooks', owner);
      assert.equal(list.body.find((w: { id: string }) => w.id === id).active, false);
      const updated = await server.db
        .selectFrom('audit_events')
        .selectAll()
        .where('key', '=', 'webhook.updated')
        .execute();
      const entry = updated.find((e) => JSON.parse(e.data).id === id);
      assert.ok(entry);
      assert.equal(entry.actor_kind, 'system');
      assert.deepEqual(JSON.parse(entry.changes ?? '{}').active, false);
      assert.equal(JSON.parse(entry.previous ?? '{}').active, true);
      await receiver.until(() => receiver.at('/watch').length === 1, 10_000, 'the webhook.updated event');
      const heard = verified(watcher.secret, receiver.at('/watch')[0] as Received);
      assert.equal(heard.type, 'webhook.updated');
      assert.equal(heard.data.id, entry.id);

      // A disabled webhook cannot be retried; its later events are not queued.
      const again = await retry(id, delivery.id);
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, { error: 'conflict', error_detail: 'the webhook is inactive' });
      await createTenant(server.deps, acme, userId, 'While disabled');
      assert.equal((await log(id)).body.length, 1);
    });

    test('410 Gone disables the webhook at the first answer', { skip }, async () => {
      receiver.respond = (r) => (r.path === '/gone' ? { status: 410 } : { status: 204 });
      const { id } = await hook('/gone');
      const res = await settledLog(id, 'failed');
      assert.deepEqual(
        res.body[0].attempts.map((a: { status_code: number; error: string }) => [a.status_code, a.error]),
        [[410, 'HTTP 410']],
      );
      assert.equal(receiver.at('/gone').length, 1);
      assert.equal(await active(id), 0);
    });

    test('Retry-After pushes the retry later than the schedule would', { skip }, async () => {
      receiver.respond = (r, n) =>
        r.path === '/busy' && n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 204 };
      const { id } = await hook('/busy');
      const res = await settledLog(id, 'delivered');
      const attempts = res.body[0].attempts;
      assert.deepEqual(
        attempts.map((a: { status_code: number }) => a.status_code),
        [503, 204],
      );
      assert.equal(attempts[0].error, 'HTTP 503');
      assert.equal(attempts[1].error, null);
      // The schedule says 200 ms; the receiver asked for a second.
      assert.ok(Date.parse(attempts[1].at) - Date.parse(attempts[0].at) >= 1000);
      assert.equal(await active(id), 1);
    });

    test('redirects are not followed and a hung receiver times out; both are retried', {
      skip,
    }, async () => {
      receiver.respond = (r, n) => {
        if (r.path === '/moved' && n === 1) {
          return { status: 302, headers: { location: receiver.url('/elsewhere') } };
        }
        if (r.path === '/hang' && n === 1) return 'hang';
        return { status: 204 };
      };
      const [moved, hung] = (await hooks('/moved', '/hang')) as [Made, Made];
      const movedLog = (await settledLog(moved.id, 'delivered')).body[0].attempts;
      const hungLog = (await settledLog(hung.id, 'delivered')).body[0].attempts;
      assert.deepEqual(
        movedLog.map((a: { status_code: number; error: string }) => [a.status_code, a.error]),
        [
          [302, 'redirect (302) not followed'],
          [204, null],
        ],
      );
      assert.equal(receiver.at('/elsewhere').length, 0);
      assert.deepEqual(
        hungLog.map((a: { status_code: number; error: string }) => [a.status_code, a.error]),
        [
          [null, 'timed out after 1 s'],
          [204, null],
        ],
      );
    });

    test('POST …/retry sends a delivered event again with the same webhook-id', { skip }, async () => {
      receiver.respond = () => ({ status: 204 });
      const { id, secret } = await hook('/again');
      const first = (await settledLog(id, 'delivered')).body[0];
      const res = await retry(id, first.id);
      assert.equal(res.status, 202);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.body.id, first.id);
      assert.equal(res.body.status, 'pending');
      assert.match(res.body.next_attempt_at, ISO);
      assert.equal(res.body.attempts.length, 1);

      await receiver.until(() => receiver.at('/again').length === 2, 10_000, 'the redelivery');
      const [one, two] = receiver.at('/again') as [Received, Received];
      assert.equal(two.id, one.id);
      assert.equal(two.body, one.body);
      assert.deepEqual(verified(secret, two), verified(secret, one));
      const after = (await settledLog(id, 'delivered')).body[0];
      assert.equal(after.attempts.length, 2);
    });

    test('the log and retry answer 404 for what is not there, 403 to members, 401 without a token', {
      skip,
    }, async () => {
      const { id } = await hook('/other');
      const first = (await settledLog(id, 'delivered')).body[0];
      const missing = await retry(id, 'wdl_doesnotexist');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { error: 'not_found', error_detail: 'no such delivery' });
      for (const res of [await log('whk_doesnotexist'), await log('not-a-webhook-id')]) {
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such webhook' });
      }
      await addConsoleMember(server, acme, 'mel@console.test', 'member');
      const member = await (await consoleOf(server)).token('mel@console.test');
      for (const res of [await log(id, member), await retry(id, first.id, member)]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.error, 'forbidden');
      }
      // An owner of another org cannot learn this org's webhooks exist.
      await orgWithUser(server.deps, 'beta');
      const stranger = await (await consoleOf(server)).token('owner@beta.test');
      assert.equal((await log(id, stranger)).status, 404);
      assert.equal((await retry(id, first.id, stranger)).status, 404);
      const anonymous = await call(server, 'GET', `/organizations/acme/webhooks/${id}/deliveries`, null);
      assert.equal(anonymous.status, 401);
    });
  });
}
