import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import { call, ownerMemberStranger } from '../management/support/console.js';
import { CALLBACK, makeClient, makeUser } from '../sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FILES = 'https://files.example/mcp';
const FILE_SCOPES = [
  { name: 'files:read', description: 'Read your files' },
  { name: 'files:write', description: 'Change your files' },
];

// Both databases: resources, roles and permissions are new tables with unique keys and cascades.
for (const database of httpSuite()) {
  describe(`API resources, roles and permissions: management API on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let acme: Org;
    let owner: string;
    let member: string;
    let stranger: string;
    let ownerId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      ({ acme, owner, member, stranger, ownerId } = await ownerMemberStranger(server));
    });
    after(async () => {
      if (!skip) await server.close();
    });

    const api = (method: string, path: string, body?: unknown, token: string | null = owner) =>
      call(server, method, `/organizations/acme${path}`, token, body);
    /** The org's stored audit entries with this key, oldest first, parsed. */
    const audit = async (key: string) => {
      const rows = await server.db
        .selectFrom('audit_events')
        .selectAll()
        .where('org_id', '=', acme.id)
        .where('key', '=', key)
        .orderBy('at')
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        actor: { kind: r.actor_kind, id: r.actor_id },
        data: JSON.parse(r.data),
        previous: r.previous === null ? null : JSON.parse(r.previous),
        changes: r.changes === null ? null : JSON.parse(r.changes),
      }));
    };

    test('resources: create, read, list, update, delete, each audited', { skip }, async () => {
      const created = await api('POST', '/resources', {
        identifier: FILES,
        name: ' Files ',
        scopes: FILE_SCOPES,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.get('cache-control'), 'no-store');
      assert.match(created.body.id, /^api_/);
      assert.match(created.body.created_at, ISO_MS_UTC);
      assert.deepEqual(created.body, {
        id: created.body.id,
        identifier: FILES,
        name: 'Files',
        scopes: FILE_SCOPES,
        access_token_ttl: 900,
        created_at: created.body.created_at,
      });
      const id = created.body.id as string;
      assert.deepEqual((await api('GET', `/resources/${id}`)).body, created.body);
      const list = await api('GET', '/resources');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body, [created.body]);

      const updated = await api('PATCH', `/resources/${id}`, {
        name: 'Files API',
        scopes: [...FILE_SCOPES, { name: 'files:share', description: 'Share your files' }],
        access_token_ttl: 300,
      });
      assert.equal(updated.status, 200, updated.text);
      assert.equal(updated.body.access_token_ttl, 300);
      assert.equal(updated.body.scopes.length, 3);

      const [createdEntry] = await audit('resource.created');
      assert.deepEqual(createdEntry?.data, {
        id,
        identifier: FILES,
        name: 'Files',
        scopes: FILE_SCOPES,
        accessTokenTtl: 900,
        createdAt: created.body.created_at,
      });
      assert.deepEqual(createdEntry?.actor, { kind: 'user', id: ownerId });
      const [updatedEntry] = await audit('resource.updated');
      assert.deepEqual(Object.keys(updatedEntry?.changes ?? {}).sort(), ['accessTokenTtl', 'name', 'scopes']);

      // Scopes are the same again: nothing written.
      await api('PATCH', `/resources/${id}`, { access_token_ttl: 300 });
      assert.equal((await audit('resource.updated')).length, 1);

      assert.equal((await api('DELETE', `/resources/${id}`)).status, 204);
      assert.equal((await api('GET', `/resources/${id}`)).status, 404);
      assert.equal((await audit('resource.deleted'))[0]?.data.id, id);
    });

    test('resources: validation errors name the field; identifiers are unique and immutable', {
      skip,
    }, async () => {
      const bad = async (body: unknown, detail: string) => {
        const res = await api('POST', '/resources', body);
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
      };
      const rule =
        'identifier: must be an absolute https URI without a fragment (http only on a loopback host)';
      await bad({ identifier: 'http://files.example/mcp', name: 'x' }, rule);
      await bad({ identifier: 'https://files.example/mcp#x', name: 'x' }, rule);
      await bad({ identifier: 'files', name: 'x' }, rule);
      await bad(
        { identifier: FILES, name: 'x', scopes: [{ name: 'openid', description: 'x' }] },
        'scopes[0].name: "openid" is an identity scope',
      );
      await bad(
        { identifier: FILES, name: 'x', scopes: [{ name: 'org:read', description: 'x' }] },
        'scopes[0].name: "org:read" is a management scope',
      );
      await bad(
        { identifier: FILES, name: 'x', scopes: [{ name: 'Files', description: 'x' }] },
        'scopes[0].name: must be 1-64 of a-z 0-9 : . _ -',
      );
      await bad(
        { identifier: FILES, name: 'x', scopes: [{ name: 'a', description: '' }] },
        'scopes[0].description: must be 1-200 characters',
      );
      await bad(
        { identifier: FILES, name: 'x', scopes: [FILE_SCOPES[0], FILE_SCOPES[0]] },
        'scopes[1].name: "files:read" is given twice',
      );
      await bad(
        { identifier: FILES, name: 'x', access_token_ttl: 59 },
        'access_token_ttl: must be 60-86400 seconds',
      );
      await bad({ identifier: FILES, name: 'x', extra: 1 }, 'unknown field: extra');

      const loopback = await api('POST', '/resources', {
        identifier: 'http://127.0.0.1:9/mcp',
        name: 'Local',
      });
      assert.equal(loopback.status, 201, loopback.text);
      const again = await api('POST', '/resources', { identifier: 'http://127.0.0.1:9/mcp', name: 'Again' });
      assert.equal(again.status, 409);
      assert.equal(again.body.error, 'conflict');
      const patch = await api('PATCH', `/resources/${loopback.body.id}`, { identifier: FILES });
      assert.deepEqual(patch.body, {
        error: 'invalid_request',
        error_detail: 'identifier: cannot be changed; register a new resource instead',
      });
      assert.equal((await api('GET', '/resources/api_nope')).status, 404);
      assert.equal((await api('DELETE', `/resources/${loopback.body.id}`)).status, 204);
    });

    test('owner-only: a member is 403 forbidden, a stranger 404', { skip }, async () => {
      for (const [method, path, body] of [
        ['GET', '/resources', undefined],
        ['POST', '/resources', { identifier: FILES, name: 'Files' }],
        ['GET', '/roles', undefined],
        ['POST', '/roles', { name: 'editor' }],
        ['GET', `/users/${ownerId}/roles`, undefined],
        ['GET', '/clients/cli_x/permissions', undefined],
      ] as const) {
        const res = await api(method, path, body, member);
        assert.equal(res.status, 403, `${method} ${path}`);
        assert.equal(res.body.error, 'forbidden');
        assert.equal((await api(method, path, body, stranger)).status, 404, `${method} ${path}`);
      }
      assert.equal((await api('GET', '/resources')).body.length, 0);
    });

    test('roles, a user’s roles and a client’s permissions; deleting a resource removes its permissions', {
      skip,
    }, async () => {
      const files = await api('POST', '/resources', {
        identifier: FILES,
        name: 'Files',
        scopes: FILE_SCOPES,
      });
      const editorBody = {
        name: 'editor',
        description: 'Edits files',
        permissions: [
          { resource: FILES, scope: 'files:write' },
          { resource: FILES, scope: 'files:read' },
          { resource: FILES, scope: 'files:read' },
        ],
      };
      const editor = await api('POST', '/roles', editorBody);
      assert.equal(editor.status, 201, editor.text);
      assert.match(editor.body.id, /^rol_/);
      assert.deepEqual(editor.body.permissions, [
        { resource: FILES, scope: 'files:read' },
        { resource: FILES, scope: 'files:write' },
      ]);
      assert.equal((await api('POST', '/roles', { name: 'editor' })).status, 409);
      const unknownScope = await api('POST', '/roles', {
        name: 'x',
        permissions: [{ resource: FILES, scope: 'files:delete' }],
      });
      assert.deepEqual(unknownScope.body, {
        error: 'invalid_request',
        error_detail: `permissions[0].scope: "files:delete" is not a scope of ${FILES}`,
      });
      const unknownResource = await api('POST', '/roles', {
        name: 'x',
        permissions: [{ resource: 'https://other.example', scope: 'files:read' }],
      });
      assert.deepEqual(unknownResource.body, {
        error: 'invalid_request',
        error_detail:
          'permissions[0].resource: "https://other.example" is not a resource of this organization',
      });
      const viewer = await api('PATCH', `/roles/${editor.body.id}`, {
        permissions: [{ resource: FILES, scope: 'files:read' }],
      });
      assert.equal(viewer.status, 200, viewer.text);
      assert.deepEqual(viewer.body.permissions, [{ resource: FILES, scope: 'files:read' }]);
      assert.deepEqual((await api('GET', '/roles')).body, [viewer.body]);
      const [roleUpdated] = await audit('role.updated');
      assert.deepEqual(roleUpdated?.changes, { permissions: [{ resource: FILES, scope: 'files:read' }] });

      const { user } = await makeUser(server.deps, acme, 'ada@acme.test');
      const set = await api('PUT', `/users/${user.id}/roles`, { roles: [editor.body.id] });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual(set.body, { data: [viewer.body] });
      assert.deepEqual((await api('GET', `/users/${user.id}/roles`)).body, { data: [viewer.body] });
      const roleEntries = (await audit('user.updated')).filter((e) => e.data.id === user.id);
      assert.deepEqual(
        roleEntries.map((e) => e.changes),
        [{ roles: [editor.body.id] }],
      );
      assert.deepEqual(roleEntries[0]?.previous.roles, []);
      const badRole = await api('PUT', `/users/${user.id}/roles`, { roles: ['rol_nope'] });
      assert.deepEqual(badRole.body, {
        error: 'invalid_request',
        error_detail: 'roles: "rol_nope" is not a role of this organization',
      });
      assert.equal((await api('PUT', '/users/usr_nope/roles', { roles: [] })).status, 404);

      const machine = await makeClient(server.deps, acme, {
        name: 'Robot',
        kind: 'confidential',
        redirectUris: [],
      });
      const permissions = [{ resource: FILES, scope: 'files:write' }];
      const put = await api('PUT', `/clients/${machine.clientId}/permissions`, { permissions });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body, { data: permissions });
      assert.deepEqual((await api('GET', `/clients/${machine.clientId}/permissions`)).body, {
        data: permissions,
      });
      const clientEntries = (await audit('client.updated')).filter((e) => e.data.id === machine.clientId);
      assert.deepEqual(
        clientEntries.map((e) => e.changes),
        [{ permissions }],
      );
      const spa = await makeClient(server.deps, acme, { redirectUris: [CALLBACK] });
      const publicPut = await api('PUT', `/clients/${spa.clientId}/permissions`, { permissions });
      assert.equal(publicPut.status, 400);
      assert.equal(publicPut.body.error, 'invalid_request');

      // A scope leaving the resource leaves the roles and clients; the resource leaving takes the rest.
      await api('PATCH', `/resources/${files.body.id}`, { scopes: [FILE_SCOPES[0]] });
      assert.deepEqual((await api('GET', `/clients/${machine.clientId}/permissions`)).body, { data: [] });
      assert.equal((await api('GET', `/roles/${editor.body.id}`)).body.permissions.length, 1);
      assert.equal((await api('DELETE', `/resources/${files.body.id}`)).status, 204);
      assert.deepEqual((await api('GET', `/roles/${editor.body.id}`)).body.permissions, []);

      assert.equal((await api('DELETE', `/roles/${editor.body.id}`)).status, 204);
      assert.deepEqual((await api('GET', `/users/${user.id}/roles`)).body, { data: [] });
      assert.equal((await audit('role.deleted'))[0]?.data.id, editor.body.id);
    });
  });
}
