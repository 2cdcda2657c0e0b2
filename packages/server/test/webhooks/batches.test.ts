import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Settled, Settler } from '../../src/delivery/settler.js';
import { DeliveryWorker } from '../../src/delivery/worker.js';
import type { ClaimedDelivery, Org } from '../../src/domain/types.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { createTenants, orgWithUser, subscribe } from './support/events.js';
import { eventually } from './support/eventually.js';
import { Receiver } from './support/receiver.js';
import { openSharedStore, type SharedStore } from './support/shared-store.js';
import { testTls } from './support/tls.js';

/**
 * The worker's batches: many outcomes settled by one write, claims riding in that write, claims
 * never shared while their lease holds, and a worker that stops hands back what it had not sent.
 */
for (const database of storageSuite(
  'claims are FOR UPDATE SKIP LOCKED and settle-and-claim one statement on PostgreSQL (delivery-batches-postgres.ts), a transaction on SQLite',
)) {
  describe(`webhook claims and settlements in batches on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const tls = testTls();
    let store: SharedStore;
    let receiver: Receiver;
    let slug = 0;

    before(async () => {
      if (skip) return;
      receiver = await Receiver.start(tls);
      store = await openSharedStore(database, tls, { TESSERA_WEBHOOK_RETRY_SCHEDULE: '50ms,50ms' });
    });
    after(async () => {
      if (skip) return;
      await receiver.close();
      await store.close();
    });

    /** A fresh org with one webhook per path on `tenant.created`, and `events` tenants made. */
    const scene = async (paths: string[], events: number) => {
      const { org, userId } = await orgWithUser(store.deps, `batch${++slug}`);
      const hooks: Record<string, string> = {};
      for (const path of paths) {
        hooks[path] = (await subscribe(store.deps, org, receiver.url(path), ['tenant.created'])).webhook.id;
      }
      await createTenants(store.deps, org, userId, events);
      return { org, hooks };
    };
    const rowsOf = (org: Org) =>
      store.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'webhook_id', 'event_id', 'status', 'attempts', 'next_attempt_at', 'claim_token'])
        .where('org_id', '=', org.id)
        .orderBy('event_id')
        .execute();
    const attemptsOf = async (ids: string[]) =>
      ids.length === 0
        ? []
        : store.db
            .selectFrom('webhook_delivery_attempts')
            .select(['delivery_id', 'status_code', 'error'])
            .where('delivery_id', 'in', ids)
            .orderBy('attempted_at')
            .orderBy('id')
            .execute();
    /** The deliveries at these places of the list (failing the test if one is missing). */
    const nth = <At extends number[]>(list: ClaimedDelivery[], ...at: At) =>
      at.map((i) => {
        const d = list[i];
        assert.ok(d, `delivery ${i} of ${list.length}`);
        return d;
      }) as { [K in keyof At]: ClaimedDelivery };
    const claimAll = (settler: Settler, token: string, now = Date.now()) =>
      settler.claim({ limit: 100, now, leaseUntil: now + 60_000, token });

    test('one write settles a mixed batch; only held claims change; a failure disables its webhook', {
      skip,
    }, async () => {
      const { org, hooks } = await scene(['/batch-a', '/batch-b'], 4);
      const settler = new Settler(store.deps.store);
      const { deliveries, targets } = await claimAll(settler, 'first');
      assert.equal(deliveries.length, 8);
      const of = (hook: string) =>
        deliveries.filter((d) => d.webhookId === hook).sort((x, y) => x.eventId.localeCompare(y.eventId));
      const [a1, a2, a3, a4] = nth(of(hooks['/batch-a'] as string), 0, 1, 2, 3);
      const [b, b2] = nth(of(hooks['/batch-b'] as string), 0, 1);
      // a3's lease ran out and another worker took it; a4 went with its webhook's deletion.
      await store.db
        .updateTable('webhook_deliveries')
        .set({ claim_token: 'second' })
        .where('id', '=', a3.id)
        .execute();
      await store.db.deleteFrom('webhook_deliveries').where('id', '=', a4.id).execute();

      const now = Date.now();
      const sent = (code: number | null) => ({
        attemptedAt: now - 5,
        statusCode: code,
        durationMs: 5,
        error: code === 204 ? null : code === null ? 'timed out after 1 s' : `HTTP ${code}`,
      });
      const settle = (
        d: ClaimedDelivery,
        status: 'delivered' | 'pending' | 'failed' | 'skipped',
        code: number | null,
        next: number | null = null,
      ) =>
        settler.settle({
          settlement: {
            id: d.id,
            token: 'first',
            status,
            attempts: status === 'skipped' ? 0 : 1,
            nextAttemptAt: next,
            now,
          },
          attempt: status === 'skipped' ? null : sent(code),
          target: targets.get(d.webhookId),
        });
      // All in one turn of the event loop, as outcomes arrive together: one write takes them all.
      const results = await Promise.all([
        settle(a1, 'delivered', 204),
        settle(a2, 'pending', null, now + 60_000),
        settle(a3, 'delivered', 204),
        settle(a4, 'delivered', 204),
        settle(b, 'failed', 410),
        settle(b2, 'delivered', 204),
      ]);
      assert.deepEqual(results, [
        { held: true, disabled: false },
        { held: true, disabled: false },
        { held: false, disabled: false },
        { held: false, disabled: false },
        { held: true, disabled: true },
        { held: true, disabled: false },
      ] satisfies Settled[]);

      const rows = new Map((await rowsOf(org)).map((r) => [r.id, r]));
      const state = (d: ClaimedDelivery) => {
        const r = rows.get(d.id);
        return r && [r.status, r.attempts, r.next_attempt_at, r.claim_token];
      };
      assert.deepEqual(state(a1), ['delivered', 1, null, null]);
      assert.deepEqual(state(a2), ['pending', 1, now + 60_000, null]);
      // Not this worker's any more: untouched, still the other worker's claim.
      assert.deepEqual(state(a3), ['pending', 0, rows.get(a3.id)?.next_attempt_at as number, 'second']);
      assert.ok((rows.get(a3.id)?.next_attempt_at as number) > now);
      assert.equal(rows.get(a4.id), undefined);
      assert.deepEqual(state(b), ['failed', 1, null, null]);
      assert.deepEqual(state(b2), ['delivered', 1, null, null]);
      // The failure disabled webhook b: its other pending deliveries (claimed, not settled) are skipped.
      for (const d of of(hooks['/batch-b'] as string).slice(2))
        assert.deepEqual(state(d), ['skipped', 0, null, null]);
      const webhookB = await store.db
        .selectFrom('webhooks')
        .select('active')
        .where('id', '=', hooks['/batch-b'] as string)
        .executeTakeFirstOrThrow();
      assert.equal(webhookB.active, 0);
      const disabledAudit = await store.db
        .selectFrom('audit_events')
        .select(['actor_id', 'data'])
        .where('org_id', '=', org.id)
        .where('key', '=', 'webhook.updated')
        .execute();
      assert.equal(disabledAudit.length, 1);
      assert.equal(JSON.parse(disabledAudit[0]?.data as string).active, false);

      // Every attempt that happened is logged, the other worker's delivery's included; none for
      // the skipped one or the deleted one.
      const logged = await attemptsOf([a1, a2, a3, a4, b, b2].map((d) => d.id));
      const byDelivery = (d: ClaimedDelivery | undefined) =>
        logged.filter((l) => l.delivery_id === d?.id).map((l) => [l.status_code, l.error]);
      assert.deepEqual(byDelivery(a1), [[204, null]]);
      assert.deepEqual(byDelivery(a2), [[null, 'timed out after 1 s']]);
      assert.deepEqual(byDelivery(a3), [[204, null]]);
      assert.deepEqual(byDelivery(a4), []);
      assert.deepEqual(byDelivery(b), [[410, 'HTTP 410']]);
      assert.deepEqual(byDelivery(b2), [[204, null]]);
    });

    test('a claim riding with settlements takes what is due but not what they settle; the next one does', {
      skip,
    }, async () => {
      const { org } = await scene(['/batch-c'], 4);
      const settler = new Settler(store.deps.store);
      const now = Date.now();
      const first = await settler.claim({ limit: 3, now, leaseUntil: now + 60_000, token: 'first' });
      const [c1, c2] = nth(first.deliveries, 0, 1);
      const settle = (d: ClaimedDelivery, status: 'pending' | 'delivered', code: number) =>
        settler.settle({
          settlement: {
            id: d.id,
            token: 'first',
            status,
            attempts: 1,
            // Due again at once: a retry with no delay left.
            nextAttemptAt: status === 'pending' ? now - 1 : null,
            now,
          },
          attempt: {
            attemptedAt: now,
            statusCode: code,
            durationMs: 1,
            error: code === 204 ? null : `HTTP ${code}`,
          },
          target: first.targets.get(d.webhookId),
        });
      const [settled1, settled2, second] = await Promise.all([
        settle(c1, 'pending', 503),
        settle(c2, 'delivered', 204),
        claimAll(settler, 'second', now),
      ]);
      assert.deepEqual(
        [settled1, settled2],
        [
          { held: true, disabled: false },
          { held: true, disabled: false },
        ],
      );
      // The fourth was never claimed; the third is still under the first claim's lease.
      const rows = await rowsOf(org);
      assert.deepEqual(
        second.deliveries.map((d) => d.id),
        [rows[3]?.id],
      );
      assert.deepEqual([...second.targets.keys()], [c1.webhookId]);
      const third = await claimAll(settler, 'third', now);
      assert.deepEqual(
        third.deliveries.map((d) => [d.id, d.attempts]),
        [[c1.id, 1]],
      );
      assert.deepEqual(
        (await rowsOf(org)).map((r) => [r.status, r.attempts, r.claim_token]),
        [
          ['pending', 1, 'third'],
          ['delivered', 1, null],
          ['pending', 0, 'first'],
          ['pending', 0, 'second'],
        ],
      );
    });

    test('two workers claiming at once never share a delivery; an expired lease is claimed again', {
      skip,
    }, async () => {
      const { org } = await scene(['/batch-d'], 12);
      const one = new Settler(store.deps.store);
      const two = new Settler(store.deps.store);
      const now = Date.now();
      const lease = { now, leaseUntil: now + 1_000 };
      const [a, b] = await Promise.all([
        one.claim({ limit: 7, ...lease, token: 'one' }),
        two.claim({ limit: 7, ...lease, token: 'two' }),
      ]);
      const ids = [...a.deliveries, ...b.deliveries].map((d) => d.id);
      assert.equal(ids.length, 12);
      assert.equal(new Set(ids).size, 12);
      assert.deepEqual(await claimAll(one, 'three', now + 999), { deliveries: [], targets: new Map() });
      // The first worker died: once its lease is over, its deliveries are due for anyone.
      const later = await claimAll(two, 'four', now + 1_000);
      assert.deepEqual(later.deliveries.map((d) => d.id).sort(), [...ids].sort());
      assert.ok((await rowsOf(org)).every((r) => r.claim_token === 'four'));
    });

    test('a worker with small batches delivers every event, retries each failure once, leaves no claim', {
      skip,
    }, async () => {
      const answered = new Map<string, number>();
      receiver.respond = (r) => {
        if (r.path !== '/batch-flaky') return { status: 204 };
        const n = (answered.get(r.id) ?? 0) + 1;
        answered.set(r.id, n);
        return { status: n === 1 ? 500 : 204 };
      };
      const worker = new DeliveryWorker(store.deps, { ca: tls.cert, concurrency: 4, pollMs: 100 }).start();
      try {
        const { org, hooks } = await scene(['/batch-steady', '/batch-flaky'], 150);
        await eventually(
          async () => (await rowsOf(org)).every((r) => r.status === 'delivered'),
          30_000,
          'every delivery delivered',
        );
        const rows = await rowsOf(org);
        assert.equal(rows.length, 300);
        assert.ok(rows.every((r) => r.claim_token === null && r.next_attempt_at === null));
        const events = [...new Set(rows.map((r) => r.event_id))].sort();
        const steady = receiver.at('/batch-steady').map((r) => r.id);
        const flaky = receiver.at('/batch-flaky').map((r) => r.id);
        assert.deepEqual([...steady].sort(), events);
        assert.deepEqual([...flaky].sort(), [...events, ...events].sort());
        const logged = await attemptsOf(rows.map((r) => r.id));
        const codes = (path: string) =>
          rows
            .filter((r) => r.webhook_id === hooks[path])
            .map((r) =>
              logged
                .filter((l) => l.delivery_id === r.id)
                .map((l) => l.status_code)
                .join(),
            );
        assert.deepEqual(new Set(codes('/batch-steady')), new Set(['204']));
        assert.deepEqual(new Set(codes('/batch-flaky')), new Set(['500,204']));
      } finally {
        await worker.stop();
        receiver.respond = () => ({ status: 204 });
      }
    });

    test('a stopping worker settles what it sent and hands back what it had only claimed', {
      skip,
    }, async () => {
      receiver.respond = () => new Promise((r) => setTimeout(() => r({ status: 204 }), 40));
      try {
        const { org } = await scene(['/batch-stop'], 40);
        const first = new DeliveryWorker(store.deps, { ca: tls.cert, concurrency: 2 }).start();
        await receiver.until(() => receiver.at('/batch-stop').length >= 2, 10_000, 'the first deliveries');
        await first.stop();
        const stopped = Date.now();
        const rows = await rowsOf(org);
        const sent = new Set(receiver.at('/batch-stop').map((r) => r.id));
        assert.ok(sent.size < 40, `the worker stopped early (${sent.size} sent)`);
        assert.ok(rows.every((r) => r.claim_token === null));
        assert.deepEqual(
          rows
            .filter((r) => r.status === 'delivered')
            .map((r) => r.event_id)
            .sort(),
          [...sent].sort(),
        );
        // Handed back, due now, no attempt counted: not left waiting out a lease.
        const rest = rows.filter((r) => r.status === 'pending');
        assert.equal(rest.length, 40 - sent.size);
        assert.ok(rest.every((r) => r.attempts === 0 && (r.next_attempt_at as number) <= stopped));

        const second = new DeliveryWorker(store.deps, { ca: tls.cert, concurrency: 8 }).start();
        try {
          await receiver.until(() => receiver.at('/batch-stop').length >= 40, 20_000, 'the rest');
        } finally {
          await second.stop();
        }
        const ids = receiver.at('/batch-stop').map((r) => r.id);
        assert.equal(ids.length, 40);
        assert.equal(new Set(ids).size, 40);
      } finally {
        receiver.respond = () => ({ status: 204 });
      }
    });
  });
}
