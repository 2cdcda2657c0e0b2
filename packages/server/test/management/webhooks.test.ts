import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { disableWebhook } from '../../src/domain/directory/webhook-disable.js';
import type { Org } from '../../src/domain/types.js';
import { loadDeliveryTargets } from '../../src/storage/repos/webhooks.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, ownerMemberStranger } from './support/console.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HOOK = { url: 'https://hooks.example.com/tessera', events: ['tenant.*'] };

for (const database of httpSuite()) {
  describe(`webhooks: POST, GET, DELETE /organizations/{org}/webhooks on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const logs: string[] = [];
    let server: TestServer;
    let acme: Org;
    let beta: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;

    before(async () => {
      if (skip) return;
      // No delivery worker: these webhooks point at hooks.example.com, which must never be resolved.
      server = await startServer({ database, logs, webhooks: false });
      ({ acme, beta, owner, member, stranger, ownerId } = await ownerMemberStranger(server));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const create = (org: string, token: string | null, body: unknown = HOOK) =>
      call(server, 'POST', `/organizations/${org}/webhooks`, token, body);

    test('201: the webhook with its secret, by slug or by id; the secret is stored sealed', {
      skip,
    }, async () => {
      const res = await create('acme', owner);
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(res.body), ['id', 'url', 'events', 'active', 'created_at', 'secret']);
      assert.match(res.body.id, /^whk_[a-z0-9]{20}$/);
      assert.equal(res.body.url, HOOK.url);
      assert.deepEqual(res.body.events, ['tenant.*']);
      assert.equal(res.body.active, true);
      assert.match(res.body.created_at, ISO_MS_UTC);
      assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(res.body.secret.slice(6), 'base64').length, 32);

      const row = await server.db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.org_id, acme.id);
      assert.equal(row.active, 1);
      assert.ok(!row.secret_sealed.includes(res.body.secret.slice(6)));
      assert.equal(server.deps.sealer.open(row.secret_sealed), res.body.secret);

      const byId = await create(acme.id, owner, {
        url: 'https://hooks.example.com/b',
        events: ['#', '*.deleted', 'user.login', '*.*', 'second_factor.created', '#'],
      });
      assert.equal(byId.status, 201);
      assert.deepEqual(byId.body.events, ['#', '*.deleted', 'user.login', '*.*', 'second_factor.created']);
      assert.notEqual(byId.body.secret, res.body.secret);
    });

    test('400 invalid_request: an unknown field, or a value failing validation, named', {
      skip,
    }, async () => {
      const long = Array.from({ length: 51 }, (_, i) => `e${i}.created`);
      const cases: [unknown, string][] = [
        [{ ...HOOK, active: false }, 'unknown field: active'],
        [{ ...HOOK, secret: 'whsec_mine' }, 'unknown field: secret'],
        [{ events: HOOK.events }, 'url: Invalid input: expected string, received undefined'],
        [{ url: HOOK.url }, 'events: Invalid input: expected array, received undefined'],
        [
          { ...HOOK, url: 'http://hooks.example.com/x' },
          'url: must be an absolute https URL without credentials',
        ],
        [
          { ...HOOK, url: 'https://u:p@hooks.example.com/' },
          'url: must be an absolute https URL without credentials',
        ],
        [{ ...HOOK, url: '/relative' }, 'url: must be an absolute https URL without credentials'],
        [{ ...HOOK, url: `https://example.com/${'a'.repeat(2048)}` }, 'url: must be at most 2048 characters'],
        [{ ...HOOK, events: [] }, 'events: must hold 1 to 50 patterns'],
        [{ ...HOOK, events: long }, 'events: must hold 1 to 50 patterns'],
        [{ ...HOOK, events: 'tenant.*' }, 'events: Invalid input: expected array, received string'],
        [{ ...HOOK, events: ['tenant.*', 7] }, 'events[1]: Invalid input: expected string, received number'],
      ];
      const pattern =
        'must be #, or <entity>.<verb> where either part may be * (verbs: created, updated, deleted, login)';
      for (const bad of [
        'tenant.#',
        '#.created',
        'tenant',
        'a.b.c',
        'Tenant.created',
        'tenant.renamed',
        '',
        '**',
        'tenant.',
      ]) {
        cases.push([{ ...HOOK, events: ['user.login', bad] }, `events[1]: ${pattern}`]);
      }
      for (const [body, detail] of cases) {
        const res = await create('acme', owner, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      for (const body of ['[1]', '"text"', '{"url":', 'null']) {
        const res = await create('acme', owner, body);
        assert.equal(res.status, 400, body);
        assert.deepEqual(res.body, {
          error: 'invalid_request',
          error_detail: 'the body must be a JSON object',
        });
      }
    });

    test('403 forbidden: a member who is not an owner (before the body is read)', { skip }, async () => {
      for (const body of [HOOK, { nonsense: true }]) {
        const res = await create('acme', member, body);
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, {
          error: 'forbidden',
          error_detail: 'only an owner of the organization may do this',
        });
      }
      const list = await call(server, 'GET', '/organizations/acme/webhooks', member);
      assert.equal(list.status, 403);
    });

    test('404 not_found: no such org, an org the token cannot manage, the console org', {
      skip,
    }, async () => {
      const notFound = { error: 'not_found', error_detail: 'no such organization' };
      for (const [org, token] of [
        ['nope', owner],
        ['org_doesnotexist', owner],
        ['acme', stranger],
        [acme.id, stranger],
        ['console', owner],
      ] as const) {
        const res = await create(org, token);
        assert.equal(res.status, 404, org);
        assert.deepEqual(res.body, notFound);
        assert.equal((await call(server, 'GET', `/organizations/${org}/webhooks`, token)).status, 404);
      }
    });

    test('401: no token, or a token that is not a console token', { skip }, async () => {
      const res = await create('acme', null);
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { error: 'unauthorized', error_detail: "we don't know who you are" });
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="tessera"');
      assert.equal((await create('acme', `${owner.slice(0, -4)}AAAA`)).status, 401);
      // On an org host a console token is not that host's token: the management API is the console's.
      const onOrgHost = await fetch(`${server.issuer('acme')}organizations/acme/webhooks`, {
        headers: { authorization: `Bearer ${owner}` },
      });
      assert.equal(onOrgHost.status, 401);
    });

    test('GET lists the org’s webhooks, oldest first, never a secret', { skip }, async () => {
      const a = await create('acme', owner, { url: 'https://hooks.example.com/list-a', events: ['#'] });
      const b = await create('acme', owner, {
        url: 'https://hooks.example.com/list-b',
        events: ['*.deleted'],
      });
      await create('beta', stranger, { url: 'https://hooks.example.com/beta', events: ['#'] });
      const res = await call(server, 'GET', '/organizations/acme/webhooks', owner);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const ids = res.body.map((w: { id: string }) => w.id);
      assert.ok(ids.indexOf(a.body.id) < ids.indexOf(b.body.id));
      assert.ok(res.body.every((w: { url: string }) => !w.url.includes('/beta')));
      for (const w of res.body)
        assert.deepEqual(Object.keys(w), ['id', 'url', 'events', 'active', 'created_at']);
      assert.deepEqual(
        res.body.find((w: { id: string }) => w.id === b.body.id),
        {
          id: b.body.id,
          url: 'https://hooks.example.com/list-b',
          events: ['*.deleted'],
          active: true,
          created_at: b.body.created_at,
        },
      );
      assert.ok(!res.text.includes('whsec_'));
      assert.ok(!res.text.includes(a.body.secret));
    });

    test('GET is paged like the events list: page, per_page, Link; a bad parameter is invalid_query', {
      skip,
    }, async () => {
      const all = await call(server, 'GET', '/organizations/beta/webhooks', stranger);
      assert.equal(all.headers.get('link'), null, 'one page: no Link');
      const second = await create('beta', stranger, {
        url: 'https://hooks.example.com/beta-2',
        events: ['#'],
      });
      await create('beta', stranger, { url: 'https://hooks.example.com/beta-3', events: ['#'] });
      const total = all.body.length + 2;
      const page = await call(
        server,
        'GET',
        `/organizations/beta/webhooks?per_page=1&page=${total - 2}`,
        stranger,
      );
      assert.equal(page.status, 200);
      assert.deepEqual(
        page.body.map((w: { id: string }) => w.id),
        [second.body.id],
      );
      const base = `${server.base}/organizations/beta/webhooks`;
      assert.equal(
        page.headers.get('link'),
        [
          `<${base}?per_page=1&page=0>; rel="first"`,
          `<${base}?per_page=1&page=${total - 3}>; rel="prev"`,
          `<${base}?per_page=1&page=${total - 1}>; rel="next"`,
          `<${base}?per_page=1&page=${total - 1}>; rel="last"`,
        ].join(', '),
      );
      const past = await call(server, 'GET', '/organizations/beta/webhooks?page=9', stranger);
      assert.deepEqual(past.body, []);
      for (const [query, detail] of [
        ['per_page=7', 'per_page: must be 1, 50 or 100'],
        ['page=-1', 'page: must be a whole number from 0 to 9999999'],
        ['sort=url', 'unknown parameter: sort'],
      ] as const) {
        const bad = await call(server, 'GET', `/organizations/beta/webhooks?${query}`, stranger);
        assert.equal(bad.status, 400, query);
        assert.deepEqual(bad.body, { error: 'invalid_query', error_detail: detail });
      }
    });

    test('DELETE: 204 with no body; afterwards 404', { skip }, async () => {
      const { body: hook } = await create('acme', owner);
      const res = await call(server, 'DELETE', `/organizations/acme/webhooks/${hook.id}`, owner);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assert.equal(res.headers.get('content-type'), null);
      const list = await call(server, 'GET', '/organizations/acme/webhooks', owner);
      assert.ok(!list.body.some((w: { id: string }) => w.id === hook.id));
      const again = await call(server, 'DELETE', `/organizations/${acme.id}/webhooks/${hook.id}`, owner);
      assert.equal(again.status, 404);
      assert.deepEqual(again.body, { error: 'not_found', error_detail: 'no such webhook' });
      assert.equal(again.headers.get('tessera-error-code'), 'webhook.not_found');
    });

    test('DELETE 403 forbidden: a member, whether or not the webhook exists', { skip }, async () => {
      const { body: hook } = await create('acme', owner);
      for (const id of [hook.id, 'whk_unknown', 'nonsense']) {
        const res = await call(server, 'DELETE', `/organizations/acme/webhooks/${id}`, member);
        assert.equal(res.status, 403);
        assert.equal(res.body.error, 'forbidden');
      }
      assert.equal(
        (await call(server, 'GET', '/organizations/acme/webhooks', owner)).text.includes(hook.id),
        true,
      );
    });

    test('DELETE 404 not_found: not a whk_ id, no such webhook in this org', { skip }, async () => {
      const { body: betaHook } = await create('beta', stranger);
      for (const id of ['abc', 'cli_abc', 'org_abc', 'whk_doesnotexist', betaHook.id]) {
        const res = await call(server, 'DELETE', `/organizations/acme/webhooks/${id}`, owner);
        assert.equal(res.status, 404, id);
        assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such webhook' });
      }
      const stillThere = await call(server, 'GET', '/organizations/beta/webhooks', stranger);
      assert.ok(stillThere.body.some((w: { id: string }) => w.id === betaHook.id));
    });

    test('DELETE 404 not_found: no such org, or an org the token cannot manage', { skip }, async () => {
      const { body: betaHook } = await create('beta', stranger);
      for (const [org, token] of [
        ['nope', owner],
        ['beta', owner],
        [beta.id, owner],
        ['console', owner],
      ] as const) {
        const res = await call(server, 'DELETE', `/organizations/${org}/webhooks/${betaHook.id}`, token);
        assert.equal(res.status, 404, org);
        assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such organization' });
      }
    });

    test('create and delete are audited in the org, by the owner, without the secret', { skip }, async () => {
      const { body: hook } = await create('acme', owner, {
        url: 'https://hooks.example.com/audited',
        events: ['tenant.created', 'user.login'],
      });
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/webhooks/${hook.id}`, owner)).status,
        204,
      );
      const rows = await server.db
        .selectFrom('audit_events')
        .selectAll()
        .where('org_id', '=', acme.id)
        .where('entity', '=', 'webhook')
        .orderBy('at')
        .orderBy('id')
        .execute();
      const mine = rows.filter((r) => JSON.parse(r.data).id === hook.id);
      assert.deepEqual(
        mine.map((r) => [r.key, r.verb, r.actor_kind, r.actor_id]),
        [
          ['webhook.created', 'created', 'user', ownerId],
          ['webhook.deleted', 'deleted', 'user', ownerId],
        ],
      );
      for (const r of mine) {
        assert.deepEqual(JSON.parse(r.data), {
          id: hook.id,
          url: 'https://hooks.example.com/audited',
          events: ['tenant.created', 'user.login'],
          active: true,
          createdAt: hook.created_at,
          updatedAt: hook.created_at,
        });
      }
      // No snapshot of any webhook, and nothing the server logged, holds a secret.
      for (const r of rows) assert.ok(!`${r.data}${r.previous}${r.changes}`.includes('whsec_'));
      assert.ok(logs.length > 0);
      assert.ok(!logs.join('\n').includes('whsec_'));

      const events = await call(
        server,
        'GET',
        '/organizations/acme/events?entity=webhook&per_page=100',
        owner,
      );
      assert.equal(events.status, 200);
      const keys = events.body
        .filter((e: { data: { id: string } }) => e.data.id === hook.id)
        .map((e: { key: string }) => e.key);
      assert.deepEqual(keys, ['webhook.deleted', 'webhook.created']);
      assert.ok(!events.text.includes('whsec_'));
    });

    const patch = (id: string, token: string | null, body: unknown, org = 'acme') =>
      call(server, 'PATCH', `/organizations/${org}/webhooks/${id}`, token, body);
    const auditOfHook = async (id: string) => {
      const rows = await server.db
        .selectFrom('audit_events')
        .selectAll()
        .where('org_id', '=', acme.id)
        .where('entity', '=', 'webhook')
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.filter((r) => JSON.parse(r.data).id === id);
    };

    test('PATCH 200: url and events change, checked as on create; audited with previous and changes', {
      skip,
    }, async () => {
      const { body: hook } = await create('acme', owner, {
        url: 'https://hooks.example.com/v1',
        events: ['#'],
      });
      const res = await patch(hook.id, owner, {
        url: 'https://hooks.example.com/v2',
        events: ['user.*', 'tenant.deleted', 'user.*'],
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const expected = {
        id: hook.id,
        url: 'https://hooks.example.com/v2',
        events: ['user.*', 'tenant.deleted'],
        active: true,
        created_at: hook.created_at,
      };
      assert.deepEqual(res.body, expected);
      assert.ok(!res.text.includes('whsec_'));
      const listed = await call(server, 'GET', '/organizations/acme/webhooks', owner);
      assert.deepEqual(
        listed.body.find((w: { id: string }) => w.id === hook.id),
        expected,
      );
      // The same values again, or nothing at all: 200, nothing recorded.
      assert.deepEqual(
        (await patch(hook.id, owner, { events: ['user.*', 'tenant.deleted'] })).body,
        expected,
      );
      assert.deepEqual((await patch(hook.id, owner, {})).body, expected);
      // The signing secret is untouched.
      const row = await server.db
        .selectFrom('webhooks')
        .select(['secret_sealed', 'updated_at'])
        .where('id', '=', hook.id)
        .executeTakeFirstOrThrow();
      assert.equal(server.deps.sealer.open(row.secret_sealed), hook.secret);

      const entries = await auditOfHook(hook.id);
      assert.deepEqual(
        entries.map((e) => [e.key, e.actor_kind, e.actor_id]),
        [
          ['webhook.created', 'user', ownerId],
          ['webhook.updated', 'user', ownerId],
        ],
      );
      const update = entries[1];
      assert.ok(update);
      const updatedAt = new Date(row.updated_at).toISOString();
      assert.deepEqual(JSON.parse(update.previous ?? ''), {
        id: hook.id,
        url: 'https://hooks.example.com/v1',
        events: ['#'],
        active: true,
        createdAt: hook.created_at,
        updatedAt: hook.created_at,
      });
      assert.deepEqual(JSON.parse(update.changes ?? ''), {
        url: 'https://hooks.example.com/v2',
        events: ['user.*', 'tenant.deleted'],
        updatedAt,
      });
      assert.deepEqual(JSON.parse(update.data), {
        id: hook.id,
        url: 'https://hooks.example.com/v2',
        events: ['user.*', 'tenant.deleted'],
        active: true,
        createdAt: hook.created_at,
        updatedAt,
      });
      for (const e of entries) assert.ok(!`${e.data}${e.previous}${e.changes}`.includes('whsec_'));
      const events = await call(
        server,
        'GET',
        '/organizations/acme/events?entity=webhook&verb=updated',
        owner,
      );
      const mine = events.body.filter((e: { data: { id: string } }) => e.data.id === hook.id);
      assert.deepEqual(
        mine.map((e: { key: string; changes: unknown }) => [e.key, e.changes]),
        [['webhook.updated', JSON.parse(update.changes ?? '')]],
      );
      assert.ok(!events.text.includes('whsec_'));
    });

    test('PATCH active: true turns a webhook that deliveries disabled back on; events reach it again', {
      skip,
    }, async () => {
      const { body: hook } = await create('acme', owner, {
        url: 'https://hooks.example.com/flaky',
        events: ['client.created'],
      });
      // What the delivery worker does after a 410 or the last failed retry.
      const target = (await loadDeliveryTargets(server.db, [hook.id])).get(hook.id);
      assert.ok(target);
      await server.db.transaction().execute((trx) => disableWebhook(trx, target, Date.now()));
      const queued = () =>
        server.db
          .selectFrom('webhook_deliveries')
          .select(['event_key', 'status'])
          .where('webhook_id', '=', hook.id)
          .execute();
      const newClient = (name: string) =>
        call(server, 'POST', '/organizations/acme/clients', owner, {
          client_name: name,
          type: 'confidential',
        });
      assert.equal((await newClient('While off')).status, 201);
      assert.deepEqual(await queued(), []);

      const res = await patch(hook.id, owner, { active: true });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        id: hook.id,
        url: 'https://hooks.example.com/flaky',
        events: ['client.created'],
        active: true,
        created_at: hook.created_at,
      });
      assert.equal((await newClient('Back on')).status, 201);
      assert.deepEqual(await queued(), [{ event_key: 'client.created', status: 'pending' }]);

      const entries = await auditOfHook(hook.id);
      assert.deepEqual(
        entries.map((e) => [e.key, e.actor_kind, e.actor_id, JSON.parse(e.changes ?? '{}').active]),
        [
          ['webhook.created', 'user', ownerId, undefined],
          ['webhook.updated', 'system', null, false],
          ['webhook.updated', 'user', ownerId, true],
        ],
      );
      // And off again by hand.
      const off = await patch(hook.id, owner, { active: false });
      assert.equal(off.body.active, false);
    });

    test('PATCH 400 invalid_request: unknown field or a value failing the create rules, named', {
      skip,
    }, async () => {
      const { body: hook } = await create('acme', owner);
      const pattern =
        'must be #, or <entity>.<verb> where either part may be * (verbs: created, updated, deleted, login)';
      const cases: [unknown, string][] = [
        [{ secret: 'whsec_mine' }, 'unknown field: secret'],
        [{ id: 'whk_other' }, 'unknown field: id'],
        [{ url: 'http://hooks.example.com/x' }, 'url: must be an absolute https URL without credentials'],
        [{ url: null }, 'url: Invalid input: expected string, received null'],
        [{ events: [] }, 'events: must hold 1 to 50 patterns'],
        [{ events: ['tenant.renamed'] }, `events[0]: ${pattern}`],
        [{ active: 'yes' }, 'active: Invalid input: expected boolean, received string'],
      ];
      for (const [body, detail] of cases) {
        const res = await patch(hook.id, owner, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      const res = await patch(hook.id, owner, '[1]');
      assert.deepEqual(res.body, {
        error: 'invalid_request',
        error_detail: 'the body must be a JSON object',
      });
      assert.deepEqual(
        (await auditOfHook(hook.id)).map((e) => e.key),
        ['webhook.created'],
      );
    });

    test('PATCH 403 for a member, 404 for no such webhook or org, 401 without a token', {
      skip,
    }, async () => {
      const { body: hook } = await create('acme', owner);
      const { body: betaHook } = await create('beta', stranger);
      for (const id of [hook.id, 'whk_unknown', 'nonsense']) {
        const res = await patch(id, member, { active: false });
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, {
          error: 'forbidden',
          error_detail: 'only an owner of the organization may do this',
        });
      }
      for (const id of ['abc', 'cli_abc', 'whk_doesnotexist', betaHook.id]) {
        const res = await patch(id, owner, { active: false });
        assert.equal(res.status, 404, id);
        assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such webhook' });
      }
      for (const [org, token] of [
        ['beta', owner],
        ['nope', owner],
        ['console', owner],
      ] as const) {
        const res = await patch(betaHook.id, token, { active: false }, org);
        assert.equal(res.status, 404, org);
        assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such organization' });
      }
      const anonymous = await patch(hook.id, null, { active: false });
      assert.equal(anonymous.status, 401);
      assert.deepEqual(anonymous.body, { error: 'unauthorized', error_detail: "we don't know who you are" });
      const listed = await call(server, 'GET', '/organizations/acme/webhooks', owner);
      assert.equal(listed.body.find((w: { id: string }) => w.id === hook.id).active, true);
      const betaListed = await call(server, 'GET', '/organizations/beta/webhooks', stranger);
      assert.equal(betaListed.body.find((w: { id: string }) => w.id === betaHook.id).active, true);
    });
  });
}
