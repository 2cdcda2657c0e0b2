import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tessera } from './support/cli.js';

/**
 * The CLI's commands for an org's API resources, end-user roles, users' roles and machine clients'
 * permissions (DESIGN §15), run as the real binary. A file of its own: every command is a process
 * that loads the server, and cli.test.ts is long already.
 */
describe('tessera CLI: resources and roles', () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
    env = { TESSERA_DATA_DIR: dir, TESSERA_URL: 'http://localhost:4000' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const ok = async (args: string[]) => {
    const res = await tessera(args, env);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout.trim().split('\n').length, 1, 'exactly one line of JSON');
    return res.json as Record<string, unknown>;
  };
  const failsWith = async (args: string[], message: RegExp, code = 1) => {
    const res = await tessera(args, env);
    assert.equal(res.code, code, `exit code for ${args.join(' ')}`);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, message);
    return res;
  };

  test('resource, role, user roles, client permissions: the whole cycle, and its errors', async () => {
    await ok([
      'org',
      'create',
      '--slug',
      'acme',
      '--owner-email',
      'o@acme.test',
      '--owner-password',
      'owner password 1',
    ]);
    const made = await ok([
      'resource',
      'create',
      '--org',
      'acme',
      '--identifier',
      'https://files.acme.test/',
      '--name',
      'Files API',
      '--scope',
      'files:read=Read your files',
      '--scope',
      'files:write=Change your files',
      '--ttl',
      '600',
    ]);
    const api = made.id as string;
    assert.match(api, /^api_/);
    const resource = {
      id: api,
      identifier: 'https://files.acme.test/',
      name: 'Files API',
      scopes: [
        { name: 'files:read', description: 'Read your files' },
        { name: 'files:write', description: 'Change your files' },
      ],
      accessTokenTtl: 600,
    };
    assert.deepEqual(made, resource);
    assert.deepEqual(await ok(['resource', 'show', '--org', 'acme', '--id', api]), resource);
    const narrowed = await ok([
      'resource',
      'update',
      '--org',
      'acme',
      '--id',
      api,
      '--scope',
      'files:read=Read your files',
    ]);
    assert.deepEqual(narrowed.scopes, [{ name: 'files:read', description: 'Read your files' }]);

    const role = await ok([
      'role',
      'create',
      '--org',
      'acme',
      '--name',
      'Reader',
      '--description',
      'Reads files',
      '--permission',
      'https://files.acme.test/#files:read',
    ]);
    const roleId = role.id as string;
    assert.match(roleId, /^rol_/);
    const permissions = [{ resource: 'https://files.acme.test/', scope: 'files:read' }];
    assert.deepEqual(role, { id: roleId, name: 'Reader', description: 'Reads files', permissions });
    const renamed = await ok(['role', 'update', '--org', 'acme', '--id', roleId, '--name', 'Readers']);
    assert.equal(renamed.name, 'Readers');
    assert.deepEqual(await ok(['role', 'list', '--org', 'acme']), { data: [renamed] });

    const user = await ok([
      'user',
      'create',
      '--org',
      'acme',
      '--email',
      'reader@example.com',
      '--password',
      'correct horse battery',
    ]);
    const userId = user.id as string;
    assert.deepEqual(await ok(['user', 'roles', '--org', 'acme', '--user', userId, '--set', roleId]), {
      data: [renamed],
    });
    assert.deepEqual(await ok(['user', 'roles', '--org', 'acme', '--user', userId]), { data: [renamed] });

    const machine = await ok([
      'client',
      'create',
      '--org',
      'acme',
      '--name',
      'Indexer',
      '--confidential',
      '--grant',
      'client_credentials',
    ]);
    const clientId = machine.clientId as string;
    assert.deepEqual(await ok(['client', 'permissions', '--org', 'acme', '--client', clientId]), {
      data: [],
    });
    assert.deepEqual(
      await ok([
        'client',
        'permissions',
        '--org',
        'acme',
        '--client',
        clientId,
        '--set',
        'https://files.acme.test/#files:read',
      ]),
      { data: permissions },
    );

    await failsWith(
      [
        'client',
        'permissions',
        '--org',
        'acme',
        '--client',
        clientId,
        '--set',
        'https://files.acme.test/#files:nope',
      ],
      /^error: permissions\[0\]\.scope: "files:nope" is not a scope of https:\/\/files\.acme\.test\/\n$/,
    );
    await failsWith(
      ['role', 'create', '--org', 'acme', '--name', 'Stray', '--permission', 'https://nope.acme.test/#a'],
      /^error: permissions\[0\]\.resource: "https:\/\/nope\.acme\.test\/" is not a resource of this organization\n$/,
    );
    assert.deepEqual(await ok(['role', 'delete', '--org', 'acme', '--id', roleId]), { deleted: roleId });
    assert.deepEqual(await ok(['user', 'roles', '--org', 'acme', '--user', userId]), { data: [] });
    assert.deepEqual(await ok(['resource', 'delete', '--org', 'acme', '--id', api]), { deleted: api });
    await failsWith(['resource', 'show', '--org', 'acme', '--id', api], /^error: no such resource\n$/);
    assert.deepEqual(await ok(['client', 'permissions', '--org', 'acme', '--client', clientId]), {
      data: [],
    });
  });
});
