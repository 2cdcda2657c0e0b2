import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import type { AuditEventsTable } from '../../src/storage/schema.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  ALICE,
  entryOf,
  newestFirst,
  ROBOT,
  replaceAuditLog,
  SEED_START,
  seedRows,
} from './support/audit-entries.js';
import { call, ownerMemberStranger } from './support/console.js';
import { linkRelations } from './support/paging.js';

const ROWS = 130;
const HOUR = 3_600_000;

/** Each filter of the spec, with the rows it must select. */
const FILTER_CASES: [string, (r: AuditEventsTable) => boolean][] = [
  ['entity=tenant', (r) => r.entity === 'tenant'],
  ['verb=updated', (r) => r.verb === 'updated'],
  ['verb=login', (r) => r.verb === 'login'],
  [`actor_id=${ALICE}`, (r) => r.actor_id === ALICE],
  [`actor_id=${ROBOT}`, (r) => r.actor_id === ROBOT],
  ['key_prefix=user.', (r) => r.key.startsWith('user.')],
  ['key_prefix=me', (r) => r.key.startsWith('me')],
  ['key_prefix=client.deleted', (r) => r.key === 'client.deleted'],
  // A date is its UTC midnight; `from` is inclusive, `to` exclusive.
  ['from=2024-03-03', (r) => r.at >= Date.UTC(2024, 2, 3)],
  ['to=2024-03-02T05:00:00Z', (r) => r.at < SEED_START + 29 * HOUR],
  [
    'from=2024-03-02T06:30:00%2B01:00&to=2024-03-04T07:00:00.000Z',
    (r) => r.at >= SEED_START + 30 * HOUR && r.at < SEED_START + 79 * HOUR,
  ],
  [
    `entity=user&verb=updated&actor_id=${ALICE}&from=2024-03-01T10:00:00Z`,
    (r) =>
      r.entity === 'user' && r.verb === 'updated' && r.actor_id === ALICE && r.at >= SEED_START + 10 * HOUR,
  ],
  ['entity=organization', () => false],
  ['verb=deleted&key_prefix=tenant', (r) => r.key === 'tenant.deleted'],
  ['from=2024-03-04&to=2024-03-02', () => false],
];

for (const database of storageSuite(
  "the event list's counts (audit_counts) and paging SQL, every filter and the live tail, on each dialect",
)) {
  describe(`GET /organizations/{org}/events on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'owner: newest first, 50 by default, each entry in the spec’s shape',
      'per_page 1, 50 and 100; page is zero-based; a page past the end is empty',
      'every filter, alone and together, on every page (walked through Link next)',
      'entries written after the first read are listed and counted',
      'Link on the first, a middle, the last and the only page, keeping the filters',
    ]);
    let server: TestServer;
    let acme: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    let rows: AuditEventsTable[];
    let base: string;

    before(async () => {
      if (skip) return;
      // No delivery worker: the webhooks made here point at hooks.example.com, which must never be resolved.
      server = await startServer({ database, webhooks: false });
      ({ acme, owner, member, stranger } = await ownerMemberStranger(server));
      rows = newestFirst(seedRows(acme.id, ROWS));
      await replaceAuditLog(server.db, acme.id, rows);
      base = `${server.base}/organizations/acme/events`;
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const list = (query: string, token: string | null = owner, org = 'acme') =>
      call(server, 'GET', `/organizations/${org}/events${query === '' ? '' : `?${query}`}`, token);

    /** Every page of `query`, walking the `next` relation from page 0; checks each page's size. */
    async function walk(query: string, perPage: number) {
      const seen: unknown[] = [];
      let url: string | undefined = `${base}?${query}${query ? '&' : ''}per_page=${perPage}`;
      let pages = 0;
      while (url) {
        const res = await call(server, 'GET', url.slice(server.base.length), owner);
        assert.equal(res.status, 200, url);
        assert.ok(res.body.length <= perPage);
        seen.push(...res.body);
        url = linkRelations(res.headers.get('link')).next;
        pages++;
      }
      return { seen, pages };
    }

    test('owner: newest first, 50 by default, each entry in the spec’s shape', { skip }, async () => {
      const res = await list('');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const entries: Array<Record<string, string>> = res.body;
      assert.deepEqual(entries, rows.slice(0, 50).map(entryOf));
      // The two newest share a time: the larger id comes first.
      assert.equal(entries[0]?.at, entries[1]?.at);
      assert.ok((entries[0]?.id ?? '') > (entries[1]?.id ?? ''));
      const updated = res.body.find((e: { verb: string }) => e.verb === 'updated');
      assert.deepEqual(Object.keys(updated), [
        'id',
        'key',
        'entity',
        'verb',
        'at',
        'actor',
        'data',
        'previous',
        'changes',
      ]);
      const created = res.body.find((e: { verb: string }) => e.verb === 'created');
      assert.deepEqual(Object.keys(created), ['id', 'key', 'entity', 'verb', 'at', 'actor', 'data']);
      // The org is addressed by its id as well as by its slug.
      assert.deepEqual((await list('', owner, acme.id)).body, res.body);
    });

    test('per_page 1, 50 and 100; page is zero-based; a page past the end is empty', { skip }, async () => {
      for (const perPage of [1, 50, 100]) {
        const last = Math.ceil(ROWS / perPage) - 1;
        for (const page of [0, 1, last]) {
          const res = await list(`per_page=${perPage}&page=${page}`);
          assert.equal(res.status, 200);
          assert.deepEqual(
            res.body,
            rows.slice(page * perPage, (page + 1) * perPage).map(entryOf),
            `per_page=${perPage}&page=${page}`,
          );
        }
        const past = await list(`per_page=${perPage}&page=${last + 1}`);
        assert.equal(past.status, 200);
        assert.deepEqual(past.body, []);
      }
      assert.deepEqual((await list('page=9999999')).body, []);
      assert.deepEqual((await list('page=1')).body, rows.slice(50, 100).map(entryOf));
    });

    test('every filter, alone and together, on every page (walked through Link next)', { skip }, async () => {
      for (const [query, keep] of FILTER_CASES) {
        const expected = rows.filter(keep).map(entryOf);
        for (const perPage of [50, 1]) {
          if (perPage === 1 && expected.length > 30) continue;
          const { seen, pages } = await walk(query, perPage);
          assert.deepEqual(seen, expected, `${query} per_page=${perPage}`);
          assert.equal(pages, Math.max(1, Math.ceil(expected.length / perPage)), query);
        }
        // The count behind `last` is exact for every filter.
        const one = await list(`${query}&per_page=1`);
        const lastUrl = linkRelations(one.headers.get('link')).last;
        if (expected.length <= 1) assert.equal(lastUrl, undefined, query);
        else assert.ok(lastUrl?.endsWith(`&page=${expected.length - 1}`), `${query}: ${lastUrl}`);
      }
    });

    test('entries written after the first read are listed and counted', { skip }, async () => {
      const before = (await walk('entity=webhook', 100)).seen.length;
      const hook = await call(server, 'POST', '/organizations/acme/webhooks', owner, {
        url: 'https://hooks.example.com/events-test',
        events: ['#'],
      });
      assert.equal(hook.status, 201);
      const first = await list('entity=webhook&per_page=1');
      assert.equal(first.body[0].key, 'webhook.created');
      assert.equal(first.body[0].data.id, hook.body.id);
      assert.deepEqual(first.body[0].actor.kind, 'user');
      assert.ok(linkRelations(first.headers.get('link')).last?.endsWith(`&page=${before}`));
      const all = await list('per_page=1');
      assert.ok(linkRelations(all.headers.get('link')).last?.endsWith(`&page=${ROWS}`));
      await replaceAuditLog(server.db, acme.id, rows);
    });

    test('Link on the first, a middle, the last and the only page, keeping the filters', {
      skip,
    }, async () => {
      const filter = 'verb=created&from=2024-03-02';
      const n = rows.filter((r) => r.verb === 'created' && r.at >= Date.UTC(2024, 2, 2)).length;
      assert.equal(n, 27);
      // Filters go first in a fixed order, then per_page and page; values are re-encoded.
      const url = (page: number) => `<${base}?verb=created&from=2024-03-02&per_page=1&page=${page}>`;
      const cases: [number, string][] = [
        [0, `${url(0)}; rel="first", ${url(1)}; rel="next", ${url(26)}; rel="last"`],
        [
          13,
          `${url(0)}; rel="first", ${url(12)}; rel="prev", ${url(14)}; rel="next", ${url(26)}; rel="last"`,
        ],
        [1, `${url(0)}; rel="first", ${url(0)}; rel="prev", ${url(2)}; rel="next", ${url(26)}; rel="last"`],
        [26, `${url(0)}; rel="first", ${url(25)}; rel="prev", ${url(26)}; rel="last"`],
        // Past the end: no page before or after it has entries to point at.
        [40, `${url(0)}; rel="first", ${url(26)}; rel="last"`],
      ];
      for (const [page, link] of cases) {
        const res = await list(`page=${page}&per_page=1&from=2024-03-02&verb=created`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('link'), link, `page ${page}`);
      }
      // The only page: everything fits, no header (also with a filter that matches nothing).
      for (const query of [`${filter}&per_page=50`, `${filter}&per_page=100`, 'entity=organization']) {
        const res = await list(query);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('link'), null, query);
      }

      // Unfiltered, 50 a page (the default is written out), addressed by id; encoded values.
      const byId = `${server.base}/organizations/${acme.id}/events`;
      const middle = await list('page=1', owner, acme.id);
      assert.equal(
        middle.headers.get('link'),
        `<${byId}?per_page=50&page=0>; rel="first", <${byId}?per_page=50&page=0>; rel="prev", ` +
          `<${byId}?per_page=50&page=2>; rel="next", <${byId}?per_page=50&page=2>; rel="last"`,
      );
      const encoded = await list(`to=2024-03-09T00:00:00%2B01:00&key_prefix=te&per_page=1&actor_id=${ALICE}`);
      const q = `actor_id=${ALICE}&key_prefix=te&to=2024-03-09T00%3A00%3A00%2B01%3A00&per_page=1`;
      const tenantByAlice = rows.filter((r) => r.key.startsWith('te') && r.actor_id === ALICE).length;
      assert.equal(
        encoded.headers.get('link'),
        `<${base}?${q}&page=0>; rel="first", <${base}?${q}&page=1>; rel="next", ` +
          `<${base}?${q}&page=${tenantByAlice - 1}>; rel="last"`,
      );
      // The loopback host override is carried along, last.
      const host = `localhost:${server.port}`;
      const overridden = await list(`per_page=100&host=${host}`);
      assert.equal(
        overridden.headers.get('link'),
        `<${base}?per_page=100&page=0&host=${encodeURIComponent(host)}>; rel="first", ` +
          `<${base}?per_page=100&page=1&host=${encodeURIComponent(host)}>; rel="next", ` +
          `<${base}?per_page=100&page=1&host=${encodeURIComponent(host)}>; rel="last"`,
      );
    });

    test('400 invalid_query naming the parameter: unknown, repeated, out of range', { skip }, async () => {
      const cases: [string, string][] = [
        ['foo=1', 'unknown parameter: foo'],
        ['per_page=50&sort=asc', 'unknown parameter: sort'],
        ['page=0&page=1', 'repeated parameter: page'],
        ['per_page=1&per_page=1', 'repeated parameter: per_page'],
        ['verb=created&verb=created', 'repeated parameter: verb'],
        ['host=a&host=b', 'repeated parameter: host'],
        ...['0', '2', '10', '25', '49', '101', '1000', '-1', '050', '1.0', 'abc', ''].map(
          (v) => [`per_page=${v}`, 'per_page: must be 1, 50 or 100'] as [string, string],
        ),
        ...['-1', '1.5', 'abc', '', '01', '10000000', '1e3'].map(
          (v) => [`page=${v}`, 'page: must be a whole number from 0 to 9999999'] as [string, string],
        ),
        ['verb=renamed', 'verb: must be one of created, updated, deleted, login'],
        ['verb=', 'verb: must be one of created, updated, deleted, login'],
        ['entity=Tenant', 'entity: must be an entity type such as tenant'],
        ['entity=', 'entity: must be an entity type such as tenant'],
        ['actor_id=alice', 'actor_id: must be a user (usr_…) or client (cli_…) id'],
        ['actor_id=org_abc', 'actor_id: must be a user (usr_…) or client (cli_…) id'],
        ['key_prefix=', 'key_prefix: must be 1-130 characters of a-z, 0-9, _, - and .'],
        ['key_prefix=Tenant', 'key_prefix: must be 1-130 characters of a-z, 0-9, _, - and .'],
        ...['2024-13-01', '2024-02-30', 'yesterday', '2024-03-01T10:00:00', '1709251200000', ''].map(
          (v) =>
            [`from=${v}`, 'from: must be an ISO date (2024-05-01) or date-time with a zone'] as [
              string,
              string,
            ],
        ),
        ['to=2024-03-01T25:00:00Z', 'to: must be an ISO date (2024-05-01) or date-time with a zone'],
      ];
      for (const [query, detail] of cases) {
        const res = await list(query);
        assert.equal(res.status, 400, query);
        assert.deepEqual(res.body, { error: 'invalid_query', error_detail: detail }, query);
        assert.equal(res.headers.get('link'), null);
      }
    });

    test('404 not_found for members, strangers, unknown orgs and the console org; 401 without a token', {
      skip,
    }, async () => {
      const notFound = { error: 'not_found', error_detail: 'no such organization' };
      for (const [org, token] of [
        ['acme', member],
        [acme.id, member],
        ['acme', stranger],
        [acme.id, stranger],
        ['nope', owner],
        ['org_doesnotexist', owner],
        ['console', owner],
      ] as const) {
        // A bad query does not tell a non-owner anything either.
        for (const query of ['', 'per_page=7']) {
          const res = await list(query, token, org);
          assert.equal(res.status, 404, `${org} ${query}`);
          assert.deepEqual(res.body, notFound);
        }
      }
      const anonymous = await list('', null);
      assert.equal(anonymous.status, 401);
      assert.deepEqual(anonymous.body, { error: 'unauthorized', error_detail: "we don't know who you are" });
      assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="tessera"');
      // On an org host the management API does not exist for a console token.
      const onOrgHost = await fetch(`${server.issuer('acme')}organizations/acme/events`, {
        headers: { authorization: `Bearer ${owner}` },
      });
      assert.equal(onOrgHost.status, 401);
    });
  });
}
