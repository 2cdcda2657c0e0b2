import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { createServiceAccount, deleteServiceAccount } from '../../src/domain/directory/service-accounts.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { writesCachedTable } from '../../src/storage/own-writes.js';
import { tokenRequest } from '../sign-in/support/fixtures.js';
import { POSTGRES_URL, postgresSkip } from '../support/environment.js';
import { createPostgresSchema } from '../support/postgres.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * On PostgreSQL a `tessera serve` node keeps what the management API's token check reads — the
 * console org, its key set, the service account's binding — and the org a route names, until a
 * change to their tables is announced: this node's own change at its commit, before the writer is
 * answered (storage/own-writes.ts), another node's by the NOTIFY of its commit, and while the
 * listener is away nothing is kept. Two servers on one schema, as two nodes; SQLite's counter is
 * checked by the service-account suite.
 */
const skip = await postgresSkip();

describe('the management API’s cached token checks on PostgreSQL, two nodes', { skip }, () => {
  const listenerName = `tessera_listen_${randomBytes(4).toString('hex')}`;
  let schema: { url: string; drop(): Promise<void> };
  let a: TestServer;
  let b: TestServer;
  let admin: pg.Client;
  let org: Org;

  before(async () => {
    schema = await createPostgresSchema();
    a = await startServer({ env: { DATABASE_URL: schema.url } });
    // Node b's listener connection is named, so the test can end it.
    const listenUrl = new URL(schema.url);
    listenUrl.searchParams.set('application_name', listenerName);
    // One issuer for both, as behind one load balancer: requests to b name a's host.
    b = await startServer({
      env: { DATABASE_URL: schema.url, TESSERA_DB_LISTEN_URL: listenUrl.toString(), TESSERA_URL: a.base },
    });
    admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    ({ org } = await createOrg(a.deps, {
      slug: 'acme',
      ownerEmail: 'owner@acme.test',
      ownerPassword: 'pw 1 pw 1 pw',
    }));
  });
  after(async () => {
    await admin?.end();
    await b?.close();
    await a?.close();
    await schema?.drop();
  });

  /** A service account of acme with org:read, and a token of it from node a's console issuer. */
  async function account(): Promise<{ id: string; token: string }> {
    const { account: created, secret } = await createServiceAccount(
      a.deps,
      org,
      { name: `Lister ${randomBytes(3).toString('hex')}`, scopes: ['org:read'] },
      SYSTEM,
    );
    const res = await tokenRequest(`${a.base}/`, {
      grant_type: 'client_credentials',
      client_id: created.id,
      client_secret: secret,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { id: created.id, token: res.body.access_token as string };
  }

  /** The first page of acme's users through `server`, addressed to the one issuer's host (node:http sends that Host). */
  const list = (server: TestServer, token: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/organizations/acme/users?per_page=50',
          headers: { authorization: `Bearer ${token}`, host: new URL(a.base).host },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });

  /** Waits (up to 10 s) until `server`'s caches have seen a change since `generation`. */
  async function changedSince(server: TestServer, generation: number) {
    const cache = server.deps.serviceAccounts;
    assert.ok(cache);
    for (let i = 0; i < 200 && cache.generation === generation; i++) await sleep(50);
    assert.notEqual(cache.generation, generation, 'no change reached the node');
  }

  test('a service account deleted on a node is refused by that node on the very next request', async () => {
    const { id, token } = await account();
    // Twice: the second is answered from what the first kept.
    assert.equal(await list(a, token), 200);
    assert.equal(await list(a, token), 200);
    const generation = a.deps.serviceAccounts?.generation ?? 0;
    await deleteServiceAccount(a.deps, org, id, SYSTEM);
    // No wait for the NOTIFY: the commit emptied node a's caches before deleteServiceAccount returned.
    assert.ok((a.deps.serviceAccounts?.generation ?? 0) > generation, 'emptied at the commit');
    assert.equal(await list(a, token), 401);
  });

  test('a service account deleted on another node is refused once the NOTIFY of its commit arrives', async () => {
    const { id, token } = await account();
    assert.equal(await list(b, token), 200);
    assert.equal(await list(b, token), 200);
    const generation = b.deps.serviceAccounts?.generation ?? 0;
    await deleteServiceAccount(a.deps, org, id, SYSTEM);
    await changedSince(b, generation);
    assert.equal(await list(b, token), 401);
  });

  test('while its listener is away a node keeps nothing: a deletion meanwhile is refused at once', async () => {
    const { id, token } = await account();
    assert.equal(await list(b, token), 200);
    const cache = b.deps.serviceAccounts;
    assert.ok(cache);
    const generation = cache.generation;
    const ended = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
      [listenerName],
    );
    // Its credentials listener, and the workers' listener beside it.
    assert.ok((ended.rowCount ?? 0) >= 1, 'node b listens');
    await changedSince(b, generation);
    // The deletion's NOTIFY reaches no listener of node b: it must not matter.
    await deleteServiceAccount(a.deps, org, id, SYSTEM);
    const answered = await list(b, token);
    // Unless the listener came back already (a second later), in which case it started over empty.
    assert.equal(answered, 401);
  });

  test('an org renamed on a node is found by its new slug there at once, and no longer by the old', async () => {
    const { token } = await account();
    assert.equal(await list(a, token), 200);
    await a.db.transaction().execute(async (tx) => {
      await tx.updateTable('organizations').set({ slug: 'acme-renamed' }).where('id', '=', org.id).execute();
    });
    const renamed = await fetch(`${a.base}/organizations/acme-renamed/users?per_page=50`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(renamed.status, 200);
    assert.equal(await list(a, token), 404);
    await a.db.updateTable('organizations').set({ slug: 'acme' }).where('id', '=', org.id).execute();
    assert.equal(await list(a, token), 200);
  });
});

describe('which statements empty a node’s caches at their commit', () => {
  test('writes to clients, signing keys, organizations and service accounts; nothing else', () => {
    const writes = [
      'insert into "clients" ("id") values ($1)',
      'update "organizations" set "slug" = $1 where "id" = $2',
      'delete from "service_accounts" where "client_id" = $1',
      'update signing_keys set status = $1',
      'with x as (delete from "clients" where id = $1 returning id) select * from x',
      'TRUNCATE TABLE organizations',
    ];
    const others = [
      'select * from "clients" where "id" = $1',
      'select * from "organizations" where "slug" = $1 for update',
      'update "refresh_tokens" set "used_at" = $1 where "client_id" = $2',
      'insert into "audit_events" ("entity") values ($1)',
      'update "clients_archive" set x = 1',
      'delete from "organizations_log"',
      'begin',
      'commit',
    ];
    assert.deepEqual(
      writes.filter((q) => !writesCachedTable(q)),
      [],
    );
    assert.deepEqual(others.filter(writesCachedTable), []);
  });
});
