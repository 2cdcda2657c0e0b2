import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tessera } from '../support/cli.js';

/**
 * The CLI's trusted-app commands and a connection's --accept-id-jag (Enterprise-Managed
 * Authorization, DESIGN §20), run as the real binary: each command is a process.
 */
describe('tessera CLI: trusted apps and connections that accept ID-JAGs', () => {
  let dir: string;
  let env: Record<string, string>;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
    env = { TESSERA_DATA_DIR: dir, TESSERA_URL: 'http://localhost:4000' };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const ok = async (args: string[], stdin?: string) => {
    const res = await tessera(args, env, stdin);
    assert.equal(res.code, 0, res.stderr);
    return res.json as Record<string, unknown>;
  };

  test('create, list, update, show, delete; a public client refused; --accept-id-jag shown', async () => {
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
    const agent = await ok(['client', 'create', '--org', 'acme', '--name', 'Agent', '--confidential']);
    const pub = await ok([
      'client',
      'create',
      '--org',
      'acme',
      '--name',
      'Pub',
      '--public',
      '--redirect-uri',
      'http://127.0.0.1:1/cb',
    ]);
    const base = [
      '--org',
      'acme',
      '--name',
      'Tools',
      '--audience',
      'https://tools.example/',
      '--target-client-id',
      'cli_tools',
    ];

    const refused = await tessera(
      ['trusted-app', 'create', ...base, '--client', pub.clientId as string],
      env,
    );
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(`client_ids: ${pub.clientId} is not a confidential client of this organization`),
    );

    const made = await ok([
      'trusted-app',
      'create',
      ...base,
      '--client',
      agent.clientId as string,
      '--resource',
      'https://mcp.tools.example/mcp',
      '--scope',
      'files:read',
    ]);
    assert.match(made.id as string, /^tap_/);
    assert.deepEqual(
      { ...made, createdAt: undefined, updatedAt: undefined },
      {
        id: made.id,
        name: 'Tools',
        audience: 'https://tools.example/',
        targetClientId: 'cli_tools',
        clientIds: [agent.clientId],
        resources: ['https://mcp.tools.example/mcp'],
        scopes: ['files:read'],
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    const updated = await ok([
      'trusted-app',
      'update',
      '--org',
      'acme',
      '--id',
      made.id as string,
      '--scope',
      'files:read',
      '--scope',
      'files:write',
      '--resource',
      '',
    ]);
    assert.deepEqual([updated.scopes, updated.resources], [['files:read', 'files:write'], []]);
    assert.deepEqual(await ok(['trusted-app', 'show', '--org', 'acme', '--id', made.id as string]), updated);
    assert.deepEqual(await ok(['trusted-app', 'list', '--org', 'acme']), { data: [updated] });
    assert.deepEqual(await ok(['trusted-app', 'delete', '--org', 'acme', '--id', made.id as string]), {
      deleted: made.id,
    });
    assert.deepEqual(await ok(['trusted-app', 'list', '--org', 'acme']), { data: [] });

    const connection = await ok(
      [
        'connection',
        'create',
        '--org',
        'acme',
        '--type',
        'oidc',
        '--name',
        'Upstream',
        '--issuer',
        'https://idp.example/',
        '--client-id',
        'acme-at-idp',
        '--accept-id-jag',
      ],
      'the connection secret\n',
    );
    assert.equal((connection.oidc as { acceptIdJag: boolean }).acceptIdJag, true);
    const off = await ok([
      'connection',
      'update',
      '--org',
      'acme',
      '--id',
      connection.id as string,
      '--no-accept-id-jag',
    ]);
    assert.equal((off.oidc as { acceptIdJag: boolean }).acceptIdJag, false);
  });
});
