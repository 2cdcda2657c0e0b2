import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import SCIMMY from 'scimmy';
import { linkDecision } from '../../src/domain/federation/account-linking.js';
import { type Connection, createConnection } from '../../src/domain/federation/index.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { call, ownerMemberStranger } from '../management/support/console.js';
import {
  CALLBACK,
  makeClient,
  makeUser,
  PASSWORD,
  signIn,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { cliEnv, tessera } from '../support/cli.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * SCIM 2.0 inbound provisioning (issue 45, DESIGN §19), driven with the request bodies Okta's and
 * Microsoft Entra's provisioning send, as their public documentation shows them:
 * - Okta: "SCIM 2.0 protocol reference", developer.okta.com/docs/api/openapi/okta-scim/guides/scim-20
 *   (create user, the userName filter before it, PUT update, PATCH deactivate, groups);
 * - Entra: "Tutorial: Develop and plan provisioning for a SCIM endpoint",
 *   learn.microsoft.com/entra/identity/app-provisioning/use-scim-to-provision-users-and-groups
 *   (create user, filters, PATCH multi-valued and single-valued, add manager, disable, delete), and
 *   "Known issues and resolutions with SCIM 2.0 protocol compliance",
 *   learn.microsoft.com/entra/identity/app-provisioning/application-provisioning-config-problem-scim-compatibility
 *   (capitalised `op`, `"False"` as a string, path-less value objects).
 * Every SCIM answer body is validated by an independent library (scimmy) against RFC 7643's schemas.
 * On both databases: what is stored (users, versions, audit entries, sessions ended).
 */

SCIMMY.Resources.declare(SCIMMY.Resources.User).extend(SCIMMY.Schemas.EnterpriseUser);

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

interface ScimResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: SCIM bodies are asserted field by field
  body: any;
}

/** A SCIM user answer, held to RFC 7643's User schema (with the enterprise extension) by scimmy. */
function validUser(body: Record<string, unknown>) {
  // Throws naming the attribute when the body breaks the schema (a type, a required attribute).
  new SCIMMY.Schemas.User(body, 'out');
  assert.ok(Array.isArray(body.schemas) && (body.schemas as string[]).includes(USER));
}

/** A SCIM error answer, as scimmy builds the same error (RFC 7644 §3.12: status and scimType agree). */
function validError(res: ScimResponse, status: number, scimType?: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /^application\/scim\+json/);
  const expected = new SCIMMY.Messages.Error({
    status: status as never,
    ...(scimType ? { scimType: scimType as never } : {}),
    detail: res.body.detail,
  });
  assert.deepEqual(res.body, JSON.parse(JSON.stringify(expected)));
  assert.deepEqual(res.body.schemas, [ERROR]);
}

/** A SCIM group answer, held to RFC 7643's Group schema by scimmy. */
function validGroup(body: Record<string, unknown>) {
  new SCIMMY.Schemas.Group(body, 'out');
  assert.deepEqual(body.schemas, [GROUP]);
}

function validList(body: Record<string, unknown>) {
  new SCIMMY.Messages.ListResponse(body as never);
  assert.deepEqual(body.schemas, [LIST]);
  for (const r of body.Resources as Record<string, unknown>[]) validUser(r);
}

for (const database of storageSuite(
  'provisioned users, their SCIM records and versions, audit entries and sessions ended in one transaction',
)) {
  describe(`SCIM 2.0 provisioning on ${database}`, async () => {
    const skip = await databaseSkip(database);
    const test = storageTestsOn(database, [
      'Okta: check, create, PUT, deactivate, reactivate, delete — stored, audited as the system with the directory',
      'Entra: create, the filters, PATCH as documented and with its quirks, manager, disable, delete',
      'deactivation ends the user’s sessions at once: the refresh token is invalid_grant, sign-in refused; reactivation works',
      'an address held by a user the directory did not create is 409 uniqueness until an owner adopts them',
      'groups as Okta and Entra send them; an owner maps a group to roles, membership gives and takes them',
    ]);
    let server: TestServer;
    let acme: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    let connection: Connection;
    /** Directory A (tied to the connection: acme.example), B (no connection) of acme, C of beta. */
    let dirA: { id: string; token: string; scim_base_url: string };
    let dirB: { id: string; token: string; scim_base_url: string };
    let dirC: { id: string; token: string; scim_base_url: string };

    async function scim(
      base: string,
      token: string | null,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ): Promise<ScimResponse> {
      const response = await fetch(new URL(path, base), {
        method,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
    }
    const inA = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      scim(dirA.scim_base_url, dirA.token, method, path, body, headers);
    const inB = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      scim(dirB.scim_base_url, dirB.token, method, path, body, headers);

    const auditOf = (userId: string) =>
      server.db
        .selectFrom('audit_events')
        .select(['key', 'actor_kind', 'data'])
        .where('org_id', '=', acme.id)
        .where('data', 'like', `%${userId}%`)
        .orderBy('id')
        .execute();

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      const cast = await ownerMemberStranger(server);
      ({ acme, owner, member, stranger } = cast);
      connection = await createConnection(
        server.deps,
        acme,
        {
          type: 'oidc',
          name: 'Acme IdP',
          issuer: 'https://idp.acme.example',
          clientId: 'rp',
          clientSecret: 'rp secret',
          domains: ['acme.example'],
        },
        SYSTEM,
      );
      const create = async (org: string, token: string, body: object) => {
        const res = await call(server, 'POST', `/organizations/${org}/directories`, token, body);
        assert.equal(res.status, 201, res.text);
        return res.body;
      };
      dirA = await create('acme', owner, { name: 'Okta', connection: connection.id });
      dirB = await create('acme', owner, { name: 'Entra' });
      dirC = await create('beta', stranger, { name: 'Beta directory' });
    });
    after(async () => {
      await server?.close();
    });

    test('directories: owners only; the token is answered once, hashed, rotated; the base URL is the org’s', {
      skip,
    }, async () => {
      assert.match(dirA.id, /^dir_/);
      assert.match(dirA.token, /^tsc_[A-Za-z0-9_-]{43}$/);
      assert.equal(dirA.scim_base_url, `${server.issuer('acme')}scim/v2/`);
      const stored = await server.db
        .selectFrom('scim_directories')
        .selectAll()
        .where('id', '=', dirA.id)
        .executeTakeFirstOrThrow();
      assert.notEqual(stored.token_hash, dirA.token);
      assert.equal(JSON.stringify(stored).includes(dirA.token), false);
      const list = await call(server, 'GET', '/organizations/acme/directories', owner);
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((d: { id: string; connection: string | null }) => [d.id, d.connection]),
        [
          [dirA.id, connection.id],
          [dirB.id, null],
        ],
      );
      assert.equal(list.text.includes('tsc_'), false);
      const one = await call(server, 'GET', `/organizations/acme/directories/${dirA.id}`, owner);
      assert.equal(one.status, 200);
      assert.equal('token' in one.body, false);
      // A member, a stranger, another org's directory, a connection of another org.
      assert.equal((await call(server, 'GET', '/organizations/acme/directories', member)).status, 403);
      assert.equal((await call(server, 'GET', '/organizations/acme/directories', stranger)).status, 404);
      assert.equal(
        (await call(server, 'GET', `/organizations/acme/directories/${dirC.id}`, owner)).status,
        404,
      );
      assert.equal(
        (await call(server, 'POST', '/organizations/acme/directories', member, { name: 'x' })).status,
        403,
      );
      const foreign = await call(server, 'POST', '/organizations/beta/directories', stranger, {
        name: 'x',
        connection: connection.id,
      });
      assert.equal(foreign.status, 400);
      assert.equal(foreign.headers.get('tessera-error-code'), 'directory.connection.unknown');
      // Rotation: the old token stops at once, the new one works.
      const scratch = await call(server, 'POST', '/organizations/acme/directories', owner, {
        name: 'Scratch',
      });
      const before = scratch.body.token as string;
      assert.equal((await scim(scratch.body.scim_base_url, before, 'GET', 'Users')).status, 200);
      const rotated = await call(
        server,
        'POST',
        `/organizations/acme/directories/${scratch.body.id}/token`,
        owner,
      );
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.token, before);
      validError(await scim(scratch.body.scim_base_url, before, 'GET', 'Users'), 401);
      assert.equal((await scim(scratch.body.scim_base_url, rotated.body.token, 'GET', 'Users')).status, 200);
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/directories/${scratch.body.id}`, owner)).status,
        204,
      );
      validError(await scim(scratch.body.scim_base_url, rotated.body.token, 'GET', 'Users'), 401);
      const audited = await server.db
        .selectFrom('audit_events')
        .select(['key', 'actor_kind'])
        .where('data', 'like', `%${scratch.body.id}%`)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        audited.map((e) => e.key),
        ['directory.created', 'directory.updated', 'directory.deleted'],
      );
      assert.equal(JSON.stringify(audited).includes('tsc_'), false);
    });

    test('a directory’s token is its own: another directory’s users are 404, another org’s host 401, no token 401', {
      skip,
    }, async () => {
      const created = await inB('POST', 'Users', { schemas: [USER], userName: 'own@acme.example' });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      // A's token cannot see, change or delete B's user; neither can beta's directory.
      validError(await inA('GET', `Users/${id}`), 404);
      validError(
        await inA('PATCH', `Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', value: { active: false } }],
        }),
        404,
      );
      validError(await inA('DELETE', `Users/${id}`), 404);
      const listed = await inA('GET', `Users?filter=${encodeURIComponent('userName eq "own@acme.example"')}`);
      assert.equal(listed.body.totalResults, 0);
      // Beta's token at acme's host, acme's at beta's: no one there.
      validError(await scim(dirA.scim_base_url, dirC.token, 'GET', `Users/${id}`), 401);
      validError(await scim(dirC.scim_base_url, dirA.token, 'GET', 'Users'), 401);
      const none = await scim(dirA.scim_base_url, null, 'GET', 'Users');
      validError(none, 401);
      assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="tessera"');
      validError(await scim(dirA.scim_base_url, `${dirA.token}x`, 'GET', 'Users'), 401);
      // A console token is no SCIM token.
      validError(await scim(dirA.scim_base_url, owner, 'GET', 'Users'), 401);
      const still = await inB('GET', `Users/${id}`);
      assert.equal(still.status, 200);
      assert.equal(still.body.active, true);
    });

    test('a directory of one org never reaches another org: its users, roles and directories; a SCIM token is no API token', {
      skip,
    }, async () => {
      const betaUser = await call(server, 'POST', '/organizations/beta/users', stranger, {
        email: 'bo@beta.example',
        password: 'a password of beta’s',
      });
      assert.equal(betaUser.status, 201, betaUser.text);
      const bo = betaUser.body.id as string;
      const betaRole = await call(server, 'POST', '/organizations/beta/roles', stranger, {
        name: 'Beta admins',
      });
      assert.equal(betaRole.status, 201, betaRole.text);
      // Acme's directory token: beta's user is no one, by id, by filter, as a group member.
      validError(await inA('GET', `Users/${bo}`), 404);
      validError(
        await inA('PATCH', `Users/${bo}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', value: { active: false } }],
        }),
        404,
      );
      validError(await inA('PUT', `Users/${bo}`, { schemas: [USER], userName: 'bo@beta.example' }), 404);
      validError(await inA('DELETE', `Users/${bo}`), 404);
      for (const filter of [`id eq "${bo}"`, 'userName eq "bo@beta.example"', 'userName pr']) {
        const found = await inA('GET', `Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(found.status, 200);
        assert.equal(
          found.body.Resources.some((r: { id: string }) => r.id === bo),
          false,
        );
      }
      validError(
        await inA('POST', 'Groups', { schemas: [GROUP], displayName: 'Grab', members: [{ value: bo }] }),
        400,
        'invalidValue',
      );
      // Acme's owner: beta's user cannot be adopted, beta's role cannot be mapped, beta's directory is no one.
      const adopt = await call(server, 'POST', `/organizations/acme/directories/${dirA.id}/users`, owner, {
        user_id: bo,
      });
      assert.equal(adopt.status, 404, adopt.text);
      const group = await inA('POST', 'Groups', { schemas: [GROUP], displayName: 'Mapped' });
      assert.equal(group.status, 201);
      const mapped = await call(
        server,
        'PUT',
        `/organizations/acme/directories/${dirA.id}/groups/${group.body.id}/roles`,
        owner,
        { roles: [betaRole.body.id] },
      );
      assert.equal(mapped.status, 400, mapped.text);
      assert.deepEqual(mapped.body, {
        error: 'invalid_request',
        error_detail: `roles: "${betaRole.body.id}" is not a role of this organization`,
      });
      assert.equal(
        (await call(server, 'GET', `/organizations/beta/directories/${dirC.id}/groups`, owner)).status,
        404,
      );
      assert.equal(
        (await call(server, 'POST', `/organizations/beta/directories/${dirC.id}/token`, owner)).status,
        404,
      );
      // A directory's token is refused by the management API, on its own org too.
      for (const path of ['/organizations/acme/users', `/organizations/acme/directories/${dirA.id}`]) {
        const res = await call(server, 'GET', path, dirA.token);
        assert.equal(res.status, 401, res.text);
      }
      const boNow = await call(server, 'GET', `/organizations/beta/users/${bo}`, stranger);
      assert.equal(boNow.body.disabled, false);
      assert.equal((await inA('DELETE', `Groups/${group.body.id}`)).status, 204);
    });

    test('Okta: check, create, PUT, deactivate, reactivate, delete — stored, audited as the system with the directory', {
      skip,
    }, async () => {
      // Okta looks the user up by userName first (its "Check if user exists" request).
      const check = await inA(
        'GET',
        `Users?filter=${encodeURIComponent('userName eq "test.user@acme.example"')}&startIndex=1&count=100`,
      );
      assert.equal(check.status, 200);
      assert.deepEqual(check.body, {
        schemas: [LIST],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      });
      // Okta's create user request, its password included (never stored nor answered).
      const created = await inA('POST', 'Users', {
        schemas: [USER],
        userName: 'test.user@acme.example',
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: 'test.user@acme.example', type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      validUser(created.body);
      const id = created.body.id as string;
      assert.match(id, /^usr_/);
      assert.equal(created.headers.get('location'), `${dirA.scim_base_url}Users/${id}`);
      assert.equal(created.headers.get('etag'), 'W/"1"');
      assert.match(created.headers.get('content-type') ?? '', /^application\/scim\+json/);
      assert.deepEqual(created.body, {
        schemas: [USER],
        id,
        userName: 'test.user@acme.example',
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: 'test.user@acme.example', type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        active: true,
        meta: {
          resourceType: 'User',
          created: created.body.meta.created,
          lastModified: created.body.meta.lastModified,
          location: `${dirA.scim_base_url}Users/${id}`,
          version: 'W/"1"',
        },
      });
      const stored = await server.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(stored.org_id, acme.id);
      assert.equal(stored.email, 'test.user@acme.example');
      assert.equal(stored.first_name, 'Test');
      assert.equal(stored.email_verified, 1);
      assert.equal(stored.password_hash, null);
      assert.equal(stored.origin, 'connection');
      assert.equal(stored.origin_connection, connection.id);
      // Its connection's sign-in links it (the address is the connection's, the upstream vouches).
      const decision = await linkDecision(
        server.deps.store,
        acme,
        connection,
        { email: 'test.user@acme.example', emailVerified: true },
        {
          id,
          email: 'test.user@acme.example',
        } as never,
      );
      assert.deepEqual(decision, { kind: 'link', handOver: false });
      // Found now by the same filter Okta sends.
      const found = await inA(
        'GET',
        `Users?filter=${encodeURIComponent('userName eq "TEST.user@acme.example"')}`,
      );
      validList(found.body);
      assert.deepEqual(
        found.body.Resources.map((r: { id: string }) => r.id),
        [id],
      );
      // Okta's PUT: the whole user, with id and meta, a middle name and a display on the email.
      const put = await inA('PUT', `Users/${id}`, {
        schemas: [USER],
        id,
        userName: 'test.user@acme.example',
        name: { givenName: 'Another', middleName: 'Excited', familyName: 'User' },
        emails: [
          { primary: true, value: 'test.user@acme.example', type: 'work', display: 'test.user@acme.example' },
        ],
        active: true,
        groups: [],
        meta: { resourceType: 'User' },
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      validUser(put.body);
      assert.equal(put.body.meta.version, 'W/"2"');
      assert.deepEqual(put.body.name, { givenName: 'Another', middleName: 'Excited', familyName: 'User' });
      assert.equal(put.body.displayName, undefined);
      // Okta's deactivation: a path-less replace of active.
      const deactivated = await inA('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: false } }],
      });
      assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
      validUser(deactivated.body);
      assert.equal(deactivated.body.active, false);
      assert.equal(deactivated.body.name.givenName, 'Another');
      const disabled = await server.db
        .selectFrom('users')
        .select('disabled')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(disabled.disabled, 1);
      const reactivated = await inA('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { active: true } }],
      });
      assert.equal(reactivated.body.active, true);
      assert.equal(reactivated.body.meta.version, 'W/"4"');
      const deleted = await inA('DELETE', `Users/${id}`);
      assert.equal(deleted.status, 204);
      validError(await inA('GET', `Users/${id}`), 404);
      assert.equal(
        await server.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst(),
        undefined,
      );
      assert.equal(
        await server.db
          .selectFrom('scim_users')
          .select('user_id')
          .where('user_id', '=', id)
          .executeTakeFirst(),
        undefined,
      );
      const entries = await auditOf(id);
      const userEntries = entries.filter((e) => e.key.startsWith('user.'));
      assert.deepEqual(
        userEntries.map((e) => [e.key, e.actor_kind, JSON.parse(e.data).directoryId]),
        [
          ['user.created', 'system', dirA.id],
          ['user.updated', 'system', dirA.id],
          ['user.updated', 'system', dirA.id],
          ['user.updated', 'system', dirA.id],
          ['user.deleted', 'system', dirA.id],
        ],
      );
      assert.equal(JSON.stringify(entries).includes('1mz050nq'), false);
    });

    test('Entra: create, the filters, PATCH as documented and with its quirks, manager, disable, delete', {
      skip,
    }, async () => {
      // Entra's create user request.
      const created = await inB('POST', 'Users', {
        schemas: [USER, ENTERPRISE],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@acme.example',
        active: true,
        emails: [
          {
            primary: true,
            type: 'work',
            value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com',
          },
        ],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      validUser(created.body);
      const id = created.body.id as string;
      const email = await server.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(email.email, 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com');
      // Entra's lookups: by userName, by externalId, by the work address.
      for (const filter of [
        'userName eq "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1@acme.example"',
        'externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"',
        'emails[type eq "work"].value eq "Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com"',
      ]) {
        const found = await inB('GET', `Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(found.status, 200, filter);
        validList(found.body);
        assert.deepEqual(
          found.body.Resources.map((r: { id: string }) => r.id),
          [id],
          filter,
        );
      }
      // externalId is case-exact (RFC 7643 §3.1): another case finds nothing.
      const upper = await inB(
        'GET',
        `Users?filter=${encodeURIComponent('externalId eq "0A21F0F2-8D2A-4F8E-BF98-7363C4AED4EF"')}`,
      );
      assert.equal(upper.body.totalResults, 0);
      // "Update User [Multi-valued properties]".
      const multi = await inB('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        ],
      });
      assert.equal(multi.status, 200, JSON.stringify(multi.body));
      validUser(multi.body);
      assert.deepEqual(multi.body.emails, [
        { primary: true, type: 'work', value: 'updatedEmail@microsoft.com' },
      ]);
      assert.equal(multi.body.name.familyName, 'updatedFamilyName');
      const moved = await server.db
        .selectFrom('users')
        .select(['email', 'last_name', 'email_verified'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(moved, {
        email: 'updatedEmail@microsoft.com',
        last_name: 'updatedFamilyName',
        email_verified: 1,
      });
      // "Update User [Single-valued properties]".
      const single = await inB('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          { op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' },
        ],
      });
      assert.equal(single.body.userName, '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com');
      // "Update User [Add Manager]": the manager's id as a bare string.
      const manager = await inB('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'Add',
            path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager',
            value: '2819c223-7f76-453a-919d-413861904646',
          },
        ],
      });
      assert.equal(manager.status, 200, JSON.stringify(manager.body));
      validUser(manager.body);
      assert.deepEqual(manager.body.schemas, [USER, ENTERPRISE]);
      assert.deepEqual(manager.body[ENTERPRISE], {
        manager: { value: '2819c223-7f76-453a-919d-413861904646' },
      });
      // The compatibility page's forms: a path-less value object whose keys are paths, booleans as strings.
      const pathless = await inB('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'Replace',
            value: {
              displayName: 'Babs Jensen',
              'name.givenName': 'Barbara',
              'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'Tour Operations',
            },
          },
          { op: 'Add', path: 'nickName', value: 'Babs' },
        ],
      });
      assert.equal(pathless.status, 200, JSON.stringify(pathless.body));
      validUser(pathless.body);
      assert.equal(pathless.body.displayName, 'Babs Jensen');
      assert.equal(pathless.body.nickName, 'Babs');
      assert.deepEqual(pathless.body.name, {
        formatted: 'givenName familyName',
        familyName: 'updatedFamilyName',
        givenName: 'Barbara',
      });
      assert.deepEqual(pathless.body[ENTERPRISE], {
        manager: { value: '2819c223-7f76-453a-919d-413861904646' },
        department: 'Tour Operations',
      });
      const byDepartment = await inB(
        'GET',
        `Users?filter=${encodeURIComponent(`${ENTERPRISE}:department eq "tour operations"`)}`,
      );
      assert.deepEqual(
        byDepartment.body.Resources.map((r: { id: string }) => r.id),
        [id],
      );
      // "Disable User" as the old provisioning job sent it: "False", capitalised op.
      const disabled = await inB('PATCH', `Users/${id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      });
      assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
      validUser(disabled.body);
      assert.equal(disabled.body.active, false);
      const enabled = await inB('PATCH', `Users/${id}`, {
        Operations: [{ op: 'Replace', path: 'active', value: true }],
        schemas: [PATCH_OP],
      });
      assert.equal(enabled.body.active, true);
      // "Delete User".
      assert.equal((await inB('DELETE', `Users/${id}`)).status, 204);
      validError(await inB('DELETE', `Users/${id}`), 404);
      const keys = (await auditOf(id)).map((e) => e.key).filter((k) => k.startsWith('user.'));
      assert.equal(keys[0], 'user.created');
      assert.equal(keys.at(-1), 'user.deleted');
    });

    test('deactivation ends the user’s sessions at once: the refresh token is invalid_grant, sign-in refused; reactivation works', {
      skip,
    }, async () => {
      const { user } = await makeUser(server.deps, acme, 'leaver@leavers.example');
      const { clientId } = await makeClient(server.deps, acme, {
        name: 'App',
        kind: 'public',
        redirectUris: [CALLBACK],
        backchannelLogoutUri: 'https://rp.acme.example/backchannel-logout',
      });
      const issuer = server.issuer('acme');
      const signedIn = await signIn(issuer, clientId, 'leaver@leavers.example', undefined, PASSWORD);
      assert.ok(signedIn.refreshToken);
      // An owner adopts the password user into directory B (the address is no connection's: a password sign-in), which then deactivates them.
      const adopted = await call(server, 'POST', `/organizations/acme/directories/${dirB.id}/users`, owner, {
        user_id: user.id,
      });
      assert.equal(adopted.status, 201, adopted.text);
      const off = await inB('PATCH', `Users/${user.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      const refused = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: signedIn.refreshToken,
        client_id: clientId,
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_grant');
      const live = await server.db
        .selectFrom('oauth_sessions')
        .select('id')
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .execute();
      assert.deepEqual(live, []);
      // The app the leaver signed into is sent a back-channel logout token, from the same transaction.
      const logouts = await server.db
        .selectFrom('logout_deliveries')
        .select(['client_id', 'url', 'sub'])
        .where('client_id', '=', clientId)
        .execute();
      assert.deepEqual(logouts, [
        { client_id: clientId, url: 'https://rp.acme.example/backchannel-logout', sub: user.id },
      ]);
      assert.deepEqual(
        await server.db
          .selectFrom('browser_sessions')
          .select('user_id')
          .where('user_id', '=', user.id)
          .execute(),
        [],
      );
      await assert.rejects(signIn(issuer, clientId, 'leaver@leavers.example', undefined, PASSWORD));
      const on = await inB('PATCH', `Users/${user.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'active', value: true }],
      });
      assert.equal(on.body.active, true);
      const again = await signIn(issuer, clientId, 'leaver@leavers.example', undefined, PASSWORD);
      assert.ok(again.accessToken);
      // DELETE ends them too, and the refresh token with them.
      assert.equal((await inB('DELETE', `Users/${user.id}`)).status, 204);
      const gone = await tokenRequest(issuer, {
        grant_type: 'refresh_token',
        refresh_token: again.refreshToken,
        client_id: clientId,
      });
      assert.equal(gone.body.error, 'invalid_grant');
    });

    test('an address held by a user the directory did not create is 409 uniqueness until an owner adopts them', {
      skip,
    }, async () => {
      const { user } = await makeUser(server.deps, acme, 'bob@acme.example');
      const attempt = await inA('POST', 'Users', {
        schemas: [USER],
        userName: 'bob@acme.example',
        emails: [{ value: 'BOB@acme.example', primary: true }],
        name: { givenName: 'Mallory' },
      });
      validError(attempt, 409, 'uniqueness');
      // Nor through another address and then a change of it.
      const decoy = await inA('POST', 'Users', { schemas: [USER], userName: 'decoy@acme.example' });
      assert.equal(decoy.status, 201);
      validError(
        await inA('PATCH', `Users/${decoy.body.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', path: 'userName', value: 'bob@acme.example' }],
        }),
        409,
        'uniqueness',
      );
      const untouched = await server.db
        .selectFrom('users')
        .select(['first_name', 'disabled'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(untouched, { first_name: 'Ada', disabled: 0 });
      // The user is not the directory's: a filter does not find them.
      const hidden = await inA('GET', `Users?filter=${encodeURIComponent('userName eq "bob@acme.example"')}`);
      assert.equal(hidden.body.totalResults, 0);
      // Adopting: not across orgs, not by a member, not into another org's directory.
      assert.equal(
        (
          await call(server, 'POST', `/organizations/beta/directories/${dirC.id}/users`, stranger, {
            user_id: user.id,
          })
        ).status,
        404,
      );
      assert.equal(
        (
          await call(server, 'POST', `/organizations/acme/directories/${dirC.id}/users`, owner, {
            user_id: user.id,
          })
        ).status,
        404,
      );
      assert.equal(
        (
          await call(server, 'POST', `/organizations/acme/directories/${dirA.id}/users`, member, {
            user_id: user.id,
          })
        ).status,
        403,
      );
      const adopted = await call(server, 'POST', `/organizations/acme/directories/${dirA.id}/users`, owner, {
        user_id: user.id,
      });
      assert.equal(adopted.status, 201, adopted.text);
      assert.deepEqual(adopted.body, {
        user_id: user.id,
        directory_id: dirA.id,
        user_name: 'bob@acme.example',
      });
      const twice = await call(server, 'POST', `/organizations/acme/directories/${dirB.id}/users`, owner, {
        user_id: user.id,
      });
      assert.equal(twice.status, 409);
      assert.equal(twice.headers.get('tessera-error-code'), 'directory.user.held');
      // Now Okta's check finds them, and the directory manages them.
      const found = await inA('GET', `Users?filter=${encodeURIComponent('userName eq "bob@acme.example"')}`);
      validList(found.body);
      assert.deepEqual(
        found.body.Resources.map((r: { id: string }) => r.id),
        [user.id],
      );
      const renamed = await inA('PATCH', `Users/${user.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'name.givenName', value: 'Robert' }],
      });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.name.givenName, 'Robert');
      // B still may not take the address.
      validError(
        await inB('POST', 'Users', { schemas: [USER], userName: 'bob@acme.example' }),
        409,
        'uniqueness',
      );
      // The org's owner is a console user: provisioning their address makes an org user, nothing of theirs.
      const ownerAddress = await inB('POST', 'Users', { schemas: [USER], userName: 'owner@acme.test' });
      assert.equal(ownerAddress.status, 201);
      assert.equal((await call(server, 'GET', '/organizations/acme', owner)).status, 200);
      assert.equal((await inB('DELETE', `Users/${ownerAddress.body.id}`)).status, 204);
      assert.equal((await call(server, 'GET', '/organizations/acme/directories', owner)).status, 200);
      // A directory tied to a connection creates users only in its domains.
      validError(
        await inA('POST', 'Users', { schemas: [USER], userName: 'owner@acme.test' }),
        400,
        'invalidValue',
      );
      // Its connection deleted, it gives no address at all, and still deactivates and deletes.
      const temporary = await createConnection(
        server.deps,
        acme,
        {
          type: 'oidc',
          name: 'Gone',
          issuer: 'https://gone.example',
          clientId: 'rp',
          clientSecret: 'rp secret',
          domains: ['gone.example'],
        },
        SYSTEM,
      );
      const d = (
        await call(server, 'POST', '/organizations/acme/directories', owner, {
          name: 'D',
          connection: temporary.id,
        })
      ).body;
      const kept = await scim(d.scim_base_url, d.token, 'POST', 'Users', {
        schemas: [USER],
        userName: 'kept@gone.example',
      });
      assert.equal(kept.status, 201);
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/connections/${temporary.id}`, owner)).status,
        204,
      );
      validError(
        await scim(d.scim_base_url, d.token, 'POST', 'Users', {
          schemas: [USER],
          userName: 'new@gone.example',
        }),
        400,
        'invalidValue',
      );
      validError(
        await scim(d.scim_base_url, d.token, 'POST', 'Users', {
          schemas: [USER],
          userName: 'new@elsewhere.example',
        }),
        400,
        'invalidValue',
      );
      const off = await scim(d.scim_base_url, d.token, 'PATCH', `Users/${kept.body.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      });
      assert.equal(off.status, 200);
      assert.equal(off.body.active, false);
      assert.equal((await scim(d.scim_base_url, d.token, 'DELETE', `Users/${kept.body.id}`)).status, 204);
    });

    test('groups as Okta and Entra send them; an owner maps a group to roles, membership gives and takes them', {
      skip,
    }, async () => {
      const role = await call(server, 'POST', '/organizations/acme/roles', owner, { name: 'Engineers' });
      assert.equal(role.status, 201, role.text);
      const manual = await call(server, 'POST', '/organizations/acme/roles', owner, { name: 'Admins' });
      const people: string[] = [];
      for (const n of ['gia', 'hal', 'ivy']) {
        const r = await inA('POST', 'Users', { schemas: [USER], userName: `${n}@acme.example` });
        people.push(r.body.id);
      }
      const [gia, hal, ivy] = people as [string, string, string];
      const rolesOf = async (userId: string) =>
        (await call(server, 'GET', `/organizations/acme/users/${userId}/roles`, owner)).body.data
          .map((r: { id: string }) => r.id)
          .sort();
      // An owner gave Hal both roles by hand: those stay whatever the groups do.
      assert.equal(
        (
          await call(server, 'PUT', `/organizations/acme/users/${hal}/roles`, owner, {
            roles: [role.body.id, manual.body.id],
          })
        ).status,
        200,
      );
      // Okta's create group request, then its rename (path-less, with the id) and member add and remove.
      const created = await inA('POST', 'Groups', {
        schemas: [GROUP],
        displayName: 'Test SCIMv2',
        members: [],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      validGroup(created.body);
      const groupId = created.body.id as string;
      assert.match(groupId, /^grp_/);
      const mapped = await call(
        server,
        'PUT',
        `/organizations/acme/directories/${dirA.id}/groups/${groupId}/roles`,
        owner,
        {
          roles: [role.body.id],
        },
      );
      assert.equal(mapped.status, 200, mapped.text);
      assert.deepEqual([mapped.body.members, mapped.body.roles], [0, [role.body.id]]);
      const renamed = await inA('PATCH', `Groups/${groupId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', value: { id: groupId, displayName: 'Engineering' } }],
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.displayName, 'Engineering');
      assert.equal(renamed.body.id, groupId);
      const added = await inA('PATCH', `Groups/${groupId}`, {
        schemas: [PATCH_OP],
        Operations: [
          {
            op: 'add',
            path: 'members',
            value: [
              { value: gia, display: 'gia@acme.example' },
              { value: hal, display: 'hal@acme.example' },
              { value: ivy, display: 'ivy@acme.example' },
            ],
          },
        ],
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      validGroup(added.body);
      assert.deepEqual(
        added.body.members.map((m: { value: string }) => m.value).sort(),
        [gia, hal, ivy].sort(),
      );
      assert.deepEqual(await rolesOf(gia), [role.body.id]);
      assert.deepEqual(await rolesOf(hal), [role.body.id, manual.body.id].sort());
      // Gia's next token carries the role (a refresh would too: both read the user's roles).
      // Okta's removal by value filter; Entra's by a value list, capitalised.
      const removed = await inA('PATCH', `Groups/${groupId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'remove', path: `members[value eq "${gia}"]` }],
      });
      assert.equal(removed.status, 200, JSON.stringify(removed.body));
      assert.deepEqual(await rolesOf(gia), []);
      const entraRemoved = await inA('PATCH', `Groups/${groupId}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: hal }] }],
      });
      assert.equal(entraRemoved.status, 200, JSON.stringify(entraRemoved.body));
      assert.deepEqual(
        entraRemoved.body.members.map((m: { value: string }) => m.value),
        [ivy],
      );
      assert.deepEqual(await rolesOf(hal), [role.body.id, manual.body.id].sort());
      // The User resource names its groups, read-only (RFC 7643 §4.1.2): value, $ref, display.
      const ivyGroups = [
        { value: groupId, $ref: `${dirA.scim_base_url}Groups/${groupId}`, display: 'Engineering' },
      ];
      const ivyRead = await inA('GET', `Users/${ivy}`);
      validUser(ivyRead.body);
      assert.deepEqual(ivyRead.body.groups, ivyGroups);
      const giaRead = await inA('GET', `Users/${gia}`);
      validUser(giaRead.body);
      assert.equal('groups' in giaRead.body, false);
      const byName = await inA('GET', `Users?filter=${encodeURIComponent('userName eq "ivy@acme.example"')}`);
      validList(byName.body);
      assert.deepEqual(byName.body.Resources[0].groups, ivyGroups);
      const byGroup = await inA('GET', `Users?filter=${encodeURIComponent(`groups[value eq "${groupId}"]`)}`);
      validList(byGroup.body);
      assert.deepEqual(
        byGroup.body.Resources.map((r: { id: string }) => r.id),
        [ivy],
      );
      const page = await inA('GET', 'Users?count=200');
      validList(page.body);
      assert.deepEqual(page.body.Resources.find((r: { id: string }) => r.id === ivy).groups, ivyGroups);
      // A PATCH of groups is refused (`mutability`); a PUT's groups are ignored (RFC 7644 §3.5.1).
      for (const op of [
        { op: 'add', path: 'groups', value: [{ value: 'grp_other' }] },
        { op: 'Replace', value: { groups: [] } },
        { op: 'remove', path: `groups[value eq "${groupId}"]` },
      ]) {
        validError(
          await inA('PATCH', `Users/${ivy}`, { schemas: [PATCH_OP], Operations: [op] }),
          400,
          'mutability',
        );
      }
      const put = await inA('PUT', `Users/${ivy}`, {
        schemas: [USER],
        userName: 'ivy@acme.example',
        groups: [{ value: 'grp_other', display: 'Not mine' }],
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      validUser(put.body);
      assert.deepEqual(put.body.groups, ivyGroups);
      // A member of another directory, another org, or no one: refused, nothing changes.
      const foreign = (await inB('POST', 'Users', { schemas: [USER], userName: 'foreign@acme.example' })).body
        .id;
      for (const value of [foreign, 'usr_nobody']) {
        validError(
          await inA('PATCH', `Groups/${groupId}`, {
            schemas: [PATCH_OP],
            Operations: [{ op: 'Add', path: 'members', value: [{ value }] }],
          }),
          400,
          'invalidValue',
        );
      }
      assert.deepEqual(await rolesOf(foreign), []);
      // Entra's create group request and its lookup by displayName, members left out.
      const entra = await inB('POST', 'Groups', {
        schemas: [GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group'],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'displayName',
        meta: { resourceType: 'Group' },
      });
      assert.equal(entra.status, 201, JSON.stringify(entra.body));
      const look = await inB(
        'GET',
        `Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "displayName"')}`,
      );
      assert.equal(look.status, 200);
      new SCIMMY.Messages.ListResponse(look.body);
      assert.deepEqual(
        look.body.Resources.map((g: { id: string }) => g.id),
        [entra.body.id],
      );
      assert.equal('members' in look.body.Resources[0], false);
      const entraAdd = await inB('PATCH', `Groups/${entra.body.id}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: foreign }] }],
      });
      assert.deepEqual(
        entraAdd.body.members.map((m: { value: string }) => m.value),
        [foreign],
      );
      // A's token cannot reach B's group; the owner's list shows the mapping.
      validError(await inA('GET', `Groups/${entra.body.id}`), 404);
      const listed = await call(server, 'GET', `/organizations/acme/directories/${dirA.id}/groups`, owner);
      assert.deepEqual(
        listed.body.map((g: { id: string; members: number; roles: string[] }) => [g.id, g.members, g.roles]),
        [[groupId, 1, [role.body.id]]],
      );
      assert.equal(
        (await call(server, 'GET', `/organizations/acme/directories/${dirA.id}/groups`, member)).status,
        403,
      );
      // Unmapping takes the role from Ivy; deleting the group takes nothing more.
      assert.deepEqual(await rolesOf(ivy), [role.body.id]);
      await call(server, 'PUT', `/organizations/acme/directories/${dirA.id}/groups/${groupId}/roles`, owner, {
        roles: [],
      });
      assert.deepEqual(await rolesOf(ivy), []);
      await call(server, 'PUT', `/organizations/acme/directories/${dirA.id}/groups/${groupId}/roles`, owner, {
        roles: [role.body.id],
      });
      assert.deepEqual(await rolesOf(ivy), [role.body.id]);
      assert.equal((await inA('DELETE', `Groups/${groupId}`)).status, 204);
      assert.deepEqual(await rolesOf(ivy), []);
      validError(await inA('GET', `Groups/${groupId}`), 404);
      const groupEntries = await server.db
        .selectFrom('audit_events')
        .select(['key', 'actor_kind'])
        .where('data', 'like', `%${groupId}%`)
        .orderBy('id')
        .execute();
      assert.deepEqual(groupEntries.at(0), { key: 'directory_group.created', actor_kind: 'system' });
      assert.deepEqual(groupEntries.at(-1), { key: 'directory_group.deleted', actor_kind: 'system' });
      assert.ok(groupEntries.some((e) => e.key === 'directory_group.updated' && e.actor_kind === 'user'));
      const entries = await auditOf(ivy);
      assert.ok(
        entries.some(
          (e) =>
            e.key === 'user.updated' &&
            JSON.parse(e.data).roles?.length === 1 &&
            JSON.parse(e.data).directoryId === dirA.id,
        ),
      );
    });

    test('list: the RFC grammar, paging, attributes and excludedAttributes', { skip }, async () => {
      const ids: string[] = [];
      for (const [n, title, type] of [
        ['ann', 'Engineer', 'Employee'],
        ['ben', 'Engineer', 'Contractor'],
        ['cat', 'Manager', 'Employee'],
        ['dan', null, 'Employee'],
      ] as const) {
        const r = await inB('POST', 'Users', {
          schemas: [USER],
          userName: `${n}@list.example`,
          ...(title ? { title } : {}),
          userType: type,
          emails: [
            { value: `${n}@list.example`, type: 'work', primary: true },
            { value: `${n}@home.example`, type: 'home' },
          ],
        });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        ids.push(r.body.id);
      }
      const search = async (filter: string, extra = '') => {
        const r = await inB('GET', `Users?filter=${encodeURIComponent(filter)}${extra}`);
        assert.equal(r.status, 200, `${filter}: ${JSON.stringify(r.body)}`);
        validList(r.body);
        return r.body.Resources.map((u: { userName: string }) => u.userName.split('@')[0]);
      };
      assert.deepEqual(await search('userName sw "a" or userName sw "b"'), ['ann', 'ben']);
      assert.deepEqual(await search('title eq "engineer" and userType eq "Employee"'), ['ann']);
      assert.deepEqual(await search('userName ew "@list.example" and not (title pr)'), ['dan']);
      assert.deepEqual(await search('userName co "AT@"'), ['cat']);
      assert.deepEqual(await search('emails[type eq "home" and value sw "ben"]'), ['ben']);
      assert.deepEqual(await search('emails[type eq "work"].value eq "ben@home.example"'), []);
      assert.deepEqual(await search('userName gt "b" and userName lt "d" and userName ew "list.example"'), [
        'ben',
        'cat',
      ]);
      assert.deepEqual(await search('userName ge "cat@list.example" and userName le "dan@list.example"'), [
        'cat',
        'dan',
      ]);
      assert.deepEqual(
        await search('meta.created pr and userName ne "ann@list.example" and userName ew "list.example"'),
        ['ben', 'cat', 'dan'],
      );
      // Paging: 1-based startIndex, count; totalResults counts every match.
      const page = await inB(
        'GET',
        `Users?filter=${encodeURIComponent('userName ew "@list.example"')}&startIndex=2&count=2`,
      );
      assert.equal(page.body.totalResults, 4);
      assert.equal(page.body.startIndex, 2);
      assert.equal(page.body.itemsPerPage, 2);
      assert.deepEqual(
        page.body.Resources.map((u: { id: string }) => u.id),
        ids.slice(1, 3),
      );
      const counted = await inB('GET', 'Users?count=0');
      assert.equal(counted.body.itemsPerPage, 0);
      assert.ok(counted.body.totalResults >= 4);
      // attributes / excludedAttributes.
      const only = await inB('GET', `Users/${ids[0]}?attributes=userName,emails.value`);
      assert.deepEqual(only.body, {
        schemas: [USER],
        id: ids[0],
        userName: 'ann@list.example',
        emails: [{ value: 'ann@list.example' }, { value: 'ann@home.example' }],
      });
      const without = await inB(
        'GET',
        `Users?filter=${encodeURIComponent('userName eq "ann@list.example"')}&excludedAttributes=emails,meta`,
      );
      assert.deepEqual(Object.keys(without.body.Resources[0]).sort(), [
        'active',
        'id',
        'schemas',
        'title',
        'userName',
        'userType',
      ]);
      // Refused: bad grammar, pathological filters, bad paging and lists, repeated parameters.
      for (const [filter, why] of [
        ['userName eq', 'no value'],
        ['userName zz "x"', 'unknown operator'],
        ['(userName eq "x"', 'unbalanced'],
        [`${'not ('.repeat(20)}userName pr${')'.repeat(20)}`, 'too deep'],
        [`${'not ('.repeat(400)}userName pr${')'.repeat(400)}`, 'too long to parse'],
        [Array.from({ length: 100 }, (_, i) => `userName eq "${i}"`).join(' or '), 'too many terms'],
        [`userName eq "${'x'.repeat(3000)}"`, 'too long'],
        ['userName eq "x"; DROP TABLE users', 'trailing garbage'],
      ]) {
        const r = await inB('GET', `Users?filter=${encodeURIComponent(filter as string)}`);
        validError(r, 400, 'invalidFilter');
        assert.ok(r.body.detail, why);
      }
      // Redundant parentheses nest nothing: accepted.
      assert.deepEqual(await search(`${'('.repeat(500)}userName eq "ann@list.example"${')'.repeat(500)}`), [
        'ann',
      ]);
      validError(await inB('GET', 'Users?startIndex=abc'), 400, 'invalidValue');
      validError(await inB('GET', 'Users?count=1&count=2'), 400, 'invalidValue');
      validError(
        await inB('GET', `Users/${ids[0]}?attributes=${encodeURIComponent('a b')}`),
        400,
        'invalidValue',
      );
      const users = await server.db.selectFrom('users').select('id').execute();
      assert.ok(users.length > 4);
    });

    test('refusals in SCIM’s words: bad bodies, types, ETags, oversized bodies, unknown users', {
      skip,
    }, async () => {
      const created = await inB('POST', 'Users', {
        schemas: [USER],
        userName: 'etag@acme.example',
        title: 'One',
      });
      const id = created.body.id as string;
      // ETags: a stale If-Match is 412 and changes nothing; the current one passes.
      const stale = await inB(
        'PUT',
        `Users/${id}`,
        { schemas: [USER], userName: 'etag@acme.example', title: 'Two' },
        { 'if-match': 'W/"7"' },
      );
      validError(stale, 412);
      const current = await inB(
        'PUT',
        `Users/${id}`,
        { schemas: [USER], userName: 'etag@acme.example', title: 'Two' },
        { 'if-match': 'W/"1"' },
      );
      assert.equal(current.status, 200);
      assert.equal(current.headers.get('etag'), 'W/"2"');
      validError(
        await inB(
          'PATCH',
          `Users/${id}`,
          { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'Three' }] },
          { 'if-match': 'W/"1"' },
        ),
        412,
      );
      validError(await inB('DELETE', `Users/${id}`, undefined, { 'if-match': 'W/"1"' }), 412);
      assert.equal((await inB('GET', `Users/${id}`)).body.title, 'Two');
      // Bodies.
      validError(await inB('POST', 'Users', '{"userName": '), 400, 'invalidSyntax');
      validError(await inB('POST', 'Users', []), 400, 'invalidSyntax');
      validError(await inB('POST', 'Users', { schemas: [USER] }), 400, 'invalidValue');
      validError(
        await inB('POST', 'Users', { schemas: [USER], userName: 'no-address' }),
        400,
        'invalidValue',
      );
      validError(
        await inB('POST', 'Users', { schemas: [USER], userName: 'x@acme.example', active: 'maybe' }),
        400,
        'invalidValue',
      );
      validError(
        await inB('POST', 'Users', { schemas: [USER], userName: 'x@acme.example', emails: 'x@acme.example' }),
        400,
        'invalidValue',
      );
      validError(
        await inB('POST', 'Users', { schemas: [USER], userName: 'x@acme.example', title: 'x'.repeat(2000) }),
        400,
        'invalidValue',
      );
      validError(
        await inB('POST', 'Users', {
          schemas: [USER],
          userName: 'x@acme.example',
          emails: [
            { value: 'a@acme.example', primary: true },
            { value: 'b@acme.example', primary: true },
          ],
        }),
        400,
        'invalidValue',
      );
      validError(
        await inB('POST', 'Users', { schemas: [USER], userName: `${'x'.repeat(70_000)}@acme.example` }),
        413,
      );
      // PATCH messages.
      validError(
        await inB('PATCH', `Users/${id}`, { Operations: [{ op: 'replace', path: 'title', value: 'x' }] }),
        400,
        'invalidSyntax',
      );
      validError(
        await inB('PATCH', `Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'move', path: 'title' }],
        }),
        400,
        'invalidSyntax',
      );
      validError(
        await inB('PATCH', `Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'remove' }] }),
        400,
        'invalidPath',
      );
      validError(
        await inB('PATCH', `Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', path: 'emails[type eq', value: 'x' }],
        }),
        400,
        'invalidPath',
      );
      validError(
        await inB('PATCH', `Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: Array.from({ length: 101 }, () => ({ op: 'replace', path: 'title', value: 'x' })),
        }),
        400,
        'invalidSyntax',
      );
      validError(
        await inB('PATCH', `Users/${id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'remove', path: 'userName' }],
        }),
        400,
        'invalidValue',
      );
      // Unknown ids and other kinds of id.
      validError(await inB('GET', 'Users/usr_nobody'), 404);
      validError(await inB('GET', 'Users/org_x'), 404);
      validError(await inB('GET', 'Nothing'), 404);
    });

    test('tessera directory create, list, rotate-token, delete: the API’s view, the token once', {
      skip,
    }, async () => {
      const env = cliEnv(server);
      const created = await tessera(
        ['directory', 'create', '--org', 'acme', '--name', 'From the CLI', '--connection', connection.id],
        env,
      );
      assert.equal(created.code, 0, created.stderr);
      const d = created.json as { id: string; token: string; scimBaseUrl: string; connection: string };
      assert.match(d.token, /^tsc_/);
      assert.equal(d.scimBaseUrl, dirA.scim_base_url);
      assert.equal(d.connection, connection.id);
      assert.equal((await scim(d.scimBaseUrl, d.token, 'GET', 'Users')).status, 200);
      const listed = await tessera(['directory', 'list', '--org', 'acme'], env);
      assert.equal(listed.code, 0, listed.stderr);
      const data = (listed.json as { data: { id: string }[] }).data;
      assert.ok(data.some((x) => x.id === d.id));
      assert.equal(listed.stdout.includes('tsc_'), false);
      const rotated = await tessera(['directory', 'rotate-token', '--org', 'acme', '--id', d.id], env);
      assert.equal(rotated.code, 0, rotated.stderr);
      validError(await scim(d.scimBaseUrl, d.token, 'GET', 'Users'), 401);
      const deleted = await tessera(['directory', 'delete', '--org', 'acme', '--id', d.id], env);
      assert.deepEqual(deleted.json, { deleted: d.id });
      validError(await scim(d.scimBaseUrl, rotated.json?.token as string, 'GET', 'Users'), 401);
      const missing = await tessera(['directory', 'create', '--org', 'acme'], env);
      assert.equal(missing.code, 2);
    });

    test('a Groups filter no index serves is refused past 20,000 groups (tooMany); an indexed one still answers', {
      skip,
    }, async () => {
      const made = await call(server, 'POST', '/organizations/acme/directories', owner, { name: 'Big' });
      assert.equal(made.status, 201, made.text);
      const big = made.body as { id: string; token: string; scim_base_url: string };
      const inBig = (path: string) => scim(big.scim_base_url, big.token, 'GET', path);
      const insert = async (from: number, to: number) => {
        const now = Date.now();
        for (let start = from; start < to; start += 1000) {
          const rows = [];
          for (let i = start; i < Math.min(to, start + 1000); i++)
            rows.push({
              id: `grp_big${String(i).padStart(6, '0')}`,
              directory_id: big.id,
              display_name: `Team ${i}`,
              external_id: `ext-${i}`,
              version: 1,
              created_at: now + i,
              updated_at: now + i,
            });
          await server.db.insertInto('scim_groups').values(rows).execute();
        }
      };
      const unindexed = `Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName sw "Team 1999"')}`;
      await insert(0, 20_000);
      // At 20,000 the scan is still made.
      const scanned = await inBig(unindexed);
      assert.equal(scanned.status, 200, JSON.stringify(scanned.body));
      assert.deepEqual([scanned.body.totalResults, scanned.body.Resources[0].displayName], [11, 'Team 1999']);
      await insert(20_000, 20_001);
      const refused = await inBig(unindexed);
      // RFC 7644 §3.12 Table 9 gives tooMany to a 400 on a filter (scimmy's error message knows
      // it only with 413, a bulk request's): the body is asserted whole instead.
      assert.equal(refused.status, 400);
      assert.match(refused.headers.get('content-type') ?? '', /^application\/scim\+json/);
      assert.deepEqual(refused.body, {
        schemas: [ERROR],
        status: '400',
        scimType: 'tooMany',
        detail:
          'this filter reads every group of the directory, which holds more than 20000: filter on displayName, externalId or id',
      });
      // Equalities on indexed attributes, alone or in an `and`, are read by index.
      for (const filter of [
        'displayName eq "Team 20000"',
        'externalId eq "ext-20000"',
        'id eq "grp_big020000" and displayName sw "Team"',
      ]) {
        const found = await inBig(`Groups?filter=${encodeURIComponent(filter)}`);
        assert.equal(found.status, 200, JSON.stringify(found.body));
        assert.deepEqual(
          found.body.Resources.map((g: { id: string }) => g.id),
          ['grp_big020000'],
        );
      }
      // Without a filter, a page.
      const first = await inBig('Groups?count=2&startIndex=20000');
      assert.deepEqual(
        [first.body.totalResults, first.body.Resources.map((g: { id: string }) => g.id)],
        [20_001, ['grp_big019999', 'grp_big020000']],
      );
      assert.equal(
        (await call(server, 'DELETE', `/organizations/acme/directories/${big.id}`, owner)).status,
        204,
      );
    });

    test('discovery: ServiceProviderConfig, ResourceTypes and Schemas, as RFC 7643 shapes them', {
      skip,
    }, async () => {
      const spc = await inA('GET', 'ServiceProviderConfig');
      assert.equal(spc.status, 200);
      // Okta and Entra append `/Users` to the base URL as pasted, final `/` included: the same resource.
      const appended = await fetch(`${dirA.scim_base_url}/Users?count=1`, {
        headers: { authorization: `Bearer ${dirA.token}` },
      });
      assert.equal(appended.status, 200);
      assert.equal(
        ((await appended.json()) as { schemas: string[] }).schemas[0],
        'urn:ietf:params:scim:api:messages:2.0:ListResponse',
      );
      SCIMMY.Schemas.ServiceProviderConfig.definition.coerce(spc.body, 'out');
      assert.deepEqual(
        [spc.body.patch, spc.body.filter, spc.body.etag, spc.body.bulk.supported, spc.body.sort],
        [
          { supported: true },
          { supported: true, maxResults: 200 },
          { supported: true },
          false,
          { supported: false },
        ],
      );
      const types = await inA('GET', 'ResourceTypes');
      assert.equal(types.body.totalResults, 2);
      for (const t of types.body.Resources) SCIMMY.Schemas.ResourceType.definition.coerce(t, 'out');
      assert.deepEqual(
        types.body.Resources.map((t: { id: string; endpoint: string }) => [t.id, t.endpoint]),
        [
          ['User', '/Users'],
          ['Group', '/Groups'],
        ],
      );
      assert.equal((await inA('GET', 'ResourceTypes/User')).body.schema, USER);
      const schemas = await inA('GET', 'Schemas');
      assert.deepEqual(
        schemas.body.Resources.map((s: { id: string }) => s.id),
        [USER, ENTERPRISE, 'urn:ietf:params:scim:schemas:core:2.0:Group'],
      );
      const user = await inA('GET', `Schemas/${USER}`);
      const userName = user.body.attributes.find((a: { name: string }) => a.name === 'userName');
      assert.deepEqual([userName.type, userName.required, userName.uniqueness], ['string', true, 'server']);
      const groups = user.body.attributes.find((a: { name: string }) => a.name === 'groups');
      assert.deepEqual([groups.type, groups.multiValued, groups.mutability], ['complex', true, 'readOnly']);
      assert.deepEqual(
        groups.subAttributes.map((a: { name: string; type: string; mutability: string }) => [
          a.name,
          a.type,
          a.mutability,
        ]),
        [
          ['value', 'string', 'readOnly'],
          ['$ref', 'reference', 'readOnly'],
          ['display', 'string', 'readOnly'],
        ],
      );
      validError(await inA('GET', 'Schemas/urn:nothing'), 404);
      validError(await scim(dirA.scim_base_url, null, 'GET', 'ServiceProviderConfig'), 401);
    });
  });
}
