import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { DEFAULT_CONSOLE_SCOPE } from '../../src/domain/directory/console-scopes.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { addTenantMember } from '../../src/storage/repos/tenant-members.js';
import { startServer, type TestServer } from '../support/server.js';
import { api, makeClient, makeOrg, makeUser, signIn, tokenRequest } from './support/fixtures.js';

/** The bearer APIs the SDK calls, with the answers a user of them would expect. */
describe('bearer APIs: users/me, tenants, organizations', () => {
  let server: TestServer;
  let issuer: string;
  let clientId: string;
  let ada: { accessToken: string };
  let bob: { accessToken: string };
  let adaId: string;
  let bobId: string;

  before(async () => {
    server = await startServer();
    issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    adaId = (await makeUser(server.deps, org, 'ada@acme.test')).user.id;
    bobId = (await makeUser(server.deps, org, 'bob@acme.test')).user.id;
    ({ clientId } = await makeClient(server.deps, org));
    ada = await signIn(issuer, clientId, 'ada@acme.test');
    bob = await signIn(issuer, clientId, 'bob@acme.test');
  });
  after(() => server.close());

  const events = (key: string) =>
    server.db.selectFrom('audit_events').selectAll().where('key', '=', key).orderBy('id').execute();

  test('GET /users/me answers the spec’s User record', async () => {
    const me = await api(issuer, 'GET', 'users/me', ada.accessToken);
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, {
      email: 'ada@acme.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
      picture: null,
      provider: 'password',
    });
  });

  test('no token, a forged one, a machine token or another org’s token: the same 401', async () => {
    const machine = await makeClient(server.deps, await makeOrg(server, 'beta'), {
      kind: 'confidential',
      redirectUris: [],
    });
    const mt = await tokenRequest(server.issuer('beta'), {
      grant_type: 'client_credentials',
      client_id: machine.clientId,
      client_secret: machine.secret as string,
    });
    const forged = `${ada.accessToken.slice(0, -4)}AAAA`;
    for (const [token, base] of [
      [null, issuer],
      ['not.a.jwt', issuer],
      [forged, issuer],
      [mt.body.access_token as string, server.issuer('beta')],
      [ada.accessToken, server.issuer('beta')],
    ] as const) {
      const r = await api(base, 'GET', 'users/me', token);
      assert.equal(r.status, 401);
      assert.deepEqual(r.body, { error: 'unauthorized', error_detail: "we don't know who you are" });
      assert.match(
        r.headers.get('www-authenticate') ?? '',
        token === null ? /^Bearer realm="tessera"$/ : /error="invalid_token"/,
      );
    }
  });

  test('tenants: list, create (owner), rename and logo (owner only), delete (not the last)', async () => {
    const listed = await api(issuer, 'GET', 'tenants', ada.accessToken);
    assert.deepEqual(listed.body, [
      { id: decodeJwt(ada.accessToken).tnt, name: 'Personal', role: 'owner', logo: null },
    ]);

    const created = await api(issuer, 'POST', 'tenants', ada.accessToken, { name: 'Analytical Engines' });
    assert.equal(created.status, 201);
    assert.deepEqual(
      { ...created.body, id: undefined },
      { id: undefined, name: 'Analytical Engines', role: 'owner', logo: null },
    );
    const id = created.body.id as string;
    assert.match(id, /^tnt_/);

    const renamed = await api(issuer, 'PATCH', `tenants/${id}`, ada.accessToken, {
      name: 'Engines Ltd',
      logo: 'https://cdn.example/logo.png',
    });
    assert.deepEqual(renamed.body, {
      id,
      name: 'Engines Ltd',
      role: 'owner',
      logo: 'https://cdn.example/logo.png',
    });

    assert.equal(
      (await api(issuer, 'PATCH', `tenants/${id}`, bob.accessToken, { name: 'Mine' })).status,
      404,
    );
    await addTenantMember(server.db, id, bobId, 'member', Date.now());
    const asMember = await api(issuer, 'PATCH', `tenants/${id}`, bob.accessToken, { name: 'Mine' });
    assert.deepEqual([asMember.status, asMember.body.error], [403, 'forbidden']);
    assert.equal((await api(issuer, 'DELETE', `tenants/${id}`, bob.accessToken)).status, 403);

    const updates = await events('tenant.updated');
    const last = updates.at(-1);
    assert.equal(last?.actor_id, adaId);
    assert.deepEqual(JSON.parse(last?.changes ?? '{}'), {
      name: 'Engines Ltd',
      logo: 'https://cdn.example/logo.png',
    });

    assert.equal((await api(issuer, 'DELETE', `tenants/${id}`, ada.accessToken)).status, 204);
    assert.equal((await events('tenant.deleted')).length, 1);
    const personal = decodeJwt(ada.accessToken).tnt as string;
    const lastOne = await api(issuer, 'DELETE', `tenants/${personal}`, ada.accessToken);
    assert.deepEqual([lastOne.status, lastOne.body.error], [409, 'conflict']);
    assert.equal((await api(issuer, 'DELETE', 'tenants/tnt_unknown', ada.accessToken)).status, 404);
  });

  test('tenant bodies are checked: unknown fields, wrong types, bad logos, not JSON', async () => {
    for (const [method, path, body] of [
      ['POST', 'tenants', {}],
      ['POST', 'tenants', { name: 'x', extra: 1 }],
      ['POST', 'tenants', { name: 42 }],
      ['POST', 'tenants', { name: '   ' }],
      ['PATCH', `tenants/${decodeJwt(ada.accessToken).tnt}`, { logo: 'javascript:alert(1)' }],
      ['POST', 'tenants', ['name']],
    ] as const) {
      const r = await api(issuer, method, path, ada.accessToken, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error, 'invalid_body');
      assert.ok(r.body.error_detail);
    }
    const response = await fetch(new URL('tenants', issuer), {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.accessToken}`, 'content-type': 'application/json' },
      body: '{"name":',
    });
    assert.equal(response.status, 400);
  });

  test('every change is audited: user.login on each sign-in, tenant.created, session.created', async () => {
    const logins = await events('user.login');
    assert.ok(logins.length >= 2);
    assert.deepEqual(JSON.parse(logins[0]?.data ?? '{}').amr, ['pwd']);
    assert.ok((await events('tenant.created')).some((e) => e.actor_id === adaId));
    assert.ok((await events('session.created')).length >= 2);
  });

  test('console sign-ins produce console tokens; GET /organizations/{slug} returns the membership', async () => {
    const consoleOrg = await findConsoleOrg(server.db);
    assert.ok(consoleOrg);
    const consoleClient = await makeClient(server.deps, consoleOrg, { name: 'Console' });
    const consoleIssuer = `${server.base}/`;
    const owner = await signIn(
      consoleIssuer,
      consoleClient.clientId,
      'owner@acme.test',
      undefined,
      'owner password 1',
    );
    const claims = decodeJwt(owner.accessToken);
    // The spec's claims plus RFC 9068's client_id and scope (the console scopes go beyond identity).
    assert.deepEqual(Object.keys(claims).sort(), [
      'acr',
      'amr',
      'aud',
      'client_id',
      'exp',
      'iat',
      'iss',
      'jti',
      'scope',
      'sid',
      'sub',
      'typ',
    ]);
    assert.equal(claims.typ, 'console');
    assert.equal(claims.client_id, consoleClient.clientId);
    assert.equal(claims.scope, DEFAULT_CONSOLE_SCOPE);
    assert.equal(claims.iss, consoleIssuer);

    const acme = await api(consoleIssuer, 'GET', 'organizations/acme', owner.accessToken);
    assert.equal(acme.status, 200);
    assert.deepEqual({ ...acme.body, id: undefined }, { id: undefined, slug: 'acme', role: 'owner' });
    assert.match(acme.body.id, /^org_/);
    assert.equal(
      (await api(consoleIssuer, 'GET', 'organizations/beta', owner.accessToken)).status,
      404,
      'not a member',
    );
    assert.equal((await api(consoleIssuer, 'GET', 'organizations/nope', owner.accessToken)).status, 404);
    assert.equal((await api(consoleIssuer, 'GET', 'organizations/acme', ada.accessToken)).status, 401);
    assert.equal((await api(consoleIssuer, 'GET', 'organizations/acme', null)).status, 401);
    assert.equal(
      (await api(consoleIssuer, 'GET', 'users/me', owner.accessToken)).body.email,
      'owner@acme.test',
    );
    assert.equal(
      (await api(consoleIssuer, 'GET', 'tenants', owner.accessToken)).status,
      401,
      'tenant APIs take user tokens',
    );
  });
});
