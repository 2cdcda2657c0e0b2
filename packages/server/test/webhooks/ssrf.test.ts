import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Resolver } from '../../src/delivery/checked-lookup.js';
import { HttpsSender } from '../../src/delivery/https-sender.js';
import { createTenant } from '../../src/domain/directory/tenants.js';
import { startServer, type TestServer } from '../support/server.js';
import { orgWithUser, subscribe } from './support/events.js';
import { eventually } from './support/eventually.js';
import { Receiver } from './support/receiver.js';
import { testTls } from './support/tls.js';

/** One address of every range a webhook must not reach, and the word its refusal names. */
const REFUSED: [address: string, reason: RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['10.0.0.1', /RFC 1918/],
  ['172.16.0.1', /RFC 1918/],
  ['192.168.1.1', /RFC 1918/],
  ['169.254.169.254', /link-local/],
  ['100.64.0.1', /CGNAT/],
  ['0.0.0.0', /unspecified/],
  ['::1', /loopback/],
  ['fc00::1', /unique local/],
  ['fd00:ec2::254', /unique local/],
  ['fe80::1', /link-local/],
  ['::ffff:127.0.0.1', /IPv4-mapped 127\.0\.0\.1: loopback/],
  ['::ffff:169.254.169.254', /IPv4-mapped 169\.254\.169\.254: link-local/],
];

/** A resolver that answers from a table and counts its lookups. */
function fakeDns(table: Record<string, string[]>) {
  const calls: string[] = [];
  const resolver: Resolver = async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): LookupAddress => ({ address, family: isIP(address) }));
  };
  return { resolver, calls };
}

const urlHost = (address: string) => (isIP(address) === 6 ? `[${address}]` : address);

describe('webhook delivery refuses private addresses (SSRF)', () => {
  const tls = testTls();
  let receiver: Receiver;
  before(async () => {
    receiver = await Receiver.start(tls);
  });
  after(async () => {
    await receiver.close();
  });

  test('every private, loopback, link-local, CGNAT and mapped address, as a literal URL host', async () => {
    const sender = new HttpsSender({ allowPrivate: false, ca: tls.cert });
    try {
      for (const [address, reason] of REFUSED) {
        const result = await sender.post(`https://${urlHost(address)}:${receiver.port}/x`, {}, '{}');
        assert.equal(result.status, null, address);
        assert.match(result.error ?? '', /^refused to connect to /, address);
        assert.match(result.error ?? '', reason, address);
      }
    } finally {
      sender.close();
    }
    assert.equal(receiver.received.length, 0);
  });

  test('a public name that resolves to any of them is refused before connecting', async () => {
    const table = Object.fromEntries(REFUSED.map(([a], i) => [`host${i}.example`, [a]]));
    // One good address does not excuse a bad one: the name is refused as a whole.
    table['mixed.example'] = ['93.184.215.14', '127.0.0.1'];
    const dns = fakeDns(table);
    const sender = new HttpsSender({ allowPrivate: false, ca: tls.cert, resolver: dns.resolver });
    try {
      for (const [i, [address, reason]] of REFUSED.entries()) {
        const result = await sender.post(`https://host${i}.example:${receiver.port}/x`, {}, '{}');
        assert.equal(result.status, null);
        assert.match(result.error ?? '', reason, address);
        // The owner reads this error: it names their host, never the address an internal name maps to.
        assert.match(
          result.error ?? '',
          new RegExp(`^refused to connect to host${i}\\.example: an address it resolves to is `),
        );
        assert.equal(result.error?.includes(`to ${address}:`), false, address);
      }
      const mixed = await sender.post(`https://mixed.example:${receiver.port}/x`, {}, '{}');
      assert.equal(mixed.error, 'refused to connect to mixed.example: an address it resolves to is loopback');
    } finally {
      sender.close();
    }
    assert.equal(receiver.received.length, 0);
  });

  test('names that really resolve to 127.0.0.1 (`localhost`, `*.localhost`) are refused', async () => {
    const sender = new HttpsSender({ allowPrivate: false, ca: tls.cert });
    try {
      for (const host of ['localhost', 'hooks.localhost']) {
        const result = await sender.post(receiver.url('/x', host), {}, '{}');
        assert.equal(result.status, null);
        assert.equal(result.error, `refused to connect to ${host}: an address it resolves to is loopback`);
      }
    } finally {
      sender.close();
    }
    assert.equal(receiver.received.length, 0);
  });

  test('TESSERA_OUTBOUND_ALLOW_PRIVATE lets them through, to the address that was checked', async () => {
    const dns = fakeDns({ 'rebind.example': ['127.0.0.1'] });
    const system = new HttpsSender({ allowPrivate: true, ca: tls.cert });
    const sender = new HttpsSender({ allowPrivate: true, ca: tls.cert, resolver: dns.resolver });
    try {
      const literal = await system.post(receiver.url('/allowed', '127.0.0.1'), {}, '{}');
      assert.deepEqual([literal.status, literal.error], [204, null]);
      const named = await system.post(receiver.url('/allowed', 'localhost'), {}, '{}');
      assert.deepEqual([named.status, named.error], [204, null]);
      // The name is resolved once and the connection goes to that answer; TLS and Host keep the name.
      const rebound = await sender.post(receiver.url('/rebind', 'rebind.example'), {}, '{}');
      assert.deepEqual([rebound.status, rebound.error], [204, null]);
      assert.deepEqual(dns.calls, ['rebind.example']);
    } finally {
      system.close();
      sender.close();
    }
    assert.equal(receiver.at('/allowed').length, 2);
    const [rebound] = receiver.at('/rebind');
    assert.equal(rebound?.servername, 'rebind.example');
    assert.equal(rebound?.host, `rebind.example:${receiver.port}`);
  });

  describe('end to end, through a server without TESSERA_OUTBOUND_ALLOW_PRIVATE', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({
        env: { TESSERA_WEBHOOK_RETRY_SCHEDULE: '100ms' },
        webhooks: { ca: tls.cert, pollMs: 100 },
      });
    });
    after(async () => {
      await server.close();
    });

    test('the refusal is logged as the attempt’s error and the receiver hears nothing', async () => {
      const { org, userId } = await orgWithUser(server.deps, 'ssrf');
      const { webhook } = await subscribe(server.deps, org, receiver.url('/internal'), ['tenant.created']);
      await createTenant(server.deps, org, userId, 'Probe');
      const attempts = await eventually(
        async () => {
          const rows = await server.db
            .selectFrom('webhook_delivery_attempts')
            .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_delivery_attempts.delivery_id')
            .select(['webhook_delivery_attempts.status_code', 'webhook_delivery_attempts.error'])
            .where('webhook_deliveries.webhook_id', '=', webhook.id)
            .execute();
          return rows.length === 2 ? rows : null;
        },
        10_000,
        'two refused attempts',
      );
      assert.deepEqual(attempts, [
        {
          status_code: null,
          error: 'refused to connect to localhost: an address it resolves to is loopback',
        },
        {
          status_code: null,
          error: 'refused to connect to localhost: an address it resolves to is loopback',
        },
      ]);
      assert.equal(receiver.at('/internal').length, 0);
      // The schedule spent, the webhook is disabled like any other that keeps failing.
      const row = await eventually(
        () =>
          server.db.selectFrom('webhooks').select('active').where('id', '=', webhook.id).executeTakeFirst(),
        10_000,
        'the webhook',
      );
      assert.equal(row.active, 0);
    });
  });
});
