import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rotateClientSecret } from '../../src/domain/directory/index.js';
import { SYSTEM } from '../../src/domain/types.js';
import { api, makeClient, makeOrg, makeUser, signIn, tokenRequest } from '../sign-in/support/fixtures.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import {
  Cluster,
  clusterDir,
  clustersSkip,
  removeClusterDir,
  startPgBouncer,
} from '../support/pg-clusters.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Issue 48: two nodes whose DATABASE_URL is Debian's PgBouncer in transaction mode (each
 * transaction may run on another server connection, so nothing may rely on a session's state:
 * named prepared statements, SET, session advisory locks, LISTEN, temporary tables), and whose
 * TESSERA_DB_LISTEN_URL goes to PostgreSQL directly. A PostgreSQL cluster of this file's own (fsync
 * off: nothing here is about durability), started once.
 */
const skip = clustersSkip({ pgbouncer: true });

describe('two nodes through PgBouncer in transaction mode, LISTEN direct', { skip }, () => {
  let dir: string;
  let cluster: Cluster;
  let bouncer: Awaited<ReturnType<typeof startPgBouncer>>;
  const nodes: TestServer[] = [];

  // What the node with prepared statements on logs (its warning, when a statement was lost).
  const preparedLogs: string[] = [];

  before(async () => {
    const started = Date.now();
    dir = clusterDir('tessera-pgbouncer-');
    cluster = await Cluster.primary(dir, 'primary', { fsync: false });
    await cluster.query('create database tessera');
    bouncer = await startPgBouncer(dir, cluster, 'transaction');
    const env = {
      DATABASE_URL: bouncer.url('tessera'),
      // Named, so the test can tell its sessions from PgBouncer's server connections.
      TESSERA_DB_LISTEN_URL: `${cluster.url('tessera')}?application_name=direct`,
      TESSERA_DB_POOL: '4',
    };
    // Both migrate through PgBouncer at once: the migrator's lock is a transaction's (storage/migration-lock.ts).
    // Kysely's own, a session's, could be taken on one server connection and released on another: the
    // lock then stayed with a pooled connection and the second node waited an hour to migrate.
    // The second node keeps its prepared statements on against the advice (TESSERA_DB_LISTEN_URL turns
    // them off): a statement PgBouncer hands to another server connection is lost there, and the node
    // must still answer everything as the first does (sent again unnamed, or 503 inside a transaction).
    nodes.push(
      ...(await Promise.all([
        startServer({ env }),
        startServer({ env: { ...env, TESSERA_DB_PREPARED_STATEMENTS: 'on' }, logs: preparedLogs }),
      ])),
    );
    console.log(`# cluster, PgBouncer and two nodes up in ${Date.now() - started} ms`);
  });

  after(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    await cluster?.kill();
    if (dir) removeClusterDir(dir);
  });

  test('the node with prepared statements on answers sign-ins and refreshes side by side: a statement lost on the way is sent again', async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const org = await makeOrg(a, 'side-by-side');
    const emails = ['ada', 'alan', 'grace', 'linus', 'barbara', 'edsger'].map((n) => `${n}@side.test`);
    for (const email of emails) await makeUser(a.deps, org, email);
    const { clientId } = await makeClient(a.deps, org);
    // Six at once: PgBouncer hands each transaction the server connection that is free, so a
    // connection of the node meets server connections it never prepared its statements on.
    const signedIn = await Promise.all(
      emails.map((email) => signIn(b.issuer('side-by-side'), clientId, email)),
    );
    const statuses = await Promise.all(
      signedIn.map(async ({ refreshToken: first }) => {
        const seen: number[] = [];
        let refreshToken = first;
        for (let i = 0; i < 4; i++) {
          const refreshed = await tokenRequest(b.issuer('side-by-side'), {
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: clientId,
          });
          seen.push(refreshed.status);
          refreshToken = refreshed.body.refresh_token as string;
        }
        return seen;
      }),
    );
    assert.deepEqual(
      statuses,
      emails.map(() => [200, 200, 200, 200]),
    );
    // Lost or not (it is PgBouncer's choice), a warning says what to set, once.
    const warned = preparedLogs.filter((line) => line.includes('prepared statement was not found'));
    assert.ok(warned.length <= 1, warned.join('\n'));
    for (const line of warned) assert.match(line, /set TESSERA_DB_PREPARED_STATEMENTS=off/);
  });

  test('sign-in, code exchange, refresh and client_credentials across both nodes; migrated once', async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const org = await makeOrg(a, 'acme');
    await makeUser(a.deps, org, 'ada@acme.test');
    const { clientId } = await makeClient(a.deps, org);
    // Signed in on one node, refreshed on the other, and back.
    const first = await signIn(b.issuer('acme'), clientId, 'ada@acme.test');
    let refreshToken = first.refreshToken;
    for (const node of [a, b, a, b]) {
      const refreshed = await tokenRequest(node.issuer('acme'), {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: clientId,
      });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      refreshToken = refreshed.body.refresh_token as string;
      const me = await api(node.issuer('acme'), 'GET', 'users/me', refreshed.body.access_token as string);
      assert.equal(me.status, 200);
      assert.equal(me.body.email, 'ada@acme.test');
    }
    const machine = await orgWithMachineClient(a.deps, 'beta');
    for (const node of [a, b]) {
      const token = await tokenRequest(node.issuer('beta'), {
        grant_type: 'client_credentials',
        client_id: machine.clientId,
        client_secret: machine.clientSecret,
      });
      assert.equal(token.status, 200, JSON.stringify(token.body));
    }
    const migrations = await cluster.query<{ n: number }>(
      'select count(*)::int as n from tessera_migrations group by name having count(*) > 1',
      [],
      'tessera',
    );
    assert.equal(migrations.rowCount, 0, 'every migration applied once');
    // No migration lock outlives the migrations: the next node to start would wait for it.
    const advisory = await cluster.query<{ pid: number }>(
      "select pid from pg_locks where locktype = 'advisory'",
      [],
      'tessera',
    );
    assert.equal(advisory.rowCount, 0, 'no advisory lock is held once both nodes have migrated');
    // What PgBouncer says when a server sends what a client session does not expect (a NOTIFY on a
    // pooled connection, a prepared statement's reply): nothing.
    assert.doesNotMatch(bouncer.log(), /not linked|prepared statement .* does not exist|ERROR/);
  });

  test('each node LISTENs on a direct connection, none through PgBouncer', async () => {
    const listening = await cluster.query<{ application_name: string; n: number }>(
      `select application_name, count(*)::int as n from pg_stat_activity
       where datname = 'tessera' and query ilike 'listen %' group by application_name`,
    );
    // Per node: the credentials cache's listener and the webhook worker's, each on TESSERA_DB_LISTEN_URL.
    assert.deepEqual(listening.rows, [{ application_name: 'direct', n: 4 }]);
  });

  test('a client secret rotated on one node is refused by the other as soon as the notification arrives', async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const made = await orgWithMachineClient(a.deps, 'gamma');
    const grant = (node: TestServer, secret: string) =>
      tokenRequest(node.issuer('gamma'), {
        grant_type: 'client_credentials',
        client_id: made.clientId,
        client_secret: secret,
      });
    // Node b reads the client once: it is in b's cache from now on.
    assert.equal((await grant(b, made.clientSecret)).status, 200);
    const cache = b.deps.credentials;
    assert.ok(cache, 'tessera serve caches client credentials');
    const seen = cache.generation;
    const rotatedAt = Date.now();
    const secret = await rotateClientSecret(a.deps, made.org, made.clientId, SYSTEM);
    // Through PgBouncer the NOTIFY never reached b's listener (the 2.5–5 s of the old secret
    // accepted, until the cache aged out). Direct, it arrives: waited for, not timed.
    while (cache.generation === seen) {
      assert.ok(Date.now() - rotatedAt < 20_000, 'no change notification reached the other node');
      await new Promise((r) => setTimeout(r, 10));
    }
    const heard = Date.now() - rotatedAt;
    const old = await grant(b, made.clientSecret);
    console.log(`# the rotation's notification reached the other node after ${heard} ms`);
    assert.deepEqual([old.status, old.body.error], [401, 'invalid_client']);
    assert.equal((await grant(b, secret)).status, 200);
  });
});
