import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { decodeProtectedHeader } from 'jose';
import pg from 'pg';
import { sha256 } from '../src/crypto/random.js';
import { clock } from '../src/domain/clock.js';
import { CREDENTIALS_MAX_AGE_MS } from '../src/domain/credential-cache.js';
import { cliEnv, tessera } from './support/cli.js';
import { postgresSkip } from './support/environment.js';
import { orgWithMachineClient } from './support/fixtures.js';
import { startServer, type TestServer } from './support/server.js';

/**
 * On PostgreSQL the token endpoint keeps the client row, its secret hash and the active key id in
 * memory; a change committed by any process must still take effect (docs/token-endpoint.md).
 */
describe('client_credentials cache on PostgreSQL', async () => {
  const skip = await postgresSkip();
  let server: TestServer;
  let sql: pg.Client;

  before(async () => {
    if (skip) return;
    server = await startServer({ database: 'postgres' });
    // Another connection, as another node or an operator with psql would be.
    sql = new pg.Client({ connectionString: server.config.databaseUrl as string });
    await sql.connect();
  });
  after(async () => {
    if (skip) return;
    await sql.end();
    await server.close();
  });
  const realNow = clock.now;
  afterEach(() => {
    clock.now = realNow;
  });

  const token = (clientId: string, clientSecret: string, slug: string) =>
    requestToken(server, clientId, clientSecret, slug);

  const invalidClient = { error: 'invalid_client', error_description: 'client authentication failed' };

  /** Waits (up to 10 s) for the server to have received a change notification since `generation`. */
  async function notified(generation: number) {
    const cache = server.deps.credentials;
    assert.ok(cache, 'the PostgreSQL runtime has a credential cache');
    for (let i = 0; i < 200 && cache.generation === generation; i++) await sleep(50);
    assert.notEqual(cache.generation, generation, 'no change notification arrived');
  }

  test('a cached client still needs its secret on every request', { skip }, async () => {
    const acme = await orgWithMachineClient(server.deps, 'acme');
    assert.equal((await token(acme.clientId, acme.clientSecret, 'acme')).status, 200);
    const wrong = await token(acme.clientId, `${acme.clientSecret.slice(0, -1)}x`, 'acme');
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, invalidClient);
    assert.equal((await token(acme.clientId, acme.clientSecret, 'acme')).status, 200);
  });

  test('a key rotated by the CLI signs the very next token', { skip }, async () => {
    const beta = await orgWithMachineClient(server.deps, 'beta');
    const before = await token(beta.clientId, beta.clientSecret, 'beta');
    const oldKid = decodeProtectedHeader(before.body.access_token as string).kid;
    const rotated = await tessera(['keys', 'rotate', '--org', 'beta'], cliEnv(server));
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.notEqual(rotated.json?.kid, oldKid);
    const afterRotation = await token(beta.clientId, beta.clientSecret, 'beta');
    assert.equal(afterRotation.status, 200);
    assert.equal(decodeProtectedHeader(afterRotation.body.access_token as string).kid, rotated.json?.kid);
  });

  test('a client deleted on another connection is refused once the NOTIFY of its commit arrives', {
    skip,
  }, async () => {
    const gamma = await orgWithMachineClient(server.deps, 'gamma');
    assert.equal((await token(gamma.clientId, gamma.clientSecret, 'gamma')).status, 200);
    const generation = server.deps.credentials?.generation ?? 0;
    const deleted = await sql.query('delete from clients where id = $1', [gamma.clientId]);
    assert.equal(deleted.rowCount, 1);
    await notified(generation);
    const res = await token(gamma.clientId, gamma.clientSecret, 'gamma');
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, invalidClient);
  });

  test(`without any notification, a change takes effect after ${CREDENTIALS_MAX_AGE_MS} ms at most`, {
    skip,
  }, async () => {
    // Other servers on this PostgreSQL database (the other suites running now) send their own
    // notifications on the same channel, and any one empties the cache: an attempt during which one
    // arrived proves nothing about staleness, so it is made again with another client.
    const cache = server.deps.credentials;
    assert.ok(cache);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const delta = await orgWithMachineClient(server.deps, `delta${attempt}`);
      // Creating the org and its client notifies too (a commit each), and those may arrive after the
      // first request below: wait until they have come and gone quiet for 200 ms. This node's own
      // commits emptied the cache already, before they returned (storage/own-writes.ts): what is
      // awaited is their NOTIFYs, after them.
      const before = cache.generation;
      let quietSince = realNow();
      for (let seen = before; realNow() - quietSince < 200 || seen === before; ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (cache.generation !== seen) [seen, quietSince] = [cache.generation, realNow()];
        if (realNow() - quietSince > 5_000) break;
      }
      // The cache's time stands still until the test moves it.
      const start = realNow();
      clock.now = () => start;
      const generation = cache.generation;
      assert.equal((await token(delta.clientId, delta.clientSecret, `delta${attempt}`)).status, 200);
      // A lost notification: the delete commits without firing the trigger (nor that of
      // service_accounts, migration 056, which the delete's cascade reaches).
      await sql.query('begin');
      await sql.query('alter table clients disable trigger clients_credentials_changed');
      await sql.query('alter table service_accounts disable trigger service_accounts_credentials_changed');
      await sql.query('delete from clients where id = $1', [delta.clientId]);
      await sql.query('alter table service_accounts enable trigger service_accounts_credentials_changed');
      await sql.query('alter table clients enable trigger clients_credentials_changed');
      await sql.query('commit');
      // Within the bound the node may still answer from what it read before the delete…
      const stale = await token(delta.clientId, delta.clientSecret, `delta${attempt}`);
      if (cache.generation !== generation) continue;
      assert.equal(stale.status, 200);
      // …and once the bound has passed it reads the database again.
      clock.now = () => start + CREDENTIALS_MAX_AGE_MS;
      const res = await token(delta.clientId, delta.clientSecret, `delta${attempt}`);
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, invalidClient);
      return;
    }
    assert.fail("five attempts in a row each saw another server's change notification");
  });
});

/**
 * On SQLite the same lookups are kept until a commit changes clients, signing keys or orgs, by this
 * process or another (the CLI, a second server on the same data dir).
 */
describe('client_credentials cache on SQLite', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ database: 'sqlite' });
  });
  after(() => server.close());

  const token = (clientId: string, clientSecret: string, slug: string) =>
    requestToken(server, clientId, clientSecret, slug);

  /** Counts the credential cache's database reads until `stop()`. */
  function countReads() {
    const cache = server.deps.credentials;
    assert.ok(cache, 'the SQLite runtime of `serve` has a credential cache');
    const get = cache.get.bind(cache);
    const reads = {
      count: 0,
      stop: () => {
        cache.get = get;
      },
    };
    cache.get = (key, read) =>
      get(key, () => {
        reads.count++;
        return read();
      });
    return reads;
  }

  test('a repeated request is answered from memory, the secret still checked each time', async () => {
    const acme = await orgWithMachineClient(server.deps, 'acme');
    const reads = countReads();
    try {
      for (let i = 0; i < 3; i++)
        assert.equal((await token(acme.clientId, acme.clientSecret, 'acme')).status, 200);
      assert.equal(reads.count, 1, 'one database read for three tokens');
      const wrong = await token(acme.clientId, `${acme.clientSecret.slice(0, -1)}x`, 'acme');
      assert.deepEqual([wrong.status, wrong.body.error], [401, 'invalid_client']);
    } finally {
      reads.stop();
    }
  });

  test('a commit that changes no client, key or org keeps the entries; a client changed by another connection empties them', async () => {
    const delta = await orgWithMachineClient(server.deps, 'delta');
    const reads = countReads();
    // Another connection to the file, as the CLI or an operator with sqlite3 would be.
    const file = new BetterSqlite3(join(server.dataDir, 'tessera.db'));
    try {
      assert.equal((await token(delta.clientId, delta.clientSecret, 'delta')).status, 200);
      const renamed = file
        .prepare('update users set first_name = ? where email = ?')
        .run('Dana', 'owner@delta.test');
      assert.equal(renamed.changes, 1);
      assert.equal((await token(delta.clientId, delta.clientSecret, 'delta')).status, 200);
      assert.equal(reads.count, 1, "a user's change is no reason to read the client again");
      file
        .prepare('update clients set secret_hash = ? where id = ?')
        .run(sha256('a new secret'), delta.clientId);
      const old = await token(delta.clientId, delta.clientSecret, 'delta');
      assert.deepEqual(old, {
        status: 401,
        body: { error: 'invalid_client', error_description: 'client authentication failed' },
      });
      assert.equal((await token(delta.clientId, 'a new secret', 'delta')).status, 200);
      assert.equal(reads.count, 2, 'the changed client is read once more, then kept');
    } finally {
      file.close();
      reads.stop();
    }
  });

  test('a key rotated by the CLI in another process signs the very next token', async () => {
    const beta = await orgWithMachineClient(server.deps, 'beta');
    const before = await token(beta.clientId, beta.clientSecret, 'beta');
    const oldKid = decodeProtectedHeader(before.body.access_token as string).kid;
    const rotated = await tessera(['keys', 'rotate', '--org', 'beta'], cliEnv(server));
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.notEqual(rotated.json?.kid, oldKid);
    const next = await token(beta.clientId, beta.clientSecret, 'beta');
    assert.equal(decodeProtectedHeader(next.body.access_token as string).kid, rotated.json?.kid);
  });

  test('a client deleted through this process is refused on the very next request', async () => {
    const gamma = await orgWithMachineClient(server.deps, 'gamma');
    assert.equal((await token(gamma.clientId, gamma.clientSecret, 'gamma')).status, 200);
    await server.db.deleteFrom('clients').where('id', '=', gamma.clientId).execute();
    const res = await token(gamma.clientId, gamma.clientSecret, 'gamma');
    assert.deepEqual(res, {
      status: 401,
      body: { error: 'invalid_client', error_description: 'client authentication failed' },
    });
  });
});

/** A client_credentials request to the org `slug` of `server`: status and parsed body. */
async function requestToken(server: TestServer, clientId: string, clientSecret: string, slug: string) {
  const res = await fetch(`${server.issuer(slug)}oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
