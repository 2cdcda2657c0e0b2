import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, ownerMemberStranger } from '../management/support/console.js';
import { startServer, type TestServer } from '../support/server.js';
import { eventually } from './support/eventually.js';
import { Receiver, verified } from './support/receiver.js';
import { testTls } from './support/tls.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ALLOW_PRIVATE_HINT =
  'url: points at this machine (loopback), which webhooks may not reach; for local development set ' +
  'TESSERA_OUTBOUND_ALLOW_PRIVATE=1 (see README)';

/**
 * POST /organizations/{org}/webhooks/{id}/test: one signed `webhook.test` event to that webhook only,
 * through the worker and the address policy like any delivery, against a real HTTPS receiver on
 * 127.0.0.1 (local development: TESSERA_OUTBOUND_ALLOW_PRIVATE=1); no audit entry.
 */
describe('webhook test events', () => {
  const tls = testTls();
  let server: TestServer;
  let receiver: Receiver;
  let owner: string;
  let member: string;
  let stranger: string;

  before(async () => {
    receiver = await Receiver.start(tls);
    server = await startServer({
      env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      webhooks: { ca: tls.cert, pollMs: 100 },
    });
    ({ owner, member, stranger } = await ownerMemberStranger(server));
  });
  after(async () => {
    await server?.close();
    await receiver?.close();
  });

  const createHook = async (path: string, events: string[]) => {
    const res = await call(server, 'POST', '/organizations/acme/webhooks', owner, {
      url: receiver.url(path),
      events,
    });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; secret: string };
  };
  const auditCount = async () =>
    Number(
      (
        await server.db
          .selectFrom('audit_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('202 with the delivery; the receiver verifies one signed webhook.test; nothing else is sent or written', async () => {
    const target = await createHook('/target', ['user.login']);
    const other = await createHook('/other', ['#']);
    const before = await auditCount();

    const res = await call(server, 'POST', `/organizations/acme/webhooks/${target.id}/test`, owner);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const delivery = res.body;
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
    assert.match(delivery.event_id, /^evt_/);
    assert.equal(delivery.type, 'webhook.test');
    assert.equal(delivery.status, 'pending');
    assert.match(delivery.created_at, ISO_MS_UTC);
    assert.deepEqual(delivery.attempts, []);

    await receiver.until(() => receiver.at('/target').length === 1, 20_000, 'the test event');
    const [received] = receiver.at('/target');
    assert.ok(received);
    // Verified with the standardwebhooks package and the secret shown at creation, as a receiver would.
    const payload = verified(target.secret, received);
    assert.equal(received.id, delivery.event_id);
    assert.equal(received.headers['user-agent'], 'Tessera-Webhooks/1');
    assert.equal(payload.type, 'webhook.test');
    assert.match(payload.timestamp, ISO_MS_UTC);
    const acme = await server.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    assert.deepEqual(payload.data, {
      id: delivery.event_id,
      key: 'webhook.test',
      test: true,
      message: 'A test event, sent on request to this webhook only. Nothing changed.',
      organization: { id: acme.id, slug: 'acme' },
      webhook: { id: target.id, url: receiver.url('/target') },
    });

    // The delivery log shows how it went.
    const log = await eventually(
      async () => {
        const list = await call(server, 'GET', `/organizations/acme/webhooks/${target.id}/deliveries`, owner);
        const entry = list.body.find((d: { id: string }) => d.id === delivery.id);
        return entry?.status === 'delivered' ? entry : null;
      },
      10_000,
      'the delivered test event in the log',
    );
    assert.equal(log.attempts.length, 1);
    assert.equal(log.attempts[0].status_code, 204);

    // No audit entry. The other webhook (subscribed to everything: it gets its own webhook.created)
    // has no test event queued or received: the one test delivery is the target's.
    assert.equal(await auditCount(), before);
    const tests = await server.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'webhook_id'])
      .where('event_key', '=', 'webhook.test')
      .execute();
    assert.deepEqual(tests, [{ id: delivery.id, webhook_id: target.id }]);
    const otherTypes = receiver.at('/other').map((r) => verified(other.secret, r).type);
    assert.equal(otherTypes.includes('webhook.test'), false, otherTypes.join());
    assert.equal(receiver.at('/target').length, 1);
  });

  test('owners only; other orgs and unknown ids 404; an inactive webhook 409', async () => {
    const hook = await createHook('/refusals', ['user.login']);
    const path = `/organizations/acme/webhooks/${hook.id}/test`;
    const forbidden = await call(server, 'POST', path, member);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error, 'forbidden');
    const noToken = await call(server, 'POST', path, null);
    assert.equal(noToken.status, 401);
    // The owner of beta names acme's webhook through their own org: no such webhook there.
    const elsewhere = await call(server, 'POST', `/organizations/beta/webhooks/${hook.id}/test`, stranger);
    assert.deepEqual(
      [elsewhere.status, elsewhere.body],
      [404, { error: 'not_found', error_detail: 'no such webhook' }],
    );
    for (const id of ['whk_00000000000000000000', 'nope']) {
      const res = await call(server, 'POST', `/organizations/acme/webhooks/${id}/test`, owner);
      assert.deepEqual(
        [res.status, res.body],
        [404, { error: 'not_found', error_detail: 'no such webhook' }],
      );
    }
    const paused = await call(server, 'PATCH', `/organizations/acme/webhooks/${hook.id}`, owner, {
      active: false,
    });
    assert.equal(paused.status, 200);
    const inactive = await call(server, 'POST', path, owner);
    assert.deepEqual(
      [inactive.status, inactive.body],
      [409, { error: 'conflict', error_detail: 'the webhook is inactive' }],
    );
    assert.equal(receiver.at('/refusals').length, 0);
  });
});

describe('a loopback webhook URL without TESSERA_OUTBOUND_ALLOW_PRIVATE', () => {
  let server: TestServer;
  let owner: string;
  before(async () => {
    server = await startServer({ webhooks: false });
    ({ owner } = await ownerMemberStranger(server));
  });
  after(async () => {
    await server?.close();
  });

  test('is refused at creation and update with a 400 naming the setting', async () => {
    for (const url of [
      'https://localhost:8443/hook',
      'https://hooks.localhost/hook',
      'https://127.0.0.1/hook',
      'https://127.1.2.3:9000/',
      'https://[::1]:8443/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost./hook',
      'https://hooks.localhost./hook',
      'https://0.0.0.0/hook',
      'https://[::]/hook',
    ]) {
      const res = await call(server, 'POST', '/organizations/acme/webhooks', owner, { url, events: ['#'] });
      assert.deepEqual(
        [res.status, res.body],
        [400, { error: 'invalid_request', error_detail: ALLOW_PRIVATE_HINT }],
        url,
      );
    }
    const created = await call(server, 'POST', '/organizations/acme/webhooks', owner, {
      url: 'https://hooks.example.com/hook',
      events: ['#'],
    });
    assert.equal(created.status, 201);
    const update = await call(server, 'PATCH', `/organizations/acme/webhooks/${created.body.id}`, owner, {
      url: 'https://localhost/hook',
    });
    assert.deepEqual(
      [update.status, update.body],
      [400, { error: 'invalid_request', error_detail: ALLOW_PRIVATE_HINT }],
    );
    const stored = await server.db
      .selectFrom('webhooks')
      .select('url')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.url, 'https://hooks.example.com/hook');
  });
});
