import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openStore } from '../../src/storage/db.js';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { cliOrgWithMachineClient, tessera } from '../support/cli.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { createPostgresSchema } from '../support/postgres.js';
import { TEST_SECRET } from '../support/runtime.js';
import { freePort } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';

const OTHER_SECRET = 'another-secret-another-secret-0123456789';
const REFUSED =
  'TESSERA_SECRET does not open this database: it was set up with another secret; ' +
  'every process of one database needs the same TESSERA_SECRET';

/**
 * Issue #25: a second node started with another TESSERA_SECRET used to start, then answer 500 on
 * every token request. The database now holds a value sealed with its secret; a process whose
 * secret cannot open it refuses to start, with one line naming TESSERA_SECRET.
 */
for (const database of storageSuite(
  'the sealed check written into and read from an existing database of each kind, one migrated before the check included',
)) {
  describe(`a second start with another TESSERA_SECRET on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let dataDir: string;
    let schema: { url: string; drop(): Promise<void> } | null = null;
    let env: Record<string, string>;
    let port: number;
    let machine: { clientId: string; clientSecret: string };

    before(async () => {
      if (skip) return;
      dataDir = mkdtempSync(join(tmpdir(), 'tessera-secret-'));
      schema = database === 'postgres' ? await createPostgresSchema() : null;
      port = await freePort();
      env = {
        TESSERA_DATA_DIR: dataDir,
        TESSERA_URL: `http://localhost:${port}`,
        ...(schema ? { DATABASE_URL: schema.url } : {}),
      };
    });
    after(async () => {
      if (skip) return;
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const issuer = () => `http://north.localhost:${port}/`;
    const token = () =>
      tokenRequest(issuer(), {
        grant_type: 'client_credentials',
        client_id: machine.clientId,
        client_secret: machine.clientSecret,
      });
    /** `tessera serve` with `secret`, which must refuse to start: its output. */
    const refusedServe = async (secret: string) => {
      const p = new TesseraProcess(['serve', '--port', String(port)], {
        ...env,
        TESSERA_SECRET: secret,
        TESSERA_LOG_LEVEL: 'silent',
      });
      assert.equal(await p.exited(), 1);
      assert.equal(p.stderr, '');
      assert.equal(p.lines.length, 1, p.stdout);
      const [line] = p.logs();
      assert.equal(line?.level, 60);
      assert.equal(line?.msg, REFUSED);
      assert.deepEqual(line?.err, { type: 'ConfigError' }, 'no stack');
      assert.equal(p.stdout.includes(secret), false);
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, undefined);
    };
    const checkRows = async () => {
      const store = openStore({ databaseUrl: env.DATABASE_URL ?? null, dataDir });
      try {
        return await store.db.selectFrom('sealed_checks').select('name').execute();
      } finally {
        await store.close();
      }
    };

    test('the first start writes the check; another secret is refused with one line; the right one serves', {
      skip,
    }, async () => {
      const first = await TesseraProcess.serve(port, env);
      try {
        machine = await cliOrgWithMachineClient(env, 'north');
        assert.equal((await token()).status, 200);
      } finally {
        assert.equal(await first.stop(), 0);
      }
      assert.deepEqual(await checkRows(), [{ name: 'master_secret' }]);

      await refusedServe(OTHER_SECRET);
      // The admin commands open the same database the same way.
      const rotate = await tessera(['keys', 'rotate', '--org', 'north'], {
        ...env,
        TESSERA_SECRET: OTHER_SECRET,
      });
      assert.equal(rotate.code, 1);
      assert.equal(rotate.stdout, '');
      assert.equal(rotate.stderr, `error: ${REFUSED}\n`);

      const again = await TesseraProcess.serve(port, { ...env, TESSERA_SECRET: TEST_SECRET });
      try {
        assert.equal((await token()).status, 200);
      } finally {
        assert.equal(await again.stop(), 0);
      }
    });

    test('a database from before the check: refused if its keys do not open, else the check is written', {
      skip,
    }, async () => {
      const store = openStore({ databaseUrl: env.DATABASE_URL ?? null, dataDir });
      try {
        await store.db.deleteFrom('sealed_checks').execute();
      } finally {
        await store.close();
      }
      await refusedServe(OTHER_SECRET);
      assert.deepEqual(await checkRows(), [], 'nothing written by the refused process');

      const upgraded = await TesseraProcess.serve(port, env);
      try {
        assert.equal((await token()).status, 200);
      } finally {
        assert.equal(await upgraded.stop(), 0);
      }
      assert.deepEqual(await checkRows(), [{ name: 'master_secret' }]);
      await refusedServe(OTHER_SECRET);
    });
  });
}
