import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postgresSkip } from '../support/environment.js';
import { TesseraProcess } from '../support/tessera-process.js';
import { createTenants, eventIds, orgWithUser, subscribe } from './support/events.js';
import { Receiver, verified } from './support/receiver.js';
import { openSharedStore, type SharedStore, settled } from './support/shared-store.js';
import { testTls } from './support/tls.js';

const EVENTS = 1000;

describe('two `tessera worker` processes on one PostgreSQL', async () => {
  const skip = await postgresSkip();
  const tls = testTls();
  let store: SharedStore;
  let receiver: Receiver;
  const workers: TesseraProcess[] = [];

  before(async () => {
    if (skip) return;
    receiver = await Receiver.start(tls);
    // Debug logs name each delivery a worker made, so the test can see the work was shared.
    store = await openSharedStore('postgres', tls, { TESSERA_LOG_LEVEL: 'debug' });
    workers.push(
      ...(await Promise.all([TesseraProcess.worker(store.env), TesseraProcess.worker(store.env)])),
    );
  });
  after(async () => {
    if (skip) return;
    for (const w of workers) await w.stop('SIGTERM');
    await receiver.close();
    await store.close();
  });

  test(`share ${EVENTS} deliveries with no duplicate and no gap`, { skip }, async (t) => {
    const { org, userId } = await orgWithUser(store.deps, 'pair');
    const { secret } = await subscribe(store.deps, org, receiver.url('/pair'), ['tenant.created']);
    const earlier = new Set(await eventIds(store.db, org.id, 'tenant.created'));
    await createTenants(store.deps, org, userId, EVENTS, { parallel: 4 });
    const ids = (await eventIds(store.db, org.id, 'tenant.created')).filter((id) => !earlier.has(id));
    assert.equal(ids.length, EVENTS);

    await receiver.until(() => receiver.received.length >= EVENTS, 60_000, `${EVENTS} deliveries`);
    await settled(store, 10_000);

    // Exactly one request per event: no duplicate, no gap, each signed.
    const received = receiver.received.map((r) => r.id).sort();
    assert.equal(received.length, EVENTS);
    assert.deepEqual(received, ids);
    for (const r of receiver.received) assert.equal(verified(secret, r).type, 'tenant.created');

    // Both workers took part, and their logs account for every delivery once.
    const delivered = (w: TesseraProcess) =>
      w.logs().filter((l) => l.msg === 'webhook delivered' && l.webhookId !== undefined);
    const deadline = Date.now() + 5_000;
    while (workers.reduce((n, w) => n + delivered(w).length, 0) < EVENTS && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const shares = workers.map((w) => delivered(w).length);
    t.diagnostic(`deliveries per worker: ${shares.join(' + ')}`);
    assert.equal(
      shares.reduce((a, b) => a + b, 0),
      EVENTS,
    );
    assert.ok(
      shares.every((n) => n > 0),
      'each worker delivered some',
    );
    const byWorker = workers.map((w) => new Set(delivered(w).map((l) => l.eventId)));
    for (const id of byWorker[0] ?? []) assert.ok(!byWorker[1]?.has(id), `${id} sent by both workers`);
  });
});
