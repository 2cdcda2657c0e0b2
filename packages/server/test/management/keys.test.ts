import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import type { Org } from '../../src/domain/types.js';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, ownerMemberStranger } from './support/console.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const database of httpSuite()) {
  describe(`keys: /organizations/{org}/keys on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const logs: string[] = [];
    let server: TestServer;
    let acme: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, logs, webhooks: false });
      ({ acme, owner, member, stranger, ownerId } = await ownerMemberStranger(server));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const list = (query = '', token: string | null = owner, org = 'acme') =>
      call(server, 'GET', `/organizations/${org}/keys${query}`, token);
    const rotate = (token: string | null = owner, org = 'acme') =>
      call(server, 'POST', `/organizations/${org}/keys/rotate`, token);
    const stored = () =>
      server.db
        .selectFrom('signing_keys')
        .selectAll()
        .where('org_id', '=', acme.id)
        .orderBy('created_at')
        .execute();
    const jwksKids = async () => {
      const res = await fetch(`${server.issuer('acme')}.well-known/jwks.json`);
      return ((await res.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort();
    };

    test('GET: the next and the active key, public facts only', { skip }, async () => {
      const rows = await stored();
      const active = rows.find((r) => r.status === 'active');
      const next = rows.find((r) => r.status === 'next');
      assert.ok(active && next);
      const res = await list();
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('link'), null);
      assert.deepEqual(res.body, [
        { kid: next.kid, state: 'next', created_at: new Date(next.created_at).toISOString() },
        { kid: active.kid, state: 'active', created_at: new Date(active.created_at).toISOString() },
      ]);
      for (const key of res.body) assert.match(key.created_at, ISO_MS_UTC);
      // The same keys the org's JWKS publishes, and nothing of their material.
      assert.deepEqual(res.body.map((k: { kid: string }) => k.kid).sort(), await jwksKids());
      for (const r of rows) {
        assert.ok(!res.text.includes(r.private_key.slice(0, 40)));
        assert.ok(!res.text.includes(JSON.parse(r.public_jwk).n.slice(0, 40)));
      }
    });

    test('POST rotate: the next key signs, the old one is retired but still listed and published', {
      skip,
    }, async () => {
      const before = await list();
      const [next, active] = before.body as { kid: string }[];
      assert.ok(next && active);
      // A machine client used first, so the token endpoint's cache holds the active kid.
      const { body: machine } = await call(server, 'POST', '/organizations/acme/clients', owner, {
        client_name: 'Signer check',
        type: 'confidential',
      });
      const mint = async () => {
        const res = await tokenRequest(server.issuer('acme'), {
          grant_type: 'client_credentials',
          client_id: machine.client_id,
          client_secret: machine.client_secret,
        });
        assert.equal(res.status, 200);
        return decodeProtectedHeader(res.body.access_token as string).kid;
      };
      assert.equal(await mint(), active.kid);

      const res = await rotate();
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(res.body, { kid: next.kid });
      // Tokens minted from now on carry the new kid at once.
      assert.equal(await mint(), next.kid);

      const afterwards = await list();
      const rows = await stored();
      const fresh = rows.find((r) => r.status === 'next');
      assert.ok(fresh);
      const createdAt = (kid: string) =>
        new Date(rows.find((r) => r.kid === kid)?.created_at ?? 0).toISOString();
      assert.deepEqual(afterwards.body, [
        { kid: fresh.kid, state: 'next', created_at: createdAt(fresh.kid) },
        { kid: next.kid, state: 'active', created_at: createdAt(next.kid) },
        { kid: active.kid, state: 'retired', created_at: createdAt(active.kid) },
      ]);
      assert.deepEqual(afterwards.body.map((k: { kid: string }) => k.kid).sort(), await jwksKids());

      // Audited as the existing key-rotation entry, by the owner, with previous and changes.
      const events = await call(server, 'GET', '/organizations/acme/events?entity=signing_key', owner);
      assert.equal(events.status, 200);
      const [entry] = events.body;
      assert.equal(entry.key, 'signing_key.updated');
      assert.deepEqual(entry.actor, { kind: 'user', id: ownerId });
      assert.deepEqual(entry.data, { activeKid: next.kid, retiredKid: active.kid });
      assert.deepEqual(entry.previous, { activeKid: active.kid, retiredKid: null });
      assert.deepEqual(entry.changes, { activeKid: next.kid, retiredKid: active.kid });
      assert.ok(!events.text.includes('private'));
    });

    test('GET is paged like the event list: per_page, page, Link', { skip }, async () => {
      const all = await list();
      assert.ok(all.body.length >= 3);
      const res = await list('?per_page=1&page=1');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, [all.body[1]]);
      const base = `${server.base}/organizations/acme/keys`;
      const last = all.body.length - 1;
      assert.equal(
        res.headers.get('link'),
        [
          `<${base}?per_page=1&page=0>; rel="first"`,
          `<${base}?per_page=1&page=0>; rel="prev"`,
          `<${base}?per_page=1&page=2>; rel="next"`,
          `<${base}?per_page=1&page=${last}>; rel="last"`,
        ].join(', '),
      );
      for (const [query, detail] of [
        ['?per_page=2', 'per_page: must be 1, 50 or 100'],
        ['?state=active', 'unknown parameter: state'],
      ]) {
        const bad = await list(query);
        assert.equal(bad.status, 400);
        assert.deepEqual(bad.body, { error: 'invalid_query', error_detail: detail });
      }
    });

    test('403 for a member, 404 for a stranger or no such org, 401 without a token; nothing rotates', {
      skip,
    }, async () => {
      const before = await stored();
      const forbidden = { error: 'forbidden', error_detail: 'only an owner of the organization may do this' };
      for (const res of [await list('', member), await rotate(member)]) {
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, forbidden);
      }
      for (const [org, token] of [
        ['acme', stranger],
        ['nope', owner],
        ['beta', owner],
        ['console', owner],
      ] as const) {
        for (const res of [await list('', token, org), await rotate(token, org)]) {
          assert.equal(res.status, 404, org);
          assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such organization' });
        }
      }
      for (const res of [await list('', null), await rotate(null)]) {
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, { error: 'unauthorized', error_detail: "we don't know who you are" });
      }
      assert.deepEqual(
        (await stored()).map((r) => [r.kid, r.status]),
        before.map((r) => [r.kid, r.status]),
      );
    });

    test("a retired key stays published as long as the longest token it signed lives: an API resource's day", {
      skip,
    }, async () => {
      const resource = await call(server, 'POST', '/organizations/acme/resources', owner, {
        identifier: 'https://api.acme.test/reports',
        name: 'Reports',
        scopes: [],
        access_token_ttl: 86_400,
      });
      assert.equal(resource.status, 201, resource.text);
      const active = (await stored()).find((r) => r.status === 'active');
      assert.ok(active);
      const before = Date.now();
      assert.equal((await rotate()).status, 200);
      const retired = (await stored()).find((r) => r.kid === active.kid);
      assert.equal(retired?.status, 'retired');
      // A day (the resource's tokens) plus the 5 minutes of skew verifiers allow, from the rotation.
      const grace = retired.expires_at === null ? 0 : retired.expires_at - before;
      assert.ok(grace >= (86_400 + 300) * 1000, `published ${grace} ms after the rotation`);
      assert.ok(grace <= (86_400 + 300) * 1000 + 60_000, `published ${grace} ms after the rotation`);
      assert.ok((await jwksKids()).includes(active.kid));
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/resources/${resource.body.id}`, owner)).status,
        204,
      );
    });
  });
}
