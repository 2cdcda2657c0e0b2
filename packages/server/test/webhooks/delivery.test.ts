import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, deleteTenant, updateTenant } from '../../src/domain/directory/tenants.js';
import { deleteWebhook } from '../../src/domain/directory/webhooks.js';
import type { Org } from '../../src/domain/types.js';
import { SYSTEM } from '../../src/domain/types.js';
import { matchesRoutingKey } from '../../src/domain/webhooks/routing-keys.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { orgWithUser, subscribe } from './support/events.js';
import { Receiver, verified } from './support/receiver.js';
import { testTls } from './support/tls.js';

interface Hook {
  path: string;
  org: Org;
  id: string;
  secret: string;
  events: string[];
}

for (const database of storageSuite(
  "the outbox signal: NOTIFY on commit and the worker's LISTEN on PostgreSQL (notify.ts, pg-listener.ts), in-process on SQLite; the routing checksum query",
)) {
  describe(`webhook delivery to an HTTPS receiver on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const tls = testTls();
    let server: TestServer;
    let receiver: Receiver;
    let acme: Org;
    let beta: Org;
    let userId: string;
    const hooks: Hook[] = [];

    before(async () => {
      if (skip) return;
      receiver = await Receiver.start(tls);
      server = await startServer({
        database,
        env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
        webhooks: { ca: tls.cert, pollMs: 200 },
      });
      ({ org: acme, userId } = await orgWithUser(server.deps, 'acme'));
      ({ org: beta } = await orgWithUser(server.deps, 'beta'));
      const add = async (org: Org, path: string, events: string[]) => {
        const { webhook, secret } = await subscribe(server.deps, org, receiver.url(path), events);
        hooks.push({ path, org, id: webhook.id, secret, events });
      };
      await add(acme, '/tenants', ['tenant.*']);
      await add(acme, '/deleted', ['*.deleted']);
      await add(acme, '/all', ['#']);
      await add(acme, '/logins', ['user.login', 'client.created']);
      await add(acme, '/gone', ['tenant.*']);
      await add(beta, '/beta', ['#']);
    });
    after(async () => {
      if (skip) return;
      await server.close();
      await receiver.close();
    });

    test('every matching event arrives once, signed; nothing else arrives', { skip }, async () => {
      const t1 = await createTenant(server.deps, acme, userId, 'North');
      const t2 = await createTenant(server.deps, acme, userId, 'South');
      await updateTenant(server.deps, acme, userId, t1.id, { name: 'North East' });
      await deleteTenant(server.deps, acme, userId, t2.id);
      // Deleting a webhook drops what it has not been sent yet: wait for its four first.
      await receiver.until(() => receiver.at('/gone').length === 4, 20_000);
      const gone = hooks.find((h) => h.path === '/gone') as Hook;
      await deleteWebhook(server.deps, acme, gone.id, SYSTEM);
      await createTenant(server.deps, acme, userId, 'After the delete');

      // What each webhook should get: its org's entries since its own creation that match a pattern.
      const entries = await server.db
        .selectFrom('audit_events')
        .select(['id', 'org_id', 'key', 'data'])
        .orderBy('id')
        .execute();
      const createdEntry = (h: Hook) =>
        entries.find((e) => e.key === 'webhook.created' && JSON.parse(e.data).id === h.id)?.id as string;
      const expected = new Map(
        hooks.map((h) => [
          h.path,
          entries
            .filter((e) => e.org_id === h.org.id && e.id >= createdEntry(h))
            .filter((e) => h.events.some((p) => matchesRoutingKey(p, e.key)))
            .map((e) => e.id),
        ]),
      );
      // The webhook deleted before the last tenant was created got the events up to its deletion.
      const goneExpected = entries
        .filter((e) => e.org_id === acme.id && e.key.startsWith('tenant.') && e.id > createdEntry(gone))
        .slice(0, -1)
        .map((e) => e.id);
      expected.set('/gone', goneExpected);

      const total = [...expected.values()].reduce((n, ids) => n + ids.length, 0);
      await receiver.until(() => receiver.received.length >= total, 20_000);
      // A little longer, so that a delivery that should not happen has had its chance.
      await new Promise((r) => setTimeout(r, 500));

      // Deliveries run concurrently: the order they arrive in is not the order of the events.
      const keysAt = (path: string) =>
        receiver
          .at(path)
          .map((r) => verified(hooks.find((h) => h.path === path)?.secret ?? '', r).type)
          .sort();
      assert.deepEqual(keysAt('/tenants'), [
        'tenant.created',
        'tenant.created',
        'tenant.created',
        'tenant.deleted',
        'tenant.updated',
      ]);
      assert.deepEqual(keysAt('/deleted'), ['tenant.deleted', 'webhook.deleted']);
      assert.deepEqual(keysAt('/gone'), [
        'tenant.created',
        'tenant.created',
        'tenant.deleted',
        'tenant.updated',
      ]);
      assert.deepEqual(keysAt('/logins'), [], 'no user.login or client.created happened');
      assert.deepEqual(keysAt('/beta'), ['webhook.created'], "beta's own entry, none of acme's");
      assert.ok(keysAt('/all').includes('webhook.created') && keysAt('/all').includes('tenant.updated'));

      for (const hook of hooks) {
        const got = receiver.at(hook.path);
        const ids = got.map((r) => r.id).sort();
        assert.deepEqual(ids, [...(expected.get(hook.path) ?? [])].sort(), hook.path);
        for (const r of got) {
          // Verified exactly as a receiver would, with the `standardwebhooks` package and the secret.
          const payload = verified(hook.secret, r);
          const entry = entries.find((e) => e.id === r.id);
          assert.ok(entry);
          assert.equal(payload.type, entry.key);
          assert.deepEqual(payload.data.data, JSON.parse(entry.data));
          assert.equal(payload.data.id, r.id);
          assert.equal(r.headers['content-type'], 'application/json');
          assert.equal(r.headers['user-agent'], 'Tessera-Webhooks/1');
          assert.equal(r.host, `localhost:${receiver.port}`);
          assert.match(r.headers['webhook-timestamp'] ?? '', /^\d{10}$/);
          // Another webhook's secret does not verify it.
          const other = hooks.find((h) => h.secret !== hook.secret) as Hook;
          assert.throws(() => verified(other.secret, r));
        }
      }

      const rows = await server.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute();
      // The deleted webhook's deliveries went with it; every other one is delivered at the first attempt.
      assert.equal(rows.length, total - goneExpected.length);
      assert.ok(rows.every((r) => r.status === 'delivered' && r.attempts === 1));
    });
  });
}
