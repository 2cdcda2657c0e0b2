import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import { CALLBACK, makeUser, signIn, tokenRequest } from '../sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, ownerMemberStranger } from './support/console.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CLIENT_KEYS = [
  'client_id',
  'client_name',
  'type',
  'redirect_uris',
  'post_logout_redirect_uris',
  'grant_types',
  'first_party',
  'allowed_origins',
  'created_at',
];
const SECRET = /^tcs_[\w-]{43}$/;

for (const database of httpSuite()) {
  describe(`clients: /organizations/{org}/clients on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const logs: string[] = [];
    let server: TestServer;
    let acme: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;
    /** Every body the API answered, to check no secret other than the one just issued leaks. */
    const answered: string[] = [];

    before(async () => {
      if (skip) return;
      server = await startServer({ database, logs, webhooks: false });
      ({ acme, owner, member, stranger, ownerId } = await ownerMemberStranger(server));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const api = async (method: string, path: string, token: string | null, body?: unknown) => {
      const res = await call(server, method, path, token, body);
      answered.push(res.text);
      return res;
    };
    const create = (org: string, token: string | null, body: unknown) =>
      api('POST', `/organizations/${org}/clients`, token, body);
    const machine = (org = 'acme', name = 'Billing') =>
      create(org, org === 'acme' ? owner : stranger, { client_name: name, type: 'confidential' });
    const spa = (name = 'Notes SPA') =>
      create('acme', owner, { client_name: name, type: 'public', redirect_uris: [CALLBACK] });
    const clientCredentials = (clientId: string, secret: string) =>
      tokenRequest(server.issuer('acme'), {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      });
    /** The org's stored audit entries about one resource, oldest first. */
    const auditOf = async (id: string) => {
      const rows = await server.db
        .selectFrom('audit_events')
        .selectAll()
        .where('org_id', '=', acme.id)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.filter((r) => JSON.parse(r.data).id === id);
    };

    test('POST 201: a confidential client with its secret, shown once and stored as a hash', {
      skip,
    }, async () => {
      const res = await create('acme', owner, {
        client_name: '  Billing  ',
        type: 'confidential',
        redirect_uris: ['https://billing.example.com/cb', 'https://billing.example.com/cb'],
        post_logout_redirect_uris: ['https://billing.example.com/bye'],
      });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(res.body), [...CLIENT_KEYS, 'client_secret']);
      assert.match(res.body.client_id, /^cli_[a-z0-9]{20}$/);
      assert.match(res.body.created_at, ISO_MS_UTC);
      assert.match(res.body.client_secret, SECRET);
      assert.deepEqual(res.body, {
        client_id: res.body.client_id,
        client_name: 'Billing',
        type: 'confidential',
        redirect_uris: ['https://billing.example.com/cb'],
        post_logout_redirect_uris: ['https://billing.example.com/bye'],
        grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
        first_party: true,
        allowed_origins: ['https://billing.example.com'],
        created_at: res.body.created_at,
        client_secret: res.body.client_secret,
      });
      const row = await server.db
        .selectFrom('clients')
        .selectAll()
        .where('id', '=', res.body.client_id)
        .executeTakeFirstOrThrow();
      assert.equal(row.org_id, acme.id);
      assert.equal(row.secret_hash?.length, 43);
      assert.ok(!JSON.stringify(row).includes(res.body.client_secret.slice(4)));
      assert.equal(row.post_logout_redirect_uris, '["https://billing.example.com/bye"]');
      // The secret works at the org's token endpoint.
      assert.equal((await clientCredentials(res.body.client_id, res.body.client_secret)).status, 200);
    });

    test('POST 201: a public client has no secret; grant types and first_party as given', {
      skip,
    }, async () => {
      const res = await spa();
      assert.equal(res.status, 201);
      assert.deepEqual(res.body, {
        client_id: res.body.client_id,
        client_name: 'Notes SPA',
        type: 'public',
        redirect_uris: [CALLBACK],
        post_logout_redirect_uris: [],
        grant_types: ['authorization_code', 'refresh_token'],
        first_party: true,
        allowed_origins: ['http://127.0.0.1:8765'],
        created_at: res.body.created_at,
      });
      const third = await create(acme.id, owner, {
        client_name: 'Partner',
        type: 'public',
        redirect_uris: ['http://localhost:3000/cb'],
        grant_types: ['authorization_code', 'authorization_code'],
        first_party: false,
      });
      assert.equal(third.status, 201);
      assert.deepEqual(third.body.grant_types, ['authorization_code']);
      assert.equal(third.body.first_party, false);
      const m2m = await machine();
      assert.deepEqual(m2m.body.grant_types, ['client_credentials']);
      assert.deepEqual(m2m.body.redirect_uris, []);
    });

    test('POST 400 invalid_request: an unknown field, or a value failing validation, named', {
      skip,
    }, async () => {
      const ok = { client_name: 'App', type: 'public', redirect_uris: [CALLBACK] };
      const uriRule = 'must be https, or http on localhost, 127.0.0.1 or [::1]';
      const cases: [unknown, string][] = [
        [{ ...ok, client_secret: 'tcs_mine' }, 'unknown field: client_secret'],
        [{ ...ok, client_id: 'cli_mine' }, 'unknown field: client_id'],
        [{ type: 'public' }, 'client_name: Invalid input: expected string, received undefined'],
        [{ ...ok, client_name: '   ' }, 'client_name: must be 1-200 characters'],
        [{ ...ok, client_name: 'x'.repeat(201) }, 'client_name: must be 1-200 characters'],
        [{ ...ok, client_name: 'a\u0007b' }, 'client_name: must not contain control characters'],
        [{ client_name: 'App' }, 'type: must be public or confidential'],
        [{ ...ok, type: 'private' }, 'type: must be public or confidential'],
        [
          { ...ok, redirect_uris: 'https://a.example/cb' },
          'redirect_uris: Invalid input: expected array, received string',
        ],
        [{ ...ok, redirect_uris: ['http://app.example.com/cb'] }, `redirect_uris[0]: ${uriRule}`],
        [{ ...ok, redirect_uris: [CALLBACK, 'myapp://cb'] }, `redirect_uris[1]: ${uriRule}`],
        [{ ...ok, redirect_uris: ['https://a.example/cb#x'] }, 'redirect_uris[0]: must not have a fragment'],
        [{ ...ok, redirect_uris: ['/cb'] }, 'redirect_uris[0]: is not an absolute URL'],
        [
          { ...ok, redirect_uris: ['https://u:p@a.example/cb'] },
          'redirect_uris[0]: must not carry credentials',
        ],
        [
          { ...ok, redirect_uris: Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`) },
          'redirect_uris: must hold at most 20 URIs',
        ],
        [
          { ...ok, post_logout_redirect_uris: ['http://app.example.com/bye'] },
          `post_logout_redirect_uris[0]: ${uriRule}`,
        ],
        [
          { ...ok, grant_types: ['password'] },
          'grant_types[0]: must be one of authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code',
        ],
        [{ ...ok, grant_types: [] }, 'grant_types: must hold at least one grant type'],
        [
          { ...ok, grant_types: ['client_credentials'] },
          'grant_types: a public client cannot use client_credentials',
        ],
        [
          { client_name: 'App', type: 'public' },
          'redirect_uris: authorization_code needs at least one redirect URI',
        ],
        [
          { client_name: 'App', type: 'confidential', grant_types: ['authorization_code'] },
          'grant_types: authorization_code needs at least one redirect URI',
        ],
        [{ ...ok, first_party: 'yes' }, 'first_party: Invalid input: expected boolean, received string'],
      ];
      const before = await server.db.selectFrom('clients').select('id').execute();
      for (const [body, detail] of cases) {
        const res = await create('acme', owner, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      for (const body of ['[1]', '"text"', '{"client_name":', 'null']) {
        const res = await create('acme', owner, body);
        assert.equal(res.status, 400, body);
        assert.deepEqual(res.body, {
          error: 'invalid_request',
          error_detail: 'the body must be a JSON object',
        });
      }
      const afterwards = await server.db.selectFrom('clients').select('id').execute();
      assert.equal(afterwards.length, before.length, 'nothing was created');
    });

    test('403 forbidden for a member on every client route, whether or not the client exists', {
      skip,
    }, async () => {
      const { body: client } = await machine();
      const forbidden = { error: 'forbidden', error_detail: 'only an owner of the organization may do this' };
      const routes: [string, string, unknown?][] = [
        ['GET', '/organizations/acme/clients'],
        ['POST', '/organizations/acme/clients', { client_name: 'X', type: 'confidential' }],
        ['POST', '/organizations/acme/clients', { nonsense: true }],
      ];
      for (const id of [client.client_id, 'cli_unknown', 'nonsense']) {
        routes.push(
          ['GET', `/organizations/acme/clients/${id}`],
          ['PATCH', `/organizations/acme/clients/${id}`, { client_name: 'Y' }],
          ['DELETE', `/organizations/acme/clients/${id}`],
          ['POST', `/organizations/acme/clients/${id}/secret`],
        );
      }
      for (const [method, path, body] of routes) {
        const res = await api(method, path, member, body);
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.deepEqual(res.body, forbidden);
      }
      // The member changed nothing: the secret still works, the name is unchanged.
      assert.equal((await clientCredentials(client.client_id, client.client_secret)).status, 200);
      const still = await api('GET', `/organizations/acme/clients/${client.client_id}`, owner);
      assert.equal(still.body.client_name, 'Billing');
    });

    test('404 not_found: no such org, an org the token cannot manage, the console org; 401 without a token', {
      skip,
    }, async () => {
      const { body: betaClient } = await machine('beta');
      const notFound = { error: 'not_found', error_detail: 'no such organization' };
      for (const [org, token] of [
        ['nope', owner],
        ['org_doesnotexist', owner],
        ['beta', owner],
        ['console', owner],
        ['acme', stranger],
      ] as const) {
        for (const [method, path] of [
          ['GET', `/organizations/${org}/clients`],
          ['POST', `/organizations/${org}/clients`],
          ['GET', `/organizations/${org}/clients/${betaClient.client_id}`],
          ['PATCH', `/organizations/${org}/clients/${betaClient.client_id}`],
          ['DELETE', `/organizations/${org}/clients/${betaClient.client_id}`],
          ['POST', `/organizations/${org}/clients/${betaClient.client_id}/secret`],
        ] as const) {
          const body = method === 'POST' || method === 'PATCH' ? { client_name: 'Z' } : undefined;
          const res = await api(method, path, token, body);
          assert.equal(res.status, 404, `${method} ${path}`);
          assert.deepEqual(res.body, notFound);
        }
      }
      for (const [method, path] of [
        ['GET', '/organizations/acme/clients'],
        ['POST', '/organizations/acme/clients'],
        ['GET', `/organizations/acme/clients/${betaClient.client_id}`],
        ['PATCH', `/organizations/acme/clients/${betaClient.client_id}`],
        ['DELETE', `/organizations/acme/clients/${betaClient.client_id}`],
        ['POST', `/organizations/acme/clients/${betaClient.client_id}/secret`],
      ] as const) {
        const res = await api(method, path, null, method === 'POST' ? { client_name: 'Z' } : undefined);
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.deepEqual(res.body, { error: 'unauthorized', error_detail: "we don't know who you are" });
        assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="tessera"');
      }
      // Still there for its own owner.
      const own = await api('GET', `/organizations/beta/clients/${betaClient.client_id}`, stranger);
      assert.equal(own.status, 200);
    });

    test('404 not_found: an unknown client id, another org’s client, not a cli_ id', { skip }, async () => {
      const { body: betaClient } = await machine('beta', 'Beta worker');
      for (const id of ['cli_doesnotexist', betaClient.client_id, 'abc', 'whk_abc']) {
        for (const [method, suffix, body] of [
          ['GET', '', undefined],
          ['PATCH', '', { client_name: 'Taken over' }],
          ['DELETE', '', undefined],
          ['POST', '/secret', undefined],
        ] as const) {
          const res = await api(method, `/organizations/acme/clients/${id}${suffix}`, owner, body);
          assert.equal(res.status, 404, `${method} ${id}${suffix}`);
          assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such client' });
        }
      }
      // Beta's client is untouched: same name, same secret.
      const own = await api('GET', `/organizations/beta/clients/${betaClient.client_id}`, stranger);
      assert.equal(own.body.client_name, 'Beta worker');
      const beta = await tokenRequest(server.issuer('beta'), {
        grant_type: 'client_credentials',
        client_id: betaClient.client_id,
        client_secret: betaClient.client_secret,
      });
      assert.equal(beta.status, 200);
    });

    test('GET lists the org’s clients oldest first, paged with a Link header, never a secret', {
      skip,
    }, async () => {
      const res = await api('GET', '/organizations/acme/clients?per_page=100', owner);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.equal(res.headers.get('link'), null);
      const stored = await server.db
        .selectFrom('clients')
        .select(['id', 'name', 'created_at'])
        .where('org_id', '=', acme.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      assert.ok(stored.length >= 3);
      assert.deepEqual(
        res.body.map((c: { client_id: string }) => c.client_id),
        stored.map((c) => c.id),
      );
      for (const c of res.body) assert.deepEqual(Object.keys(c), CLIENT_KEYS);
      assert.ok(!res.text.includes('tcs_'));
      assert.ok(!res.text.includes('secret'));

      const page1 = await api('GET', '/organizations/acme/clients?per_page=1&page=1', owner);
      assert.equal(page1.status, 200);
      assert.deepEqual(page1.body, [res.body[1]]);
      const base = `${server.base}/organizations/acme/clients`;
      const last = stored.length - 1;
      assert.equal(
        page1.headers.get('link'),
        [
          `<${base}?per_page=1&page=0>; rel="first"`,
          `<${base}?per_page=1&page=0>; rel="prev"`,
          `<${base}?per_page=1&page=2>; rel="next"`,
          `<${base}?per_page=1&page=${last}>; rel="last"`,
        ].join(', '),
      );
      const past = await api('GET', '/organizations/acme/clients?page=999', owner);
      assert.deepEqual([past.status, past.body], [200, []]);

      for (const [query, detail] of [
        ['per_page=10', 'per_page: must be 1, 50 or 100'],
        ['page=-1', 'page: must be a whole number from 0 to 9999999'],
        ['type=public', 'unknown parameter: type'],
        ['page=1&page=2', 'repeated parameter: page'],
      ]) {
        const bad = await api('GET', `/organizations/acme/clients?${query}`, owner);
        assert.equal(bad.status, 400, query);
        assert.deepEqual(bad.body, { error: 'invalid_query', error_detail: detail });
      }
    });

    test('GET one: the client as created, never its secret', { skip }, async () => {
      const { body: created } = await machine('acme', 'Reader');
      const res = await api('GET', `/organizations/${acme.id}/clients/${created.client_id}`, owner);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const { client_secret: _, ...view } = created;
      assert.deepEqual(res.body, view);
    });

    test('PATCH 200: name, redirect URIs and grant types change; audited with previous and changes', {
      skip,
    }, async () => {
      const { body: created } = await spa('Editable');
      const path = `/organizations/acme/clients/${created.client_id}`;
      const res = await api('PATCH', path, owner, {
        client_name: 'Edited',
        redirect_uris: ['https://notes.example.com/cb', CALLBACK],
        post_logout_redirect_uris: ['https://notes.example.com/'],
        grant_types: ['authorization_code'],
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const expected = {
        ...created,
        client_name: 'Edited',
        redirect_uris: ['https://notes.example.com/cb', CALLBACK],
        post_logout_redirect_uris: ['https://notes.example.com/'],
        grant_types: ['authorization_code'],
        // The default follows the redirect URIs.
        allowed_origins: ['https://notes.example.com', 'http://127.0.0.1:8765'],
      };
      assert.deepEqual(res.body, expected);
      assert.deepEqual((await api('GET', path, owner)).body, expected);

      // Absent fields keep their value; the same values again change nothing and record nothing.
      const renamed = await api('PATCH', path, owner, { client_name: 'Renamed' });
      assert.deepEqual(renamed.body, { ...expected, client_name: 'Renamed' });
      const same = await api('PATCH', path, owner, {
        client_name: 'Renamed',
        grant_types: ['authorization_code'],
      });
      assert.deepEqual(same.body, { ...expected, client_name: 'Renamed' });
      const empty = await api('PATCH', path, owner, {});
      assert.equal(empty.status, 200);

      const entries = await auditOf(created.client_id);
      assert.deepEqual(
        entries.map((e) => [e.key, e.actor_kind, e.actor_id]),
        [
          ['client.created', 'user', ownerId],
          ['client.updated', 'user', ownerId],
          ['client.updated', 'user', ownerId],
        ],
      );
      const snapshot = {
        id: created.client_id,
        name: 'Editable',
        kind: 'public',
        redirectUris: [CALLBACK],
        postLogoutRedirectUris: [],
        grantTypes: ['authorization_code', 'refresh_token'],
        firstParty: true,
        allowedOrigins: null,
        secretIssuedAt: null,
        createdAt: created.created_at,
      };
      const first = entries[1];
      assert.ok(first);
      assert.deepEqual(JSON.parse(first.previous ?? ''), snapshot);
      assert.deepEqual(JSON.parse(first.changes ?? ''), {
        name: 'Edited',
        redirectUris: ['https://notes.example.com/cb', CALLBACK],
        postLogoutRedirectUris: ['https://notes.example.com/'],
        grantTypes: ['authorization_code'],
      });
      assert.deepEqual(JSON.parse(first.data), {
        ...snapshot,
        name: 'Edited',
        redirectUris: ['https://notes.example.com/cb', CALLBACK],
        postLogoutRedirectUris: ['https://notes.example.com/'],
        grantTypes: ['authorization_code'],
      });
      assert.deepEqual(JSON.parse(entries[2]?.changes ?? ''), { name: 'Renamed' });

      // The management API's event list shows the same entries, newest first.
      const events = await api('GET', '/organizations/acme/events?entity=client&per_page=100', owner);
      const mine = events.body.filter((e: { data: { id: string } }) => e.data.id === created.client_id);
      assert.deepEqual(
        mine.map((e: { key: string }) => e.key),
        ['client.updated', 'client.updated', 'client.created'],
      );
      assert.deepEqual(mine[1].changes, JSON.parse(first.changes ?? ''));
    });

    test('PATCH 400 invalid_request: unknown or fixed fields, bad values, grants the URIs cannot carry', {
      skip,
    }, async () => {
      const { body: created } = await spa('Strict');
      const path = `/organizations/acme/clients/${created.client_id}`;
      const cases: [unknown, string][] = [
        [{ type: 'confidential' }, 'unknown field: type'],
        [{ first_party: false }, 'unknown field: first_party'],
        [{ client_secret: 'tcs_x' }, 'unknown field: client_secret'],
        [{ client_name: '' }, 'client_name: must be 1-200 characters'],
        [
          { redirect_uris: ['ftp://files.example.com/'] },
          'redirect_uris[0]: must be https, or http on localhost, 127.0.0.1 or [::1]',
        ],
        [
          { grant_types: ['implicit'] },
          'grant_types[0]: must be one of authorization_code, refresh_token, client_credentials, urn:ietf:params:oauth:grant-type:device_code',
        ],
        [
          { grant_types: ['client_credentials'] },
          'grant_types: a public client cannot use client_credentials',
        ],
        [{ redirect_uris: [] }, 'redirect_uris: authorization_code needs at least one redirect URI'],
        [
          { redirect_uris: [], grant_types: ['refresh_token', 'authorization_code'] },
          'grant_types: authorization_code needs at least one redirect URI',
        ],
      ];
      for (const [body, detail] of cases) {
        const res = await api('PATCH', path, owner, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
      assert.deepEqual((await api('GET', path, owner)).body, created);
      assert.deepEqual(
        (await auditOf(created.client_id)).map((e) => e.key),
        ['client.created'],
      );
    });

    test('userinfo_signed_response_alg: RS256 or absent; shown when registered, null returns to JSON, audited', {
      skip,
    }, async () => {
      const created = await create('acme', owner, {
        client_name: 'Signed userinfo',
        type: 'public',
        redirect_uris: [CALLBACK],
        userinfo_signed_response_alg: 'RS256',
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.userinfo_signed_response_alg, 'RS256');
      const path = `/organizations/acme/clients/${created.body.client_id}`;
      assert.equal((await api('GET', path, owner)).body.userinfo_signed_response_alg, 'RS256');
      for (const [body, detail] of [
        [{ userinfo_signed_response_alg: 'HS256' }, 'userinfo_signed_response_alg: must be RS256'],
        [{ userinfo_signed_response_alg: 'none' }, 'userinfo_signed_response_alg: must be RS256'],
      ] as const) {
        const refused = await api('PATCH', path, owner, body);
        assert.equal(refused.status, 400);
        assert.deepEqual(refused.body, { error: 'invalid_request', error_detail: detail });
      }
      const reset = await api('PATCH', path, owner, { userinfo_signed_response_alg: null });
      assert.equal(reset.status, 200);
      assert.equal('userinfo_signed_response_alg' in reset.body, false);
      const [, updated] = await auditOf(created.body.client_id);
      assert.equal(JSON.parse(updated?.previous ?? '{}').userinfoSignedResponseAlg, 'RS256');
      assert.equal('userinfoSignedResponseAlg' in JSON.parse(updated?.data ?? '{}'), false);
    });

    test('allowed_origins: the redirect URIs’ origins by default; an explicit list overrides, null resets', {
      skip,
    }, async () => {
      const created = await create('acme', owner, {
        client_name: 'Browser app',
        type: 'public',
        redirect_uris: ['https://app.example.com/cb', 'https://app.example.com/other', CALLBACK],
        allowed_origins: ['https://App.Example.com:443', 'http://localhost:5173', 'https://app.example.com'],
      });
      assert.equal(created.status, 201);
      // Stored as browsers send Origin: lowercase host, no default port, once each.
      assert.deepEqual(created.body.allowed_origins, ['https://app.example.com', 'http://localhost:5173']);
      const path = `/organizations/acme/clients/${created.body.client_id}`;
      const column = async () =>
        (
          await server.db
            .selectFrom('clients')
            .select('allowed_origins')
            .where('id', '=', created.body.client_id)
            .executeTakeFirstOrThrow()
        ).allowed_origins;
      assert.equal(await column(), '["https://app.example.com","http://localhost:5173"]');

      // Reset to the default: the origins of the redirect URIs, once each, following them.
      const reset = await api('PATCH', path, owner, { allowed_origins: null });
      assert.equal(reset.status, 200);
      assert.deepEqual(reset.body.allowed_origins, ['https://app.example.com', 'http://127.0.0.1:8765']);
      assert.equal(await column(), null);
      const moved = await api('PATCH', path, owner, { redirect_uris: ['https://new.example.com/cb'] });
      assert.deepEqual(moved.body.allowed_origins, ['https://new.example.com']);
      const none = await api('PATCH', path, owner, { allowed_origins: [] });
      assert.deepEqual([none.status, none.body.allowed_origins], [200, []]);
      assert.equal(await column(), '[]');
      assert.deepEqual((await api('GET', path, owner)).body.allowed_origins, []);

      // Audited: the stored list (null: the default).
      const entries = await auditOf(created.body.client_id);
      assert.deepEqual(
        entries.map((e) => JSON.parse(e.data).allowedOrigins),
        [['https://app.example.com', 'http://localhost:5173'], null, null, []],
      );
      assert.deepEqual(JSON.parse(entries[1]?.changes ?? ''), { allowedOrigins: null });

      const rule =
        'must be an origin, scheme://host[:port] with nothing after it: https, or http on localhost, 127.0.0.1 or [::1]';
      for (const [origin, index] of [
        ['https://app.example.com/', 0],
        ['https://app.example.com/cb', 0],
        ['http://app.example.com', 0],
        ['*', 0],
        ['null', 0],
        ['app.example.com', 0],
        ['https://u@app.example.com', 0],
        ['https://app.example.com?x', 0],
        ['myapp://cb', 0],
      ] as const) {
        for (const [method, target, body] of [
          ['POST', '/organizations/acme/clients', { client_name: 'X', type: 'confidential' }],
          ['PATCH', path, {}],
        ] as const) {
          const res = await api(method, target, owner, { ...body, allowed_origins: [origin] });
          assert.equal(res.status, 400, `${method} ${origin}`);
          assert.deepEqual(res.body, {
            error: 'invalid_request',
            error_detail: `allowed_origins[${index}]: ${rule}`,
          });
        }
      }
      const tooMany = Array.from({ length: 21 }, (_, i) => `https://a${i}.example.com`);
      const many = await api('PATCH', path, owner, { allowed_origins: tooMany });
      assert.deepEqual(many.body, {
        error: 'invalid_request',
        error_detail: 'allowed_origins: must hold at most 20 origins',
      });
      const string = await api('PATCH', path, owner, { allowed_origins: 'https://app.example.com' });
      assert.deepEqual(string.body, {
        error: 'invalid_request',
        error_detail: 'allowed_origins: Invalid input: expected array, received string',
      });
      assert.deepEqual((await api('GET', path, owner)).body.allowed_origins, []);
    });

    test('request_object_signing_alg: stored, shown and audited; none for any client, a signing one with keys; null resets', {
      skip,
    }, async () => {
      const created = await create('acme', owner, {
        client_name: 'Unsigned requests',
        type: 'public',
        redirect_uris: [CALLBACK],
        request_object_signing_alg: 'none',
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.request_object_signing_alg, 'none');
      const path = `/organizations/acme/clients/${created.body.client_id}`;
      const column = async (id: string) =>
        (
          await server.db
            .selectFrom('clients')
            .select('request_object_signing_alg')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).request_object_signing_alg;
      assert.equal(await column(created.body.client_id), 'none');
      const reset = await api('PATCH', path, owner, { request_object_signing_alg: null });
      assert.equal(reset.status, 200);
      assert.equal('request_object_signing_alg' in reset.body, false, 'absent when not registered');
      assert.equal(await column(created.body.client_id), null);
      const entries = await auditOf(created.body.client_id);
      assert.deepEqual(
        entries.map((e) => JSON.parse(e.data).requestObjectSigningAlg ?? null),
        ['none', null],
      );

      const pinned = await create('acme', owner, {
        client_name: 'Signed requests',
        type: 'confidential',
        request_object_signing_alg: 'PS256',
      });
      assert.equal(pinned.status, 201, pinned.text);
      assert.equal(pinned.body.request_object_signing_alg, 'PS256');
      for (const [method, target, body, detail] of [
        [
          'PATCH',
          path,
          { request_object_signing_alg: 'RS256' },
          'request_object_signing_alg: a public client has no keys to sign with; only none',
        ],
        [
          'POST',
          '/organizations/acme/clients',
          { client_name: 'X', type: 'confidential', request_object_signing_alg: 'HS256' },
          'request_object_signing_alg: must be one of RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, none',
        ],
      ] as const) {
        const res = await api(method, target, owner, body);
        assert.equal(res.status, 400, `${method} ${JSON.stringify(body)}`);
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
    });

    test('POST …/secret: a new secret at once, the old one refused at once (cache included)', {
      skip,
    }, async () => {
      const { body: created } = await machine('acme', 'Rotating');
      // Used first, so the token endpoint's credential cache holds the client.
      for (let i = 0; i < 3; i++) {
        assert.equal((await clientCredentials(created.client_id, created.client_secret)).status, 200);
      }
      const res = await api('POST', `/organizations/acme/clients/${created.client_id}/secret`, owner);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(res.body), ['client_secret']);
      assert.match(res.body.client_secret, SECRET);
      assert.notEqual(res.body.client_secret, created.client_secret);

      const old = await clientCredentials(created.client_id, created.client_secret);
      assert.equal(old.status, 401);
      assert.deepEqual(old.body, {
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
      const fresh = await clientCredentials(created.client_id, res.body.client_secret);
      assert.equal(fresh.status, 200);
      assert.equal(typeof fresh.body.access_token, 'string');

      // Again: the second secret is replaced by a third.
      const again = await api('POST', `/organizations/acme/clients/${created.client_id}/secret`, owner);
      assert.equal((await clientCredentials(created.client_id, res.body.client_secret)).status, 401);
      assert.equal((await clientCredentials(created.client_id, again.body.client_secret)).status, 200);

      // Audited as updates whose only change is when the secret was issued; no secret anywhere.
      const entries = await auditOf(created.client_id);
      assert.deepEqual(
        entries.map((e) => [e.key, e.actor_id]),
        [
          ['client.created', ownerId],
          ['client.updated', ownerId],
          ['client.updated', ownerId],
        ],
      );
      const rotation = entries[1];
      assert.ok(rotation);
      const changes = JSON.parse(rotation.changes ?? '');
      assert.deepEqual(Object.keys(changes), ['secretIssuedAt']);
      assert.match(changes.secretIssuedAt, ISO_MS_UTC);
      assert.deepEqual(JSON.parse(rotation.data), { ...JSON.parse(rotation.previous ?? ''), ...changes });
      const all = await server.db.selectFrom('audit_events').selectAll().execute();
      for (const secret of [created.client_secret, res.body.client_secret, again.body.client_secret]) {
        assert.ok(!JSON.stringify(all).includes(secret.slice(4)));
        assert.ok(!logs.join('\n').includes(secret.slice(4)));
      }
      const events = await api('GET', '/organizations/acme/events?entity=client&verb=updated', owner);
      assert.ok(events.body.some((e: { data: { id: string } }) => e.data.id === created.client_id));
      assert.ok(!events.text.includes('tcs_'));
    });

    test('POST …/secret 409 conflict: a public client has no secret', { skip }, async () => {
      const { body: created } = await spa('No secret');
      const res = await api('POST', `/organizations/acme/clients/${created.client_id}/secret`, owner);
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, { error: 'conflict', error_detail: 'a public client has no secret' });
      const row = await server.db
        .selectFrom('clients')
        .select(['secret_hash', 'secret_issued_at'])
        .where('id', '=', created.client_id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { secret_hash: null, secret_issued_at: null });
      assert.deepEqual(
        (await auditOf(created.client_id)).map((e) => e.key),
        ['client.created'],
      );
    });

    test('DELETE 204 ends the client’s sessions: its refresh and access tokens stop working', {
      skip,
    }, async () => {
      const { body: created } = await spa('Doomed');
      const issuer = server.issuer('acme');
      await makeUser(server.deps, acme, 'ada@acme.test');
      const signedIn = await signIn(issuer, created.client_id, 'ada@acme.test');
      const me = (token: string) =>
        fetch(new URL('users/me', issuer), { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await me(signedIn.accessToken)).status, 200);
      // The refresh token works before the delete (and is rotated by it).
      const refreshed = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: signedIn.refreshToken,
        client_id: created.client_id,
      });
      assert.equal(refreshed.status, 200);
      const refreshToken = refreshed.body.refresh_token as string;
      const accessToken = refreshed.body.access_token as string;

      const res = await api('DELETE', `/organizations/acme/clients/${created.client_id}`, owner);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assert.equal(res.headers.get('content-type'), null);

      // The client no longer exists: its id is refused as any unknown client's is.
      const afterDelete = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: created.client_id,
      });
      assert.equal(afterDelete.status, 401);
      assert.deepEqual(afterDelete.body, {
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
      // The refresh token itself is gone: under any other client of the org it is invalid_grant.
      const { body: other } = await spa('Other');
      const elsewhere = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: other.client_id,
      });
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.body.error, 'invalid_grant');
      const stored = await server.db
        .selectFrom('refresh_tokens')
        .select('token_hash')
        .where('client_id', '=', created.client_id)
        .execute();
      assert.deepEqual(stored, []);
      // Its access tokens are refused too.
      for (const token of [signedIn.accessToken, accessToken]) {
        assert.equal((await me(token)).status, 401);
      }
      const gone = await api('GET', `/organizations/acme/clients/${created.client_id}`, owner);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.body, { error: 'not_found', error_detail: 'no such client' });
      const again = await api('DELETE', `/organizations/acme/clients/${created.client_id}`, owner);
      assert.equal(again.status, 404);

      // Audited: the session's end by the owner, then the client's snapshot.
      const events = await api('GET', '/organizations/acme/events?per_page=100', owner);
      const deleted = events.body.filter(
        (e: { key: string; data: { id: string; clientId?: string } }) =>
          e.data.id === created.client_id ||
          (e.key === 'session.deleted' && e.data.clientId === created.client_id),
      );
      assert.deepEqual(
        deleted.slice(0, 2).map((e: { key: string; actor: unknown }) => [e.key, e.actor]),
        [
          ['client.deleted', { kind: 'user', id: ownerId }],
          ['session.deleted', { kind: 'user', id: ownerId }],
        ],
      );
      assert.deepEqual(deleted[0].data, {
        id: created.client_id,
        name: 'Doomed',
        kind: 'public',
        redirectUris: [CALLBACK],
        postLogoutRedirectUris: [],
        grantTypes: ['authorization_code', 'refresh_token'],
        firstParty: true,
        allowedOrigins: null,
        secretIssuedAt: null,
        createdAt: created.created_at,
      });
    });

    test('DELETE of a confidential client: its secret is refused at once', { skip }, async () => {
      const { body: created } = await machine('acme', 'Short-lived');
      assert.equal((await clientCredentials(created.client_id, created.client_secret)).status, 200);
      assert.equal(
        (await api('DELETE', `/organizations/acme/clients/${created.client_id}`, owner)).status,
        204,
      );
      const refused = await clientCredentials(created.client_id, created.client_secret);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error, 'invalid_client');
    });

    test('no answer and no log line holds a secret except the response that issued it', {
      skip,
    }, async () => {
      const secrets = answered.flatMap((text) => [...text.matchAll(/tcs_[\w-]{43}/g)].map((m) => m[0]));
      assert.ok(secrets.length > 0);
      for (const secret of secrets) {
        assert.equal(answered.filter((text) => text.includes(secret)).length, 1, 'shown once');
        assert.ok(!logs.join('\n').includes(secret));
      }
    });
  });
}
