import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import { FormBrowser, locationOf, signInThroughPages } from '../sign-in/support/browser.js';
import { api, authorizeUrl, CALLBACK, makeClient, tokenRequest } from '../sign-in/support/fixtures.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, ownedOrg, ownerMemberStranger } from './support/console.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PASSWORD = 'a long enough password';
const NO_SUCH_USER = { error: 'not_found', error_detail: 'no such user' };
const INCORRECT = 'Incorrect email or password.';
/** The OIDC Core §5.1 fields of a user who was given none (migration 037). */
const NO_CLAIMS = {
  middle_name: null,
  nickname: null,
  preferred_username: null,
  profile: null,
  picture: null,
  website: null,
  gender: null,
  birthdate: null,
  zoneinfo: null,
  locale: null,
  phone_number: null,
  phone_number_verified: false,
  address: null,
};
/** The same in an audit snapshot (camelCase; `picture` is there already). */
const NO_SNAPSHOT_CLAIMS = {
  middleName: null,
  nickname: null,
  preferredUsername: null,
  profile: null,
  website: null,
  gender: null,
  birthdate: null,
  zoneinfo: null,
  locale: null,
  phoneNumber: null,
  phoneNumberVerified: false,
  address: null,
};

for (const database of storageSuite(
  'the user search: lower() and LIKE with ESCAPE, whose case rules differ by dialect (users.ts)',
)) {
  describe(`users: /organizations/{org}/users on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, [
      'GET list: oldest first, paged with Link, searched by email or names in any case',
      'the OIDC Core §5.1 claims: set on POST and PATCH, stored in their columns, null clears, audited',
    ]);
    const logs: string[] = [];
    let server: TestServer;
    let acme: Org;
    let owner: string;
    let listOwner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;
    let issuer: string;
    let clientId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, logs, webhooks: false });
      const cast = await ownerMemberStranger(server);
      ({ acme, owner, member, stranger, ownerId } = cast);
      await ownedOrg(server, 'listco');
      listOwner = await cast.console.token('owner@listco.test');
      issuer = server.issuer('acme');
      ({ clientId } = await makeClient(server.deps, acme));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const create = (org: string, token: string | null, body: unknown) =>
      call(server, 'POST', `/organizations/${org}/users`, token, body);

    /** A user of acme made through the API, with PASSWORD. */
    const newUser = async (email: string, extra: Record<string, unknown> = {}) => {
      const res = await create('acme', owner, { email, password: PASSWORD, ...extra });
      assert.equal(res.status, 201, res.text);
      return res.body as { id: string; email: string; created_at: string };
    };

    /** The org's audit entries through the API, newest first, filtered by `query`. */
    const events = async (query: string) => {
      const res = await call(server, 'GET', `/organizations/acme/events?per_page=100&${query}`, owner);
      assert.equal(res.status, 200);
      return res.body as {
        key: string;
        actor: unknown;
        data: Record<string, unknown>;
        previous?: unknown;
        changes?: unknown;
      }[];
    };

    const refresh = (refreshToken: string) =>
      tokenRequest(issuer, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });

    /** Signs in through the hosted pages with scope=openid: a TokenSet with a refresh token. */
    const signIn = async (email: string, browser = new FormBrowser()) => {
      const { url, verifier } = authorizeUrl(issuer, clientId, { scope: 'openid' });
      const callback = await signInThroughPages(browser, url, { email, password: PASSWORD });
      const { status, body } = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code: new URL(callback).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: clientId,
      });
      assert.equal(status, 200, JSON.stringify(body));
      return { accessToken: body.access_token as string, refreshToken: body.refresh_token as string };
    };

    /** Opens an authorization request in `browser`; where the hosted pages send it first. */
    const startAuthorize = async (browser: FormBrowser) => {
      const { url } = authorizeUrl(issuer, clientId, { scope: 'openid' });
      return locationOf(await browser.get(url), url);
    };

    /** Submits the login page at `loginUrl`: status and the page's text. */
    const submitLogin = async (browser: FormBrowser, loginUrl: string, email: string, password: string) => {
      const page = await browser.get(loginUrl);
      assert.equal(page.status, 200);
      const response = await browser.submit(loginUrl, await page.text(), { email, password });
      return {
        status: response.status,
        text: await response.text(),
        location: response.headers.get('location'),
      };
    };

    const userinfo = (token: string) => api(issuer, 'GET', 'oauth/userinfo', token);

    test('POST 201: the user, never the password; stored hashed; by slug or by id', { skip }, async () => {
      const res = await create('acme', owner, {
        email: 'ada@acme.test',
        password: PASSWORD,
        first_name: 'Ada',
        last_name: 'Lovelace',
      });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.body.id, /^usr_[a-z0-9]{20}$/);
      assert.match(res.body.created_at, ISO_MS_UTC);
      assert.deepEqual(res.body, {
        id: res.body.id,
        email: 'ada@acme.test',
        first_name: 'Ada',
        last_name: 'Lovelace',
        disabled: false,
        created_at: res.body.created_at,
        ...NO_CLAIMS,
        updated_at: res.body.created_at,
      });
      assert.ok(!res.text.includes(PASSWORD));
      const row = await server.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.org_id, acme.id);
      assert.equal(row.disabled, 0);
      assert.match(row.password_hash ?? '', /^\$argon2id\$/);
      const tenants = await server.db
        .selectFrom('tenant_members')
        .innerJoin('tenants', 'tenants.id', 'tenant_members.tenant_id')
        .select(['tenants.name', 'tenant_members.role'])
        .where('tenant_members.user_id', '=', res.body.id)
        .execute();
      assert.deepEqual(tenants, [{ name: 'Personal', role: 'owner' }]);

      const byId = await create(acme.id, owner, { email: 'bare@acme.test' });
      assert.equal(byId.status, 201);
      assert.deepEqual(byId.body, {
        id: byId.body.id,
        email: 'bare@acme.test',
        first_name: null,
        last_name: null,
        disabled: false,
        created_at: byId.body.created_at,
        ...NO_CLAIMS,
        updated_at: byId.body.created_at,
      });
      const bare = await server.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', byId.body.id)
        .executeTakeFirstOrThrow();
      assert.equal(bare.password_hash, null, 'no password: no password sign-in');
    });

    test('POST 409 conflict: an email the org has, in any case; another org may have it', {
      skip,
    }, async () => {
      await newUser('twice@acme.test');
      const again = await create('acme', owner, { email: 'TWICE@acme.test', password: PASSWORD });
      assert.equal(again.status, 409);
      assert.deepEqual(again.body, {
        error: 'conflict',
        error_detail: 'a user with email TWICE@acme.test exists',
      });
      const elsewhere = await create('beta', stranger, { email: 'twice@acme.test', password: PASSWORD });
      assert.equal(elsewhere.status, 201);
    });

    test('POST 400 invalid_request: unknown fields and bad values, named; the sign-up password rule', {
      skip,
    }, async () => {
      const ok = { email: 'new@acme.test', password: PASSWORD };
      const email = 'email: must be an email address of at most 254 characters';
      const nameRule =
        'must be 1-100 characters (surrounding spaces are dropped), without control characters';
      const cases: [unknown, string][] = [
        [{ ...ok, disabled: true }, 'unknown field: disabled'],
        [{ ...ok, password_hash: 'x' }, 'unknown field: password_hash'],
        [{ password: PASSWORD }, 'email: Invalid input: expected string, received undefined'],
        [{ ...ok, email: 'not an address' }, email],
        [{ ...ok, email: `${'a'.repeat(250)}@acme.test` }, email],
        [{ ...ok, email: 7 }, 'email: Invalid input: expected string, received number'],
        [{ ...ok, password: 'short12' }, 'password: must be at least 8 characters'],
        [{ ...ok, password: 'p'.repeat(257) }, 'password: must be at most 256 characters'],
        [{ ...ok, password: null }, 'password: Invalid input: expected string, received null'],
        [{ ...ok, first_name: '' }, `first_name: ${nameRule}`],
        [{ ...ok, first_name: '   ' }, `first_name: ${nameRule}`],
        [{ ...ok, last_name: 'x'.repeat(101) }, `last_name: ${nameRule}`],
        [{ ...ok, last_name: 'tab\there' }, `last_name: ${nameRule}`],
      ];
      for (const [body, detail] of cases) {
        const res = await create('acme', owner, body);
        assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
        assert.ok(!res.text.includes(PASSWORD));
      }
      for (const body of ['[1]', '"text"', '{"email":', 'null']) {
        const res = await create('acme', owner, body);
        assert.equal(res.status, 400, body);
        assert.deepEqual(res.body, {
          error: 'invalid_request',
          error_detail: 'the body must be a JSON object',
        });
      }
      const stored = await server.db
        .selectFrom('users')
        .select('id')
        .where('email_key', '=', 'new@acme.test')
        .executeTakeFirst();
      assert.equal(stored, undefined, 'nothing refused was stored');
    });

    test('GET one: the user; 404 for an unknown id, another org’s user, or not a usr_ id', {
      skip,
    }, async () => {
      const ada = await newUser('grace@acme.test', { first_name: 'Grace', last_name: null });
      const res = await call(server, 'GET', `/organizations/acme/users/${ada.id}`, owner);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(res.body, {
        id: ada.id,
        email: 'grace@acme.test',
        first_name: 'Grace',
        last_name: null,
        disabled: false,
        created_at: ada.created_at,
        ...NO_CLAIMS,
        updated_at: ada.created_at,
      });
      const betaUser = await create('beta', stranger, { email: 'b@beta.test' });
      for (const id of ['usr_doesnotexist', betaUser.body.id, 'nonsense', ownerId]) {
        for (const [method, body] of [
          ['GET', undefined],
          ['PATCH', { first_name: 'X' }],
          ['DELETE', undefined],
        ] as const) {
          const r = await call(server, method, `/organizations/acme/users/${id}`, owner, body);
          assert.equal(r.status, 404, `${method} ${id}`);
          assert.deepEqual(r.body, NO_SUCH_USER);
        }
        const r = await call(server, 'DELETE', `/organizations/acme/users/${id}/sessions`, owner);
        assert.equal(r.status, 404, id);
        assert.deepEqual(r.body, NO_SUCH_USER);
      }
    });

    test('403 for a member on every route; 404 for strangers and unknown orgs; 401 without a token', {
      skip,
    }, async () => {
      const user = await newUser('guarded@acme.test');
      const routes: [string, string, unknown][] = [
        ['GET', '/users', undefined],
        ['POST', '/users', { email: 'm@acme.test', password: PASSWORD }],
        ['GET', `/users/${user.id}`, undefined],
        ['PATCH', `/users/${user.id}`, { disabled: true }],
        ['DELETE', `/users/${user.id}`, undefined],
        ['DELETE', `/users/${user.id}/sessions`, undefined],
      ];
      for (const [method, path, body] of routes) {
        const asMember = await call(server, method, `/organizations/acme${path}`, member, body);
        assert.equal(asMember.status, 403, `${method} ${path}`);
        assert.deepEqual(asMember.body, {
          error: 'forbidden',
          error_detail: 'only an owner of the organization may do this',
        });
        for (const [org, token] of [
          ['acme', stranger],
          [acme.id, stranger],
          ['nope', owner],
          ['console', owner],
        ] as const) {
          const res = await call(server, method, `/organizations/${org}${path}`, token, body);
          assert.equal(res.status, 404, `${method} ${org}${path}`);
          assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such organization' });
        }
        const anonymous = await call(server, method, `/organizations/acme${path}`, null, body);
        assert.equal(anonymous.status, 401);
        assert.deepEqual(anonymous.body, {
          error: 'unauthorized',
          error_detail: "we don't know who you are",
        });
        assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="tessera"');
      }
      const still = await call(server, 'GET', `/organizations/acme/users/${user.id}`, owner);
      assert.equal(still.body.disabled, false, 'nothing a refused caller sent was applied');
      assert.equal(
        (await call(server, 'GET', '/organizations/acme/users?q=m%40acme.test', owner)).body.length,
        0,
      );
    });

    test('GET list: oldest first, paged with Link, searched by email or names in any case', {
      skip,
    }, async () => {
      const make = async (email: string, first: string | null, last: string | null) => {
        const res = await create('listco', listOwner, { email, first_name: first, last_name: last });
        assert.equal(res.status, 201);
        return res.body;
      };
      const a = await make('alan@listco.test', 'Alan', 'Turing');
      const b = await make('grace@listco.test', 'Grace', 'HOPPER');
      const c = await make('kat_j@listco.test', null, 'Johnson');
      const d = await make('edsger@listco.test', 'Edsger', 'Dijkstra');

      // The org's owner is a console user, not one of the org's users: only these four are listed.
      const all = await call(server, 'GET', '/organizations/listco/users', listOwner);
      assert.equal(all.status, 200);
      assert.equal(all.headers.get('cache-control'), 'no-store');
      assert.equal(all.headers.get('link'), null, 'one page: no Link');
      assert.deepEqual(all.body, [a, b, c, d]);

      const search = async (q: string) => {
        const path = `/organizations/listco/users?q=${encodeURIComponent(q)}`;
        const res = await call(server, 'GET', path, listOwner);
        assert.equal(res.status, 200, q);
        return res.body.map((u: { id: string }) => u.id);
      };
      assert.deepEqual(await search('hopper'), [b.id], 'last name, any case');
      assert.deepEqual(await search('GRACE'), [b.id], 'email and first name, any case');
      assert.deepEqual(await search('a'), [a.id, b.id, c.id, d.id]);
      assert.deepEqual(await search('ur'), [a.id], 'a substring');
      assert.deepEqual(await search('  ALAN  '), [a.id], 'surrounding spaces dropped');
      assert.deepEqual(await search('_'), [c.id], '_ is a literal');
      assert.deepEqual(await search('%'), [], '% is a literal');
      assert.deepEqual(await search('\\'), []);
      assert.deepEqual(await search(''), [a.id, b.id, c.id, d.id], 'empty: everyone');
      assert.deepEqual(await search('@listco.test'), [a.id, b.id, c.id, d.id]);
      assert.deepEqual(await search('nobody'), []);

      const page = await call(
        server,
        'GET',
        '/organizations/listco/users?q=listco&per_page=1&page=1',
        listOwner,
      );
      assert.equal(page.status, 200);
      assert.deepEqual(page.body, [b]);
      const base = `${server.base}/organizations/listco/users`;
      assert.equal(
        page.headers.get('link'),
        [
          `<${base}?q=listco&per_page=1&page=0>; rel="first"`,
          `<${base}?q=listco&per_page=1&page=0>; rel="prev"`,
          `<${base}?q=listco&per_page=1&page=2>; rel="next"`,
          `<${base}?q=listco&per_page=1&page=3>; rel="last"`,
        ].join(', '),
      );
      const past = await call(server, 'GET', '/organizations/listco/users?per_page=50&page=9', listOwner);
      assert.deepEqual(past.body, []);

      for (const [query, detail] of [
        [`q=${'x'.repeat(101)}`, 'q: must be at most 100 characters'],
        ['q=a&q=b', 'repeated parameter: q'],
        ['email=a', 'unknown parameter: email'],
        ['per_page=10', 'per_page: must be 1, 50 or 100'],
        ['page=-1', 'page: must be a whole number from 0 to 9999999'],
      ]) {
        const res = await call(server, 'GET', `/organizations/listco/users?${query}`, listOwner);
        assert.equal(res.status, 400, query);
        assert.deepEqual(res.body, { error: 'invalid_query', error_detail: detail });
      }
      const acmeList = await call(server, 'GET', '/organizations/acme/users?q=listco&per_page=100', owner);
      assert.deepEqual(acmeList.body, [], 'only the org’s own users');
    });

    test('PATCH: names change (null clears), audited with previous and changes; no change, no entry', {
      skip,
    }, async () => {
      const user = await newUser('rename@acme.test', { first_name: 'Ann', last_name: 'Old' });
      const path = `/organizations/acme/users/${user.id}`;
      const res = await call(server, 'PATCH', path, owner, { first_name: '  Anne ', last_name: null });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const expected = {
        id: user.id,
        email: 'rename@acme.test',
        first_name: 'Anne',
        last_name: null,
        disabled: false,
        created_at: user.created_at,
        ...NO_CLAIMS,
        updated_at: res.body.updated_at,
      };
      assert.deepEqual(res.body, expected);
      assert.deepEqual((await call(server, 'GET', path, owner)).body, expected);

      const before = (await events('entity=user')).length;
      for (const body of [{}, { first_name: 'Anne' }, { last_name: null, disabled: false }]) {
        const same = await call(server, 'PATCH', path, owner, body);
        assert.equal(same.status, 200);
        assert.deepEqual(same.body, expected);
      }
      assert.equal((await events('entity=user')).length, before, 'nothing changed, nothing audited');

      const updated = (await events('key_prefix=user.updated')).filter((e) => e.data.id === user.id);
      assert.equal(updated.length, 1);
      const snapshot = {
        id: user.id,
        email: 'rename@acme.test',
        firstName: 'Ann',
        lastName: 'Old',
        picture: null,
        provider: 'password',
        disabled: false,
        emailVerified: false,
        ...NO_SNAPSHOT_CLAIMS,
        createdAt: user.created_at,
      };
      assert.deepEqual(updated[0], {
        ...updated[0],
        key: 'user.updated',
        actor: { kind: 'user', id: ownerId },
        data: { ...snapshot, firstName: 'Anne', lastName: null },
        previous: snapshot,
        changes: { firstName: 'Anne', lastName: null },
      });
    });

    test('PATCH 400 invalid_request: unknown fields and bad values, named, before the user is looked up', {
      skip,
    }, async () => {
      const user = await newUser('patchbad@acme.test');
      const nameRule =
        'must be 1-100 characters (surrounding spaces are dropped), without control characters';
      const cases: [unknown, string][] = [
        [{ email: 'other@acme.test' }, 'unknown field: email'],
        [{ password: PASSWORD }, 'unknown field: password'],
        [{ disabled: 'yes' }, 'disabled: must be true or false'],
        [{ disabled: null }, 'disabled: must be true or false'],
        [{ first_name: '' }, `first_name: ${nameRule}`],
        [{ last_name: 5 }, 'last_name: Invalid input: expected string, received number'],
      ];
      for (const id of [user.id, 'usr_unknown']) {
        for (const [body, detail] of cases) {
          const res = await call(server, 'PATCH', `/organizations/acme/users/${id}`, owner, body);
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
        }
      }
      const res = await call(server, 'PATCH', `/organizations/acme/users/${user.id}`, owner, '[]');
      assert.deepEqual(res.body, {
        error: 'invalid_request',
        error_detail: 'the body must be a JSON object',
      });
    });

    test('the OIDC Core §5.1 claims: set on POST and PATCH, stored in their columns, null clears, audited', {
      skip,
    }, async () => {
      const claims = {
        middle_name: 'Byron',
        nickname: 'Ada',
        preferred_username: 'ada.l',
        profile: 'https://people.example/ada',
        picture: 'https://people.example/ada.png',
        website: 'http://ada.example/',
        gender: 'female',
        birthdate: '1815-12-10',
        zoneinfo: 'Europe/London',
        locale: 'EN-gb',
        phone_number: '+442079460000',
        phone_number_verified: true,
        address: { street_address: '12 St James’s Square\nFlat 2', locality: 'London', country: 'UK' },
      };
      const res = await create('acme', owner, {
        email: 'claims@acme.test',
        first_name: 'Augusta',
        ...claims,
      });
      assert.equal(res.status, 201, res.text);
      const stored = { ...claims, locale: 'en-GB' };
      assert.deepEqual(res.body, {
        id: res.body.id,
        email: 'claims@acme.test',
        first_name: 'Augusta',
        last_name: null,
        disabled: false,
        created_at: res.body.created_at,
        ...stored,
        updated_at: res.body.created_at,
      });
      const path = `/organizations/acme/users/${res.body.id}`;
      assert.deepEqual((await call(server, 'GET', path, owner)).body, res.body);
      const row = await server.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        {
          middle_name: row.middle_name,
          birthdate: row.birthdate,
          zoneinfo: row.zoneinfo,
          locale: row.locale,
          phone_number: row.phone_number,
          phone_number_verified: row.phone_number_verified,
          address: JSON.parse(row.address ?? 'null'),
        },
        {
          middle_name: 'Byron',
          birthdate: '1815-12-10',
          zoneinfo: 'Europe/London',
          locale: 'en-GB',
          phone_number: '+442079460000',
          phone_number_verified: 1,
          address: claims.address,
        },
      );

      // A new number is unverified unless the same request vouches for it; null clears; absent keeps.
      const changed = await call(server, 'PATCH', path, owner, {
        phone_number: '+14155550100',
        nickname: null,
        address: { formatted: '' },
        birthdate: '0000-02-29',
      });
      assert.equal(changed.status, 200, changed.text);
      assert.deepEqual(changed.body, {
        ...res.body,
        phone_number: '+14155550100',
        phone_number_verified: false,
        nickname: null,
        address: null,
        birthdate: '0000-02-29',
        updated_at: changed.body.updated_at,
      });
      const entry = (await events('key_prefix=user.updated')).find((e) => e.data.id === res.body.id);
      assert.deepEqual(entry?.changes, {
        nickname: null,
        birthdate: '0000-02-29',
        phoneNumber: '+14155550100',
        phoneNumberVerified: false,
        address: null,
      });
      const vouched = await call(server, 'PATCH', path, owner, { phone_number_verified: true });
      assert.equal(vouched.body.phone_number_verified, true);
      const same = (await events('key_prefix=user.updated')).length;
      assert.equal((await call(server, 'PATCH', path, owner, { zoneinfo: 'Europe/London' })).status, 200);
      assert.equal((await events('key_prefix=user.updated')).length, same, 'no change, no entry');
    });

    test('the §5.1 claims are refused, named, when they break their rule', { skip }, async () => {
      const user = await newUser('claimrules@acme.test');
      const cases: [Record<string, unknown>, string][] = [
        [
          { website: 'ftp://ada.example/' },
          'website: must be an http or https URL of at most 2000 characters',
        ],
        [{ profile: 'not a url' }, 'profile: must be an http or https URL of at most 2000 characters'],
        [
          { picture: 'javascript:alert(1)' },
          'picture: must be an http or https URL of at most 2000 characters',
        ],
        [{ birthdate: '1815-02-30' }, 'birthdate: must be YYYY or YYYY-MM-DD, a real date'],
        [{ birthdate: '10 Dec 1815' }, 'birthdate: must be YYYY or YYYY-MM-DD, a real date'],
        [{ zoneinfo: 'Mars/Olympus' }, 'zoneinfo: must be an IANA time zone such as Europe/Paris'],
        [{ zoneinfo: '+01:00' }, 'zoneinfo: must be an IANA time zone such as Europe/Paris'],
        [{ locale: 'en_US' }, 'locale: must be a BCP 47 language tag such as fr-CA'],
        [{ phone_number: '+1 415 555 0100' }, 'phone_number: must be E.164, such as +14155550100'],
        [{ phone_number: '4155550100' }, 'phone_number: must be E.164, such as +14155550100'],
        [{ address: { city: 'London' } }, 'unknown field: city'],
        [
          { address: { locality: 'Lon\u0007don' } },
          'address: parts must be 1-200 characters a line, without control characters',
        ],
        [{ phone_number_verified: 'yes' }, 'phone_number_verified: must be true or false'],
      ];
      for (const [body, detail] of cases) {
        const res = await call(server, 'PATCH', `/organizations/acme/users/${user.id}`, owner, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail }, JSON.stringify(body));
      }
      const unverifiable = await call(server, 'PATCH', `/organizations/acme/users/${user.id}`, owner, {
        phone_number_verified: true,
      });
      assert.equal(unverifiable.status, 400);
      assert.deepEqual(unverifiable.body, {
        error: 'invalid_request',
        error_detail: 'phone_number_verified needs a phone_number',
      });
    });

    test('disabling ends every session and refuses sign-in like a wrong password; enabling allows it again', {
      skip,
    }, async () => {
      const user = await newUser('dis@acme.test');
      const browser = new FormBrowser();
      const first = await signIn('dis@acme.test', browser);
      const second = await signIn('dis@acme.test');
      assert.equal((await userinfo(first.accessToken)).status, 200);
      // The browser is signed in: a new authorization request goes straight back to the client.
      assert.equal(new URL(await startAuthorize(browser)).origin, new URL(CALLBACK).origin);

      const res = await call(server, 'PATCH', `/organizations/acme/users/${user.id}`, owner, {
        disabled: true,
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        id: user.id,
        email: 'dis@acme.test',
        first_name: null,
        last_name: null,
        disabled: true,
        created_at: user.created_at,
        ...NO_CLAIMS,
        updated_at: res.body.updated_at,
      });

      for (const tokens of [first, second]) {
        assert.deepEqual(await refresh(tokens.refreshToken), {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'the session of this refresh token has ended' },
        });
        const info = await userinfo(tokens.accessToken);
        assert.equal(info.status, 401);
        assert.equal(info.headers.get('www-authenticate'), 'Bearer realm="tessera", error="invalid_token"');
        assert.equal((await api(issuer, 'GET', 'users/me', tokens.accessToken)).status, 401);
      }

      // The same browser is asked to sign in again, and the right password gets the wrong-password answer.
      const loginUrl = await startAuthorize(browser);
      assert.equal(new URL(loginUrl).pathname, '/login');
      const refused = await submitLogin(browser, loginUrl, 'dis@acme.test', PASSWORD);
      const wrong = await submitLogin(browser, loginUrl, 'dis@acme.test', 'not the password');
      const unknown = await submitLogin(browser, loginUrl, 'nobody@acme.test', PASSWORD);
      for (const answer of [refused, wrong, unknown]) {
        assert.equal(answer.status, 400);
        assert.equal(answer.location, null);
        assert.ok(answer.text.includes(INCORRECT));
        assert.ok(!/disabled/i.test(answer.text), 'the page does not say the account exists');
      }
      const strip = (t: string) => t.replace(/name="csrf" value="[^"]*"/g, '').replace(/nonce-[^']+/g, '');
      assert.equal(strip(refused.text), strip(wrong.text), 'the same page as for a wrong password');
      assert.equal(
        (
          await server.db
            .selectFrom('browser_sessions')
            .select('user_id')
            .where('user_id', '=', user.id)
            .execute()
        ).length,
        0,
      );

      const updated = (await events('key_prefix=user.updated')).filter((e) => e.data.id === user.id);
      assert.deepEqual(
        updated.map((e) => [e.actor, e.changes, (e.previous as { disabled: boolean }).disabled]),
        [[{ kind: 'user', id: ownerId }, { disabled: true }, false]],
      );
      const ended = (await events('key_prefix=session.deleted')).filter((e) => e.data.userId === user.id);
      // Two token sets, and the code the signed-in browser was sent back with: three sessions.
      const opened = (await events('key_prefix=session.created')).filter((e) => e.data.userId === user.id);
      assert.equal(opened.length, 3);
      assert.deepEqual(
        ended.map((e) => e.data.id).sort(),
        opened.map((e) => e.data.id).sort(),
        'each session ended, audited',
      );
      for (const e of ended) {
        assert.deepEqual(e.actor, { kind: 'user', id: ownerId });
        assert.match(String(e.data.revokedAt), ISO_MS_UTC);
      }
      assert.equal(
        (await events('key_prefix=user.login')).filter((e) => e.data.id === user.id).length,
        2,
        'the refused sign-in is no login',
      );

      const enabled = await call(server, 'PATCH', `/organizations/acme/users/${user.id}`, owner, {
        disabled: false,
      });
      assert.equal(enabled.body.disabled, false);
      const again = await signIn('dis@acme.test');
      assert.equal((await userinfo(again.accessToken)).status, 200);
      assert.equal((await refresh(again.refreshToken)).status, 200);
    });

    test('DELETE …/sessions: 204, every session ends, each audited; the user may sign in again', {
      skip,
    }, async () => {
      const user = await newUser('out@acme.test');
      const other = await newUser('stays@acme.test');
      const browser = new FormBrowser();
      const a = await signIn('out@acme.test', browser);
      const b = await signIn('out@acme.test');
      const kept = await signIn('stays@acme.test');

      const res = await call(server, 'DELETE', `/organizations/acme/users/${user.id}/sessions`, owner);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      assert.equal(res.headers.get('content-type'), null);

      for (const tokens of [a, b]) {
        assert.equal((await refresh(tokens.refreshToken)).body.error, 'invalid_grant');
        assert.equal((await userinfo(tokens.accessToken)).status, 401);
      }
      assert.equal((await userinfo(kept.accessToken)).status, 200, 'another user’s session lives on');
      assert.equal((await refresh(kept.refreshToken)).status, 200);
      assert.equal(new URL(await startAuthorize(browser)).pathname, '/login', 'signed out of the browser');

      const ended = (await events('key_prefix=session.deleted')).filter((e) => e.data.userId === user.id);
      assert.equal(ended.length, 2);
      assert.ok(
        ended.every((e) => JSON.stringify(e.actor) === JSON.stringify({ kind: 'user', id: ownerId })),
      );
      assert.equal(
        (await events('entity=session')).filter(
          (e) => e.data.userId === other.id && e.key === 'session.deleted',
        ).length,
        0,
      );

      const again = await signIn('out@acme.test', browser);
      assert.equal((await userinfo(again.accessToken)).status, 200);
      const none = await call(server, 'DELETE', `/organizations/acme/users/${other.id}/sessions`, owner);
      assert.equal(none.status, 204, 'a user with nothing to end: 204 too');
    });

    test('DELETE: 204; the user, their sessions and their own tenant are gone, audited; then 404', {
      skip,
    }, async () => {
      const user = await newUser('gone@acme.test', { first_name: 'Gone' });
      const tokens = await signIn('gone@acme.test');
      const path = `/organizations/acme/users/${user.id}`;
      const res = await call(server, 'DELETE', path, owner);
      assert.equal(res.status, 204);
      assert.equal(res.text, '');

      assert.deepEqual((await call(server, 'GET', path, owner)).body, NO_SUCH_USER);
      assert.deepEqual((await call(server, 'DELETE', path, owner)).body, NO_SUCH_USER);
      assert.equal((await refresh(tokens.refreshToken)).body.error, 'invalid_grant');
      assert.equal((await userinfo(tokens.accessToken)).status, 401);
      const browser = new FormBrowser();
      const refused = await submitLogin(browser, await startAuthorize(browser), 'gone@acme.test', PASSWORD);
      assert.equal(refused.status, 400);

      const entries = (await events('')).filter(
        (e) => e.data.id === user.id || e.data.userId === user.id || e.data.ownerId === user.id,
      );
      const tenantCreated = entries.find((e) => e.key === 'tenant.created');
      assert.ok(tenantCreated);
      const tenantId = tenantCreated.data.id;
      assert.deepEqual(
        entries.map((e) => e.key),
        [
          'user.deleted',
          'session.deleted',
          'session.created',
          // An own client asks no consent to the identity scopes: no consent.created.
          'user.login',
          'tenant.created',
          'user.created',
        ],
      );
      const deleted = entries[0];
      assert.deepEqual(deleted?.actor, { kind: 'user', id: ownerId });
      assert.deepEqual(deleted?.data, {
        id: user.id,
        email: 'gone@acme.test',
        firstName: 'Gone',
        lastName: null,
        picture: null,
        provider: 'password',
        disabled: false,
        emailVerified: false,
        ...NO_SNAPSHOT_CLAIMS,
        createdAt: user.created_at,
      });
      const tenantDeleted = (await events('key_prefix=tenant.deleted')).find((e) => e.data.id === tenantId);
      assert.deepEqual(tenantDeleted?.data, {
        id: tenantId,
        name: 'Personal',
        logo: null,
        createdAt: user.created_at,
      });
      assert.equal(
        await server.db
          .selectFrom('tenants')
          .select('id')
          .where('id', '=', String(tenantId))
          .executeTakeFirst(),
        undefined,
      );
    });

    test('POST is audited as user.created and tenant.created; no password or hash anywhere', {
      skip,
    }, async () => {
      const user = await newUser('audited@acme.test', { last_name: 'Audit' });
      const created = (await events('key_prefix=user.created')).find((e) => e.data.id === user.id);
      assert.deepEqual(created?.actor, { kind: 'user', id: ownerId });
      assert.deepEqual(created?.data, {
        id: user.id,
        email: 'audited@acme.test',
        firstName: null,
        lastName: 'Audit',
        picture: null,
        provider: 'password',
        disabled: false,
        emailVerified: false,
        ...NO_SNAPSHOT_CLAIMS,
        createdAt: user.created_at,
      });
      const tenant = (await events('key_prefix=tenant.created')).find((e) => e.data.ownerId === user.id);
      assert.deepEqual(tenant?.actor, { kind: 'user', id: ownerId });

      const everything = await call(server, 'GET', '/organizations/acme/events?per_page=100', owner);
      assert.ok(!everything.text.includes(PASSWORD));
      assert.ok(!everything.text.includes('argon2'));
      const rows = await server.db.selectFrom('audit_events').selectAll().execute();
      for (const r of rows) assert.ok(!`${r.data}${r.previous}${r.changes}`.includes('argon2'));
      assert.ok(logs.length > 0);
      assert.ok(!logs.join('\n').includes(PASSWORD), 'no password in what the server logged');
    });
  });
}
