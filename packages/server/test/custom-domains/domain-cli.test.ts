import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tessera } from '../support/cli.js';
import { TxtDnsServer } from '../support/txt-dns-server.js';

/**
 * `tessera domain add|list|verify|primary|delete` (DESIGN §21), run as the real binary against a DNS
 * server of the test's own (TESSERA_DNS_SERVERS): each command is a process.
 */
describe('tessera CLI: an organization’s own domains', () => {
  let dir: string;
  let env: Record<string, string>;
  const dns = new TxtDnsServer();
  before(async () => {
    await dns.start();
    dir = mkdtempSync(join(tmpdir(), 'tessera-cli-'));
    env = { TESSERA_DATA_DIR: dir, TESSERA_URL: 'http://localhost:4000', TESSERA_DNS_SERVERS: dns.address };
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await dns.close();
  });

  const ok = async (args: string[]) => {
    const res = await tessera(args, env);
    assert.equal(res.code, 0, res.stderr);
    return res.json as Record<string, unknown>;
  };

  test('add prints the TXT record; verify fails until it is published; primary moves the issuer; delete refuses the primary', async () => {
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
    const added = (await ok(['domain', 'add', '--org', 'acme', '--name', 'Login.Acme.Example'])) as {
      id: string;
      name: string;
      txtRecord: { name: string; type: string; value: string };
    };
    assert.equal(added.name, 'login.acme.example');
    assert.deepEqual(added.txtRecord, {
      name: '_tessera-challenge.login.acme.example',
      type: 'TXT',
      value: added.txtRecord.value,
    });
    const early = await tessera(['domain', 'verify', '--org', 'acme', '--id', added.id], env);
    assert.notEqual(early.code, 0);
    assert.match(early.stderr, /no TXT record at _tessera-challenge\.login\.acme\.example yet/);

    dns.records.set('_tessera-challenge.login.acme.example', [added.txtRecord.value]);
    const verified = await ok(['domain', 'verify', '--org', 'acme', '--id', added.id]);
    assert.equal(verified.verified, true);
    const moved = await ok(['domain', 'primary', '--org', 'acme', '--id', added.id]);
    assert.equal(moved.primary, true);
    const list = (await ok(['domain', 'list', '--org', 'acme'])) as {
      data: { name: string; primary: boolean }[];
    };
    assert.deepEqual(
      list.data.map((d) => [d.name, d.primary]),
      [['login.acme.example', true]],
    );
    const refused = await tessera(['domain', 'delete', '--org', 'acme', '--id', added.id], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /move it to another domain first/);
    assert.equal(
      (await ok(['domain', 'primary', '--org', 'acme', '--id', added.id, '--off'])).primary,
      false,
    );
    assert.deepEqual(await ok(['domain', 'delete', '--org', 'acme', '--id', added.id]), {
      deleted: added.id,
    });
    const reserved = await tessera(['domain', 'add', '--org', 'acme', '--name', 'x.acme.localhost'], env);
    assert.notEqual(reserved.code, 0);
    assert.match(reserved.stderr, /which Tessera serves itself/);
  });
});
