import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type CryptoKey, decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { call, ownerMemberStranger } from './support/console.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const NO_SUCH_ORG = { error: 'not_found', error_detail: 'no such organization' };
const INVALID_CLIENT = { error: 'invalid_client', error_description: 'client authentication failed' };

/**
 * Service accounts (DESIGN §16) end to end: an owner makes one, it gets a client_credentials
 * token from the console issuer and manages its org's users through the management API, within
 * its scopes and its org only, audited as the client. On both databases: the accounts are rows of
 * their own (migration 022) read on every management call.
 */
for (const database of httpSuite()) {
  describe(`service accounts on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let owner: string;
    let ownerId: string;
    let member: string;
    let stranger: string;
    let consoleIssuer: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      ({ owner, ownerId, member, stranger } = await ownerMemberStranger(server));
      consoleIssuer = `${server.base}/`;
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const create = async (body: unknown, token = owner) => {
      const res = await call(server, 'POST', '/organizations/acme/service-accounts', token, body);
      assert.equal(res.status, 201, res.text);
      return res.body as { client_id: string; client_secret: string; scopes: string[] };
    };

    const machineToken = (clientId: string, secret: string, extra: Record<string, string> = {}) =>
      tokenRequest(consoleIssuer, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
        ...extra,
      });

    const tokenOf = async (clientId: string, secret: string) => {
      const res = await machineToken(clientId, secret);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.access_token as string;
    };

    test('an owner creates one: the secret is shown once, never listed; members 403, strangers 404', {
      skip,
    }, async () => {
      const res = await call(server, 'POST', '/organizations/acme/service-accounts', owner, {
        name: 'Provisioning backend',
        scopes: ['org:write', 'org:read', 'org:read'],
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const { client_id, client_secret, created_at, secret_issued_at } = res.body;
      assert.match(client_id, /^cli_/);
      assert.match(client_secret, /^tcs_/);
      assert.match(created_at, ISO_MS_UTC);
      assert.deepEqual(res.body, {
        client_id,
        name: 'Provisioning backend',
        scopes: ['org:read', 'org:write'],
        token_endpoint: `${server.base}/oauth/token`,
        secret_issued_at,
        created_at,
        client_secret,
      });
      const list = await call(server, 'GET', '/organizations/acme/service-accounts', owner);
      assert.equal(list.status, 200);
      const listed = list.body.find((a: { client_id: string }) => a.client_id === client_id);
      const { client_secret: _shown, ...stored } = res.body;
      assert.deepEqual(listed, stored);
      assert.equal(JSON.stringify(list.body).includes(client_secret), false);
      const one = await call(server, 'GET', `/organizations/acme/service-accounts/${client_id}`, owner);
      assert.equal(one.status, 200);
      assert.equal(one.body.client_secret, undefined);
      assert.equal(one.body.name, 'Provisioning backend');
      // The bound org's client list does not show it: it is a console client.
      const clients = await call(server, 'GET', '/organizations/acme/clients', owner);
      assert.equal(
        clients.body.some((c: { client_id: string }) => c.client_id === client_id),
        false,
      );
      // Another org's owner cannot see it.
      const foreign = await call(
        server,
        'GET',
        `/organizations/beta/service-accounts/${client_id}`,
        stranger,
      );
      assert.deepEqual(foreign.body, { error: 'not_found', error_detail: 'no such service account' });

      const byMember = await call(server, 'POST', '/organizations/acme/service-accounts', member, {
        name: 'x',
        scopes: ['org:read'],
      });
      assert.equal(byMember.status, 403);
      assert.equal(byMember.body.error, 'forbidden');
      const byStranger = await call(server, 'POST', '/organizations/acme/service-accounts', stranger, {
        name: 'x',
        scopes: ['org:read'],
      });
      assert.equal(byStranger.status, 404);
      assert.deepEqual(byStranger.body, NO_SUCH_ORG);
    });

    test('never users:impersonate, nor an unknown scope, nor none', { skip }, async () => {
      for (const [scopes, detail] of [
        [['users:impersonate'], 'scopes[0]: must be one of org:read, events:read, org:write'],
        [['org:read', 'admin'], 'scopes[1]: must be one of org:read, events:read, org:write'],
        [[], 'scopes: must name at least one scope'],
      ] as const) {
        const res = await call(server, 'POST', '/organizations/acme/service-accounts', owner, {
          name: 'Too much',
          scopes,
        });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      }
    });

    test('its token creates and lists users of its org; another org 404; beyond its scopes 403; audited as the client', {
      skip,
    }, async () => {
      const account = await create({ name: 'Users sync', scopes: ['org:read', 'org:write'] });
      const issued = await machineToken(account.client_id, account.client_secret);
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      assert.equal(issued.body.scope, 'org:read org:write');
      const token = issued.body.access_token as string;
      const claims = decodeJwt(token);
      assert.equal(claims.typ, 'client');
      assert.equal(claims.sub, account.client_id);
      assert.equal(claims.client_id, account.client_id);
      assert.equal(claims.scope, 'org:read org:write');
      assert.equal(claims.iss, consoleIssuer);

      const made = await call(server, 'POST', '/organizations/acme/users', token, {
        email: 'synced@acme.test',
        first_name: 'Synced',
      });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.body.email, 'synced@acme.test');
      const listed = await call(server, 'GET', '/organizations/acme/users?q=synced', token);
      assert.equal(listed.status, 200);
      assert.deepEqual(
        listed.body.map((u: { id: string }) => u.id),
        [made.body.id],
      );

      // Another org, existing or not: the stranger's 404.
      for (const org of ['beta', 'nowhere']) {
        const other = await call(server, 'GET', `/organizations/${org}/users`, token);
        assert.equal(other.status, 404, org);
        assert.deepEqual(other.body, NO_SUCH_ORG);
      }
      // Beyond its scopes: the audit list needs events:read.
      const events = await call(server, 'GET', '/organizations/acme/events', token);
      assert.equal(events.status, 403);
      assert.equal(events.body.error, 'insufficient_scope');
      assert.equal(
        events.headers.get('www-authenticate'),
        'Bearer realm="tessera", error="insufficient_scope", scope="events:read"',
      );
      // Routes for people only: a console user's org list, the org's service accounts.
      for (const [method, path] of [
        ['GET', '/organizations'],
        ['GET', '/organizations/acme/service-accounts'],
        ['POST', `/organizations/acme/service-accounts/${account.client_id}/secret`],
      ] as const) {
        const refused = await call(server, method, path, token);
        assert.equal(refused.status, 403, path);
        assert.equal(refused.body.error, 'forbidden', path);
      }

      // The owner reads the audit: the user's creation names the client.
      const audit = await call(
        server,
        'GET',
        `/organizations/acme/events?per_page=100&actor_id=${account.client_id}`,
        owner,
      );
      assert.equal(audit.status, 200);
      assert.deepEqual(
        audit.body.map((e: { key: string }) => e.key),
        ['tenant.created', 'user.created'],
      );
      const userCreated = audit.body.find((e: { key: string }) => e.key === 'user.created');
      assert.deepEqual(userCreated.actor, { kind: 'client', id: account.client_id });
      assert.equal(userCreated.data.id, made.body.id);
      for (const e of audit.body) assert.deepEqual(e.actor, { kind: 'client', id: account.client_id });
    });

    test('with org:write it neither invites (an owner or anyone), nor demotes or removes an owner: 403, nothing stored', {
      skip,
    }, async () => {
      const account = await create({ name: 'Escalator', scopes: ['org:read', 'org:write', 'events:read'] });
      const token = await tokenOf(account.client_id, account.client_secret);
      const NOT_A_PERSON = {
        error: 'forbidden',
        error_detail: 'a service account cannot do this: it is for the organization’s owners',
      };
      const pending = await call(server, 'POST', '/organizations/acme/members', owner, {
        email: 'pending-owner@example.com',
        role: 'owner',
        send_mail: false,
      });
      assert.equal(pending.status, 201, pending.text);
      const attempts = [
        [
          'POST',
          '/organizations/acme/members',
          { email: 'attacker@evil.test', role: 'owner', send_mail: false },
        ],
        ['POST', '/organizations/acme/invitations', { email: 'attacker@evil.test', send_mail: false }],
        [
          'POST',
          '/organizations/acme/invitations',
          { email: 'attacker@evil.test', roles: ['owner'], send_mail: false },
        ],
        ['PATCH', `/organizations/acme/members/${ownerId}`, { role: 'member' }],
        ['DELETE', `/organizations/acme/members/${ownerId}`, undefined],
        ['GET', '/organizations/acme/invitations', undefined],
        ['GET', `/organizations/acme/invitations/${pending.body.id}`, undefined],
        ['DELETE', `/organizations/acme/invitations/${pending.body.id}`, undefined],
        ['POST', `/organizations/acme/users/usr_x/impersonation`, { reason: 'x' }],
      ] as const;
      for (const [method, path, body] of attempts) {
        const res = await call(server, method, path, token, body);
        assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
        assert.deepEqual(res.body, NOT_A_PERSON, `${method} ${path}`);
        assert.equal(res.headers.get('www-authenticate'), null, `${method} ${path}: no scope would help`);
      }
      // Nor does it reach the owner's console account as one of the org's end users.
      for (const [method, path, body] of [
        ['PATCH', `/organizations/acme/users/${ownerId}`, { disabled: true }],
        ['DELETE', `/organizations/acme/users/${ownerId}/sessions`, undefined],
        ['DELETE', `/organizations/acme/users/${ownerId}`, undefined],
      ] as const) {
        const res = await call(server, method, path, token, body);
        assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
        assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no such user' }, `${method} ${path}`);
      }
      const invited = await server.db
        .selectFrom('invitations')
        .select('email')
        .where('email', 'like', '%evil.test')
        .execute();
      assert.deepEqual(invited, []);
      // The owner is still the owner, the owner's invitation still pending; the account still reads members.
      const members = await call(server, 'GET', '/organizations/acme/members', token);
      assert.equal(members.status, 200);
      assert.deepEqual(
        members.body.find((m: { user_id: string }) => m.user_id === ownerId),
        { user_id: ownerId, email: 'owner@acme.test', role: 'owner' },
      );
      const still = await call(server, 'GET', `/organizations/acme/invitations/${pending.body.id}`, owner);
      assert.equal(still.body.state, 'pending');
      const audit = await call(
        server,
        'GET',
        `/organizations/acme/events?actor_id=${account.client_id}`,
        owner,
      );
      assert.deepEqual(audit.body, []);
    });

    test('a narrower scope may be asked for; a wider one is invalid_scope; an org’s own issuer does not know the account', {
      skip,
    }, async () => {
      const account = await create({ name: 'Reader', scopes: ['org:read', 'events:read'] });
      const narrow = await machineToken(account.client_id, account.client_secret, { scope: 'events:read' });
      assert.equal(narrow.status, 200);
      assert.equal(narrow.body.scope, 'events:read');
      const users = await call(
        server,
        'GET',
        '/organizations/acme/users',
        narrow.body.access_token as string,
      );
      assert.equal(users.status, 403);
      assert.equal(users.body.error, 'insufficient_scope');
      const wide = await machineToken(account.client_id, account.client_secret, { scope: 'org:write' });
      assert.equal(wide.status, 400);
      assert.deepEqual(wide.body, {
        error: 'invalid_scope',
        error_description: 'this service account may not have the scope org:write',
      });
      // The same client id at an org's own issuer is unknown there.
      const elsewhere = await tokenRequest(server.issuer('acme'), {
        grant_type: 'client_credentials',
        client_id: account.client_id,
        client_secret: account.client_secret,
      });
      assert.equal(elsewhere.status, 401);
      assert.deepEqual(elsewhere.body, INVALID_CLIENT);
    });

    test('rotation: the old secret stops working, the new one works; audited as service_account.updated', {
      skip,
    }, async () => {
      const account = await create({ name: 'Rotated', scopes: ['org:read'] });
      const before = await tokenOf(account.client_id, account.client_secret);
      const rotated = await call(
        server,
        'POST',
        `/organizations/acme/service-accounts/${account.client_id}/secret`,
        owner,
      );
      assert.equal(rotated.status, 200);
      assert.equal(rotated.headers.get('cache-control'), 'no-store');
      assert.match(rotated.body.client_secret, /^tcs_/);
      assert.notEqual(rotated.body.client_secret, account.client_secret);
      const old = await machineToken(account.client_id, account.client_secret);
      assert.equal(old.status, 401);
      assert.deepEqual(old.body, INVALID_CLIENT);
      const fresh = await tokenOf(account.client_id, rotated.body.client_secret);
      assert.equal((await call(server, 'GET', '/organizations/acme/users', fresh)).status, 200);
      // A token issued before keeps working until it expires.
      assert.equal((await call(server, 'GET', '/organizations/acme/users', before)).status, 200);
      const audit = await call(server, 'GET', '/organizations/acme/events?entity=service_account', owner);
      const entry = audit.body.find(
        (e: { key: string; data: { id: string } }) =>
          e.key === 'service_account.updated' && e.data.id === account.client_id,
      );
      assert.ok(entry, JSON.stringify(audit.body));
      assert.deepEqual(Object.keys(entry.changes), ['secretIssuedAt']);
      assert.equal(JSON.stringify(audit.body).includes(rotated.body.client_secret), false);
    });

    test('deletion: its tokens stop at once and the token endpoint no longer knows it', {
      skip,
    }, async () => {
      const account = await create({ name: 'Short-lived', scopes: ['org:read'] });
      const token = await tokenOf(account.client_id, account.client_secret);
      const gone = await call(
        server,
        'DELETE',
        `/organizations/acme/service-accounts/${account.client_id}`,
        owner,
      );
      assert.equal(gone.status, 204);
      const refused = await call(server, 'GET', '/organizations/acme/users', token);
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="tessera", error="invalid_token"');
      assert.deepEqual((await machineToken(account.client_id, account.client_secret)).body, INVALID_CLIENT);
      const again = await call(
        server,
        'GET',
        `/organizations/acme/service-accounts/${account.client_id}`,
        owner,
      );
      assert.equal(again.status, 404);
      const audit = await call(server, 'GET', '/organizations/acme/events?entity=service_account', owner);
      assert.ok(
        audit.body.some(
          (e: { key: string; data: { id: string } }) =>
            e.key === 'service_account.deleted' && e.data.id === account.client_id,
        ),
      );
    });

    test('private_key_jwt: an account with public keys gets its token with a signed assertion', {
      skip,
    }, async () => {
      const pair = await generateKeyPair('ES256');
      const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'sa1' };
      const account = await create({ name: 'Keyed', scopes: ['org:read'], jwks: { keys: [publicJwk] } });
      const assertion = (key: CryptoKey) => {
        const iat = Math.floor(Date.now() / 1000);
        return new SignJWT({
          jti: randomUUID(),
          iss: account.client_id,
          sub: account.client_id,
          aud: `${server.base}/oauth/token`,
          iat,
          exp: iat + 300,
        })
          .setProtectedHeader({ alg: 'ES256', kid: 'sa1' })
          .sign(key);
      };
      const res = await tokenRequest(consoleIssuer, {
        grant_type: 'client_credentials',
        client_assertion_type: JWT_BEARER_ASSERTION,
        client_assertion: await assertion(pair.privateKey),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.scope, 'org:read');
      const users = await call(server, 'GET', '/organizations/acme/users', res.body.access_token as string);
      assert.equal(users.status, 200);
      const other = await generateKeyPair('ES256');
      const forged = await tokenRequest(consoleIssuer, {
        grant_type: 'client_credentials',
        client_assertion_type: JWT_BEARER_ASSERTION,
        client_assertion: await assertion(other.privateKey),
      });
      assert.equal(forged.status, 401);
      assert.deepEqual(forged.body, INVALID_CLIENT);
    });
  });
}
