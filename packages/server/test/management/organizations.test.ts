import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from './support/console.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NOT_FOUND = { error: 'not_found', error_detail: 'no such organization' };
const FORBIDDEN = { error: 'forbidden', error_detail: 'only an owner of the organization may do this' };
const UNAUTHORIZED = { error: 'unauthorized', error_detail: "we don't know who you are" };

for (const database of httpSuite()) {
  describe(`organizations: GET, POST /organizations and /organizations/{org}/settings on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let acme: Org;
    let beta: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;

    const userId = async (email: string) =>
      (await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow())
        .id;
    /** The org's audit entries of one entity, newest first, through the API. */
    const events = async (org: string, entity: string) => {
      const res = await call(
        server,
        'GET',
        `/organizations/${org}/events?entity=${entity}&per_page=100`,
        owner,
      );
      assert.equal(res.status, 200);
      return res.body;
    };

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      acme = await ownedOrg(server, 'acme');
      beta = await ownedOrg(server, 'beta');
      await addConsoleMember(server, acme, 'mel@console.test', 'member');
      await addConsoleMember(server, beta, 'mel@console.test', 'owner');
      const console_ = await consoleOf(server);
      owner = await console_.token('owner@acme.test');
      member = await console_.token('mel@console.test');
      stranger = await console_.token('owner@beta.test');
      ownerId = await userId('owner@acme.test');
    });
    after(async () => {
      if (!skip) await server.close();
    });

    test('GET /organizations: the caller’s orgs with their role, by slug, the console org aside', {
      skip,
    }, async () => {
      const mine = await call(server, 'GET', '/organizations', owner);
      assert.equal(mine.status, 200);
      assert.equal(mine.headers.get('cache-control'), 'no-store');
      assert.equal(mine.headers.get('link'), null);
      assert.deepEqual(mine.body, [{ id: acme.id, slug: 'acme', name: 'acme', role: 'owner' }]);

      const mel = await call(server, 'GET', '/organizations?per_page=100', member);
      assert.deepEqual(mel.body, [
        { id: acme.id, slug: 'acme', name: 'acme', role: 'member' },
        { id: beta.id, slug: 'beta', name: 'beta', role: 'owner' },
      ]);
    });

    test('GET /organizations pages like the events list', { skip }, async () => {
      const base = `${server.base}/organizations`;
      const first = await call(server, 'GET', '/organizations?per_page=1', member);
      assert.equal(first.status, 200);
      assert.deepEqual(first.body, [{ id: acme.id, slug: 'acme', name: 'acme', role: 'member' }]);
      assert.equal(
        first.headers.get('link'),
        `<${base}?per_page=1&page=0>; rel="first", <${base}?per_page=1&page=1>; rel="next", ` +
          `<${base}?per_page=1&page=1>; rel="last"`,
      );
      const second = await call(server, 'GET', '/organizations?page=1&per_page=1', member);
      assert.deepEqual(second.body, [{ id: beta.id, slug: 'beta', name: 'beta', role: 'owner' }]);
      assert.equal(
        second.headers.get('link'),
        `<${base}?per_page=1&page=0>; rel="first", <${base}?per_page=1&page=0>; rel="prev", ` +
          `<${base}?per_page=1&page=1>; rel="last"`,
      );
      const past = await call(server, 'GET', '/organizations?page=5&per_page=1', member);
      assert.equal(past.status, 200);
      assert.deepEqual(past.body, []);

      for (const [query, detail] of [
        ['per_page=7', 'per_page: must be 1, 50 or 100'],
        ['page=-1', 'page: must be a whole number from 0 to 9999999'],
        ['page=1&page=2', 'repeated parameter: page'],
        ['q=acme', 'unknown parameter: q'],
      ]) {
        const res = await call(server, 'GET', `/organizations?${query}`, member);
        assert.equal(res.status, 400, query);
        assert.deepEqual(res.body, { error: 'invalid_query', error_detail: detail });
      }
    });

    test('GET and POST /organizations: 401 without a console token', { skip }, async () => {
      for (const method of ['GET', 'POST']) {
        const res = await call(
          server,
          method,
          '/organizations',
          null,
          method === 'POST' ? { slug: 'x' } : undefined,
        );
        assert.equal(res.status, 401, method);
        assert.deepEqual(res.body, UNAUTHORIZED);
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="tessera"');
      }
      assert.equal((await call(server, 'GET', '/organizations', `${owner.slice(0, -4)}AAAA`)).status, 401);
      const onOrgHost = await fetch(`${server.issuer('acme')}organizations`, {
        headers: { authorization: `Bearer ${owner}` },
      });
      assert.equal(onOrgHost.status, 401);
    });

    test('POST /organizations: 201, the caller owns the new org, audited in it', { skip }, async () => {
      const res = await call(server, 'POST', '/organizations', owner, {
        slug: 'gamma',
        name: '  Gamma Ltd ',
      });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.body.id, /^org_/);
      assert.deepEqual(res.body, {
        id: res.body.id,
        slug: 'gamma',
        name: 'Gamma Ltd',
        issuer: server.issuer('gamma'),
      });
      const row = await server.db
        .selectFrom('memberships')
        .selectAll()
        .where('org_id', '=', res.body.id)
        .execute();
      assert.deepEqual(
        row.map((m) => [m.user_id, m.role]),
        [[ownerId, 'owner']],
      );
      const mine = await call(server, 'GET', '/organizations', owner);
      assert.deepEqual(mine.body, [
        { id: acme.id, slug: 'acme', name: 'acme', role: 'owner' },
        { id: res.body.id, slug: 'gamma', name: 'Gamma Ltd', role: 'owner' },
      ]);
      // The new org's issuer answers with its own discovery document.
      const discovery = await fetch(`${server.issuer('gamma')}.well-known/openid-configuration`);
      assert.equal(discovery.status, 200);
      assert.equal(((await discovery.json()) as { issuer: string }).issuer, server.issuer('gamma'));

      const all = await call(server, 'GET', '/organizations/gamma/events', owner);
      assert.deepEqual(
        all.body.map((e: { key: string }) => e.key),
        ['membership.created', 'organization.created'],
      );
      const [membership, created] = all.body;
      assert.deepEqual(created.actor, { kind: 'user', id: ownerId });
      assert.match(created.data.createdAt, ISO_MS_UTC);
      assert.deepEqual(created.data, {
        id: res.body.id,
        slug: 'gamma',
        name: 'Gamma Ltd',
        signUp: 'open',
        signUpDomains: [],
        createdAt: created.data.createdAt,
      });
      assert.deepEqual(membership.actor, { kind: 'user', id: ownerId });
      assert.deepEqual(membership.data, {
        orgId: res.body.id,
        userId: ownerId,
        email: 'owner@acme.test',
        role: 'owner',
      });
      assert.ok(!all.text.includes('password'));
      assert.ok(!all.text.includes('$argon2'));
    });

    test('POST /organizations: the name defaults to the slug; any console user may create one', {
      skip,
    }, async () => {
      const res = await call(server, 'POST', '/organizations', member, { slug: 'delta' });
      assert.equal(res.status, 201);
      assert.deepEqual(res.body, {
        id: res.body.id,
        slug: 'delta',
        name: 'delta',
        issuer: server.issuer('delta'),
      });
      const settings = await call(server, 'GET', '/organizations/delta/settings', member);
      assert.equal(settings.status, 200);
      assert.equal((await call(server, 'GET', '/organizations/delta/settings', owner)).status, 404);
    });

    test('POST /organizations: 409 conflict for a slug in use', { skip }, async () => {
      for (const slug of ['acme', 'beta']) {
        const res = await call(server, 'POST', '/organizations', stranger, { slug, name: 'Mine now' });
        assert.equal(res.status, 409, slug);
        assert.deepEqual(res.body, {
          error: 'conflict',
          error_detail: `an organization with slug "${slug}" exists`,
        });
      }
      const settings = await call(server, 'GET', '/organizations/acme/settings', owner);
      assert.equal(settings.body.name, 'acme');
    });

    test('POST /organizations: 400 invalid_request naming the field, as the CLI checks it', {
      skip,
    }, async () => {
      const slugRule = 'slug: must be 1-40 lowercase letters, digits or inner hyphens';
      const cases: [unknown, string][] = [
        [{ slug: 'epsilon', owner: 'x' }, 'unknown field: owner'],
        [{ name: 'No slug' }, 'slug: Invalid input: expected string, received undefined'],
        [{ slug: 7 }, 'slug: Invalid input: expected string, received number'],
        [{ slug: 'Bad Slug' }, slugRule],
        [{ slug: '-edge' }, slugRule],
        [{ slug: 'a'.repeat(41) }, slugRule],
        [{ slug: '' }, slugRule],
        [{ slug: 'console' }, 'slug: "console" is reserved'],
        [{ slug: 'www' }, 'slug: "www" is reserved'],
        [{ slug: 'epsilon', name: '' }, 'name: must be 1-200 characters'],
        [{ slug: 'epsilon', name: '   ' }, 'name: must be 1-200 characters'],
        [{ slug: 'epsilon', name: 'x'.repeat(201) }, 'name: must be 1-200 characters'],
        [{ slug: 'epsilon', name: 'tab\there' }, 'name: must not contain control characters'],
        [{ slug: 'epsilon', name: null }, 'name: Invalid input: expected string, received null'],
      ];
      for (const [body, detail] of cases) {
        const res = await call(server, 'POST', '/organizations', owner, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      for (const body of ['[1]', '"text"', '{"slug":', 'null']) {
        const res = await call(server, 'POST', '/organizations', owner, body);
        assert.equal(res.status, 400, body);
        assert.deepEqual(res.body, {
          error: 'invalid_request',
          error_detail: 'the body must be a JSON object',
        });
      }
      const count = await server.db
        .selectFrom('organizations')
        .select('slug')
        .where('slug', '=', 'epsilon')
        .execute();
      assert.deepEqual(count, []);
    });

    test('GET /organizations/{org}/settings: owners and members, by slug or id', { skip }, async () => {
      const expected = {
        id: acme.id,
        slug: 'acme',
        name: 'acme',
        issuer: server.issuer('acme'),
        require_mfa: false,
        dynamic_registration: false,
        metadata_documents: false,
        sign_up: 'open',
        sign_up_domains: [],
        require_pushed_authorization_requests: false,
        id_token_signing_alg: 'RS256',
        default_locale: null,
      };
      for (const [org, token] of [
        ['acme', owner],
        [acme.id, owner],
        ['acme', member],
      ] as const) {
        const res = await call(server, 'GET', `/organizations/${org}/settings`, token);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('cache-control'), 'no-store');
        assert.deepEqual(res.body, expected);
      }
    });

    test('settings: 404 for a stranger, an unknown org or the console org; 401 without a token', {
      skip,
    }, async () => {
      for (const [org, token] of [
        ['acme', stranger],
        [acme.id, stranger],
        ['nope', owner],
        ['org_doesnotexist', owner],
        ['console', owner],
      ] as const) {
        for (const method of ['GET', 'PATCH']) {
          const res = await call(
            server,
            method,
            `/organizations/${org}/settings`,
            token,
            method === 'PATCH' ? {} : undefined,
          );
          assert.equal(res.status, 404, `${method} ${org}`);
          assert.deepEqual(res.body, NOT_FOUND);
        }
      }
      for (const method of ['GET', 'PATCH']) {
        const res = await call(server, method, '/organizations/acme/settings', null);
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, UNAUTHORIZED);
      }
    });

    test('PATCH settings: 403 for a member, whatever the body; nothing changes', { skip }, async () => {
      for (const body of [{ name: 'Taken over' }, { nonsense: true }]) {
        const res = await call(server, 'PATCH', '/organizations/acme/settings', member, body);
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, FORBIDDEN);
      }
      assert.equal((await call(server, 'GET', '/organizations/acme/settings', member)).body.name, 'acme');
    });

    test('PATCH settings: 400 invalid_request naming the field', { skip }, async () => {
      const cases: [unknown, string][] = [
        [{ slug: 'renamed' }, 'unknown field: slug'],
        [{ name: 'Acme', issuer: 'https://evil.example/' }, 'unknown field: issuer'],
        [{ require_mfa: 'yes' }, 'require_mfa: Invalid input: expected boolean, received string'],
        [{ require_mfa: null }, 'require_mfa: Invalid input: expected boolean, received null'],
        [{ name: '' }, 'name: must be 1-200 characters'],
        [{ name: 42 }, 'name: Invalid input: expected string, received number'],
      ];
      for (const [body, detail] of cases) {
        const res = await call(server, 'PATCH', '/organizations/acme/settings', owner, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      const res = await call(server, 'PATCH', '/organizations/acme/settings', owner, '[]');
      assert.deepEqual(res.body, {
        error: 'invalid_request',
        error_detail: 'the body must be a JSON object',
      });
    });

    test('PATCH settings: renames, requires the second factor, audited with previous and changes', {
      skip,
    }, async () => {
      const before = (await events('acme', 'organization')).length;
      const issuer = server.issuer('acme');
      const renamed = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
        name: ' Acme Inc ',
      });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.headers.get('cache-control'), 'no-store');
      assert.deepEqual(renamed.body, {
        id: acme.id,
        slug: 'acme',
        name: 'Acme Inc',
        issuer,
        require_mfa: false,
        dynamic_registration: false,
        metadata_documents: false,
        sign_up: 'open',
        sign_up_domains: [],
        require_pushed_authorization_requests: false,
        id_token_signing_alg: 'RS256',
        default_locale: null,
      });

      const both = await call(server, 'PATCH', `/organizations/${acme.id}/settings`, owner, {
        name: 'Acme Corp',
        require_mfa: true,
      });
      assert.deepEqual(both.body, {
        id: acme.id,
        slug: 'acme',
        name: 'Acme Corp',
        issuer,
        require_mfa: true,
        dynamic_registration: false,
        metadata_documents: false,
        sign_up: 'open',
        sign_up_domains: [],
        require_pushed_authorization_requests: false,
        id_token_signing_alg: 'RS256',
        default_locale: null,
      });
      // What members see, in the list of orgs too.
      assert.deepEqual((await call(server, 'GET', '/organizations/acme/settings', member)).body, both.body);
      assert.deepEqual((await call(server, 'GET', '/organizations', owner)).body[0], {
        id: acme.id,
        slug: 'acme',
        name: 'Acme Corp',
        role: 'owner',
      });
      const policy = await server.db
        .selectFrom('org_sign_in_policies')
        .select('require_mfa')
        .where('org_id', '=', acme.id)
        .executeTakeFirstOrThrow();
      assert.equal(policy.require_mfa, 1);

      // Changing nothing answers the settings and writes no entry.
      for (const body of [{}, { name: 'Acme Corp', require_mfa: true }]) {
        const same = await call(server, 'PATCH', '/organizations/acme/settings', owner, body);
        assert.equal(same.status, 200);
        assert.deepEqual(same.body, both.body);
      }
      const off = await call(server, 'PATCH', '/organizations/acme/settings', owner, { require_mfa: false });
      assert.equal(off.body.require_mfa, false);

      const now = await events('acme', 'organization');
      const entries = now.slice(0, now.length - before);
      assert.deepEqual(
        entries.map((e: { key: string }) => e.key),
        ['organization.updated', 'organization.updated', 'organization.updated'],
      );
      const [third, second, first] = entries;
      const createdAt = first.data.createdAt;
      assert.match(createdAt, ISO_MS_UTC);
      const snap = (name: string, requireMfa: boolean) => ({
        id: acme.id,
        slug: 'acme',
        name,
        signUp: 'open',
        signUpDomains: [],
        createdAt,
        requireMfa,
        dynamicRegistration: false,
        metadataDocuments: false,
        requirePushedRequests: false,
        idTokenSigningAlg: 'RS256',
        defaultLocale: null,
      });
      for (const e of entries) assert.deepEqual(e.actor, { kind: 'user', id: ownerId });
      assert.deepEqual(
        [first.data, first.previous, first.changes],
        [snap('Acme Inc', false), snap('acme', false), { name: 'Acme Inc' }],
      );
      assert.deepEqual(
        [second.data, second.previous, second.changes],
        [snap('Acme Corp', true), snap('Acme Inc', false), { name: 'Acme Corp', requireMfa: true }],
      );
      assert.deepEqual(
        [third.data, third.previous, third.changes],
        [snap('Acme Corp', false), snap('Acme Corp', true), { requireMfa: false }],
      );
    });

    test('PATCH settings: dynamic_registration and metadata_documents are stored, audited and off by default', {
      skip,
    }, async () => {
      // Stored on the org’s row (migration 023), which differs by database: hence both.
      const beforeEntries = (await events('acme', 'organization')).length;
      const read = await call(server, 'GET', '/organizations/acme/settings', owner);
      assert.deepEqual([read.body.dynamic_registration, read.body.metadata_documents], [false, false]);
      const on = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
        dynamic_registration: true,
      });
      assert.equal(on.status, 200);
      assert.deepEqual([on.body.dynamic_registration, on.body.metadata_documents], [true, false]);
      const both = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
        metadata_documents: true,
      });
      assert.deepEqual([both.body.dynamic_registration, both.body.metadata_documents], [true, true]);
      assert.deepEqual((await call(server, 'GET', '/organizations/acme/settings', member)).body, both.body);
      const row = await server.db
        .selectFrom('organizations')
        .select(['dynamic_registration', 'metadata_documents'])
        .where('id', '=', acme.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { dynamic_registration: 1, metadata_documents: 1 });

      // Members may not change them; a value that is not a boolean is refused by name.
      const denied = await call(server, 'PATCH', '/organizations/acme/settings', member, {
        dynamic_registration: false,
      });
      assert.equal(denied.status, 403);
      const bad = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
        metadata_documents: 'yes',
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body, {
        error: 'invalid_request',
        error_detail: 'metadata_documents: Invalid input: expected boolean, received string',
      });

      const off = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
        dynamic_registration: false,
        metadata_documents: false,
      });
      assert.deepEqual([off.body.dynamic_registration, off.body.metadata_documents], [false, false]);
      const now = await events('acme', 'organization');
      const [closed, second, first] = now.slice(0, now.length - beforeEntries);
      assert.deepEqual(first.changes, { dynamicRegistration: true });
      assert.deepEqual(second.changes, { metadataDocuments: true });
      assert.deepEqual(closed.changes, { dynamicRegistration: false, metadataDocuments: false });
      assert.deepEqual(
        [closed.data.dynamicRegistration, closed.previous.dynamicRegistration, closed.actor],
        [false, true, { kind: 'user', id: ownerId }],
      );
    });
  });
}
