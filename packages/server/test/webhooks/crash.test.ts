import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { freePort } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';
import { createTenants, eventIds, orgWithUser, subscribe } from './support/events.js';
import { Receiver, verified } from './support/receiver.js';
import { openSharedStore, type SharedStore, settled } from './support/shared-store.js';
import { testTls } from './support/tls.js';

const EVENTS = 1000;

for (const database of storageSuite(
  "the outbox, its claims' leases and the wake-up (NOTIFY and LISTEN on PostgreSQL) survive a SIGKILL on each database",
)) {
  describe(`webhook delivery survives SIGKILL on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const tls = testTls();
    let store: SharedStore;
    let receiver: Receiver;
    const children: TesseraProcess[] = [];

    before(async () => {
      if (skip) return;
      receiver = await Receiver.start(tls);
      // Each answer takes a moment, so the kill finds deliveries on the wire, not yet settled.
      receiver.respond = () => new Promise((r) => setTimeout(() => r({ status: 204 }), 5));
      // A claim outlives its worker by 2 s here (twice the attempt timeout), not 30 s.
      store = await openSharedStore(database, tls, { TESSERA_WEBHOOK_TIMEOUT: '1s' });
    });
    after(async () => {
      if (skip) return;
      for (const child of children) await child.stop('SIGKILL');
      await receiver.close();
      await store.close();
    });

    test(`a server killed mid-burst of ${EVENTS} events delivers every one after restart`, {
      skip,
    }, async (t) => {
      const port = await freePort();
      const { org, userId } = await orgWithUser(store.deps, 'crash');
      const { secret } = await subscribe(store.deps, org, receiver.url('/crash'), ['tenant.created']);
      children.push(await TesseraProcess.serve(port, store.env));
      // The user's first tenant came before the webhook: not part of the burst.
      const earlier = new Set(await eventIds(store.db, org.id, 'tenant.created'));

      // Once 400 events are written, the burst waits for deliveries to flow, the server is
      // killed, and the burst goes on: 600 more events while no server is up.
      let killed: Promise<{ created: number; received: number }> | undefined;
      const burst = createTenants(store.deps, org, userId, EVENTS, {
        parallel: 4,
        onEach: async (done) => {
          if (done < 400) return;
          killed ??= (async () => {
            await receiver.until(() => receiver.received.length >= 100, 30_000, '100 deliveries');
            const at = { created: done, received: receiver.received.length };
            await (children[0] as TesseraProcess).stop('SIGKILL');
            return at;
          })();
          await killed;
        },
      });
      await burst;
      const atKill = await (killed as Promise<{ created: number; received: number }>);
      t.diagnostic(`killed after ${atKill.created} events and ${atKill.received} deliveries`);
      assert.ok(atKill.received < EVENTS);

      // Then a server starts again on the same store.
      children.push(await TesseraProcess.serve(port, store.env));

      const ids = (await eventIds(store.db, org.id, 'tenant.created')).filter((id) => !earlier.has(id));
      assert.equal(ids.length, EVENTS);
      const unique = () => new Set(receiver.received.map((r) => r.id));
      await receiver.until(() => unique().size >= EVENTS, 60_000, `${EVENTS} distinct events`);

      // Every event arrived, nothing else did, and each signature verifies.
      assert.deepEqual([...unique()].sort(), ids);
      const bodies = new Map<string, string>();
      for (const r of receiver.received) {
        assert.equal(verified(secret, r).type, 'tenant.created');
        // A repeat carries the same `webhook-id` and the very same body.
        const first = bodies.get(r.id);
        if (first === undefined) bodies.set(r.id, r.body);
        else assert.equal(r.body, first);
      }
      t.diagnostic(`${receiver.received.length - EVENTS} repeat(s) after the kill`);

      // The last answers may still be being settled: every delivery ends `delivered`.
      await settled(store, 10_000);
      const rows = await store.db.selectFrom('webhook_deliveries').select('status').execute();
      assert.equal(rows.length, EVENTS);
      assert.ok(rows.every((r) => r.status === 'delivered'));
    });
  });
}
