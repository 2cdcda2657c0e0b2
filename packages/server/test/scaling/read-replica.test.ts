import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createOrg } from '../../src/domain/directory/index.js';
import type { Org } from '../../src/domain/types.js';
import { parseLsn } from '../../src/storage/read-routing.js';
import { findOrgBySlug } from '../../src/storage/repos/orgs.js';
import { addConsoleMember, call, consoleOf, ownedOrg } from '../management/support/console.js';
import { PASSWORD } from '../sign-in/support/fixtures.js';
import { Cluster, clusterDir, clustersSkip, removeClusterDir } from '../support/pg-clusters.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Issue 48: TESSERA_DB_READ_URL. A primary and a streaming replica of this file's own (fsync off:
 * nothing here is about durability), started once; one node reads lag-tolerant lists from the
 * replica. The replica is made to lag for real: its replay is paused (pg_wal_replay_pause()).
 */
const skip = clustersSkip();

describe('a read replica: lists read it, a principal reads its own writes, lag and loss are survived', {
  skip,
}, () => {
  let dir: string;
  let primary: Cluster;
  let replica: Cluster;
  let server: TestServer;
  let acme: Org;
  let owner: string;
  let other: string;

  const replayPaused = async (paused: boolean) => {
    await replica.query(paused ? 'select pg_wal_replay_pause()' : 'select pg_wal_replay_resume()');
  };
  /** Until the replica has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    for (let i = 0; ; i++) {
      const { rows: behind } = await replica.query<{ behind: boolean }>(
        'select pg_last_wal_replay_lsn() < $1::pg_lsn as behind',
        [rows[0]?.lsn],
      );
      if (!behind[0]?.behind) return;
      assert.ok(i < 400, 'the replica did not catch up');
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const emails = async (token: string) => {
    const res = await call(server, 'GET', '/organizations/acme/users?per_page=100', token);
    assert.equal(res.status, 200, res.text);
    return (res.body as { email: string }[]).map((u) => u.email).sort();
  };

  before(async () => {
    const started = Date.now();
    dir = clusterDir('tessera-replica-');
    primary = await Cluster.primary(dir, 'primary', { fsync: false });
    await primary.query('create database tessera');
    replica = await Cluster.standby(dir, 'replica', primary);
    server = await startServer({
      env: { DATABASE_URL: primary.url('tessera'), TESSERA_DB_READ_URL: replica.url('tessera') },
      webhooks: false,
    });
    acme = await ownedOrg(server, 'acme');
    await addConsoleMember(server, acme, 'mel@console.test', 'owner');
    const console_ = await consoleOf(server);
    owner = await console_.token('owner@acme.test');
    other = await console_.token('mel@console.test');
    console.log(`# primary, replica and a node up in ${Date.now() - started} ms`);
  });

  after(async () => {
    await server?.close();
    await replica?.kill();
    await primary?.kill();
    if (dir) removeClusterDir(dir);
  });

  test('while the replica lags, a principal reads its own write at once; another reads the replica until it replays', async () => {
    await caughtUp();
    const before_ = await emails(other);
    await replayPaused(true);
    try {
      const created = await call(server, 'POST', '/organizations/acme/users', owner, {
        email: 'new@acme.test',
        password: PASSWORD,
      });
      assert.equal(created.status, 201, created.text);
      // The writer's next request: its write, read from the primary.
      assert.ok((await emails(owner)).includes('new@acme.test'), 'the writer reads its own write');
      // Someone else's list comes from the replica, which has not replayed the write: a moment old.
      assert.deepEqual(await emails(other), before_, 'the other principal read the lagging replica');
      // A principal's write and its read in one request: the read goes to the primary.
      const renamed = await call(server, 'PATCH', `/organizations/acme/users/${created.body.id}`, owner, {
        first_name: 'Nova',
      });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.first_name, 'Nova');
    } finally {
      await replayPaused(false);
    }
    await caughtUp();
    assert.ok((await emails(other)).includes('new@acme.test'), 'replayed, the replica has it');
  });

  test('a write then a read in one scope, replay paused: the read sees the write', async () => {
    await caughtUp();
    await replayPaused(true);
    try {
      const found = await new Promise<string | undefined>((resolve, reject) => {
        const scopes = serverReads(server);
        scopes.run({ principal: null }, () => {
          scopes.lagFromNow();
          createOrg(server.deps, { slug: 'scoped', ownerEmail: 'owner@scoped.test', ownerPassword: PASSWORD })
            .then(() => findOrgBySlug(server.db, 'scoped'))
            .then((org) => resolve(org?.slug), reject);
        });
      });
      assert.equal(found, 'scoped');
      // Outside that scope's write, a lag-tolerant read of the replica does not see it yet.
      const stale = await new Promise<string | undefined>((resolve, reject) => {
        const scopes = serverReads(server);
        scopes.run({ principal: null }, () => {
          scopes.lagFromNow();
          findOrgBySlug(server.db, 'scoped').then((org) => resolve(org?.slug), reject);
        });
      });
      assert.equal(stale, undefined, 'the lag-tolerant read went to the paused replica');
    } finally {
      await replayPaused(false);
    }
  });

  test("a new org's key set is whole at once while the replica lags: keys are read from the primary", async () => {
    await caughtUp();
    await replayPaused(true);
    try {
      await createOrg(server.deps, {
        slug: 'fresh',
        ownerEmail: 'owner@fresh.test',
        ownerPassword: PASSWORD,
      });
      // A verifier keeps what it fetched for minutes: a set without the key that signs the org's
      // tokens would refuse them all that time.
      const answer = await fetch(new URL('.well-known/jwks.json', server.issuer('fresh')));
      assert.equal(answer.status, 200);
      const { keys } = (await answer.json()) as { keys: { kid: string }[] };
      const active = await server.db
        .selectFrom('signing_keys')
        .innerJoin('organizations', 'organizations.id', 'signing_keys.org_id')
        .select('signing_keys.kid')
        .where('organizations.slug', '=', 'fresh')
        .execute();
      assert.deepEqual(keys.map((k) => k.kid).sort(), active.map((k) => k.kid).sort());
    } finally {
      await replayPaused(false);
    }
  });

  // A principal is whatever a request's bearer token names, read unverified, and many requests write
  // (an authorization request, a login attempt): anyone can flood the router with principals whose
  // writes are pending. Past 10 000 of them every list read the primary for good (nothing pruned a
  // full map), and the map grew without bound.
  test('flooded with principals whose writes are pending: lists read the replica once it has replayed them, and a principal still reads its own write', async () => {
    await caughtUp();
    const reads = serverReads(server);
    const { rows } = await primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const lsn = parseLsn(rows[0]?.lsn ?? '0/0');
    for (let i = 0; i < 20_000; i++) reads.wrote(`https://forged.test/ p${i}`, lsn);
    const served = reads.served.replica;
    await emails(owner);
    assert.ok(reads.served.replica > served, 'the replica has replayed the flood: the list read it');
    // Still flooded, the owner's write is read back at once while the replica lags.
    for (let i = 0; i < 20_000; i++) reads.wrote(`https://forged.test/ q${i}`, lsn);
    await replayPaused(true);
    try {
      const created = await call(server, 'POST', '/organizations/acme/users', owner, {
        email: 'flood@acme.test',
        password: PASSWORD,
      });
      assert.equal(created.status, 201, created.text);
      assert.ok((await emails(owner)).includes('flood@acme.test'), 'the owner reads its own write');
    } finally {
      await replayPaused(false);
    }
  });

  test('a query waiting for a primary connection is counted in tessera_db_pool_wait_seconds', async () => {
    // Waits longer than 0.25 s: the count less the 0.25 s bucket.
    const longWaits = async () => {
      const text = await (await fetch(`${server.base}/metrics`)).text();
      const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
      return (
        value(/^tessera_db_pool_wait_seconds_count (\S+)$/m) -
        value(/^tessera_db_pool_wait_seconds_bucket\{le="0\.25"\} (\S+)$/m)
      );
    };
    const before_ = await longWaits();
    // Every connection of the primary's pool held by a transaction: the next query waits for one.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const began: Promise<void>[] = [];
    const held = Array.from({ length: server.config.dbPool }, () => {
      let inside = () => {};
      began.push(new Promise<void>((resolve) => (inside = resolve)));
      return server.db.transaction().execute(async (trx) => {
        await trx.selectFrom('organizations').select('id').execute();
        inside();
        await gate;
      });
    });
    await Promise.all(began);
    const beside = server.db.selectFrom('organizations').select('id').execute();
    await new Promise((resolve) => setTimeout(resolve, 400));
    release();
    await Promise.all([...held, beside]);
    assert.ok((await longWaits()) - before_ >= 1, 'the query beside them waited, and it was counted');
  });

  // A standby cancels a read when its replay needs what the read holds (max_standby_streaming_delay
  // past): "canceling statement due to conflict with recovery", SQLSTATE 40001. That reached the
  // caller as a 500; the read is now asked of the primary, and counted.
  test('a list the replica cancels for a conflict with recovery is answered from the primary, and counted', async () => {
    // 10,000 more users in acme (a copy of one, made by the database): each list counts them on the
    // replica, so its reads hold the table for milliseconds, not microseconds.
    const [template] = (
      await primary.query<Record<string, unknown>>(
        "select * from users where email = 'new@acme.test'",
        [],
        'tessera',
      )
    ).rows;
    assert.ok(template);
    const made: Record<string, string> = {
      id: "'usr_bulk_' || g",
      email: "'bulk' || g || '@acme.test'",
      email_key: "'bulk' || g || '@acme.test'",
      created_at: 't.created_at - 1000000 - g',
    };
    const columns = Object.keys(template);
    await primary.query(
      `insert into users (${columns.join(', ')}) select ${columns.map((c) => made[c] ?? `t.${c}`).join(', ')} from users t, generate_series(1, 10000) as s(g) where t.email = 'new@acme.test'`,
      [],
      'tessera',
    );
    await caughtUp();
    await replica.query('alter system set max_standby_streaming_delay = 0');
    await replica.query('select pg_reload_conf()');
    const counted = async () => {
      const text = await (await fetch(`${server.base}/metrics`)).text();
      return Number(/^tessera_db_replica_recovery_conflicts_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
    };
    const countedBefore = await counted();
    const expected = await emails(other);
    const statuses = new Map<number, number>();
    let stop = false;
    // Lists of the users table on the replica, four at a time…
    const lists = Array.from({ length: 4 }, async () => {
      while (!stop) {
        const res = await call(server, 'GET', '/organizations/acme/users?per_page=100', other);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) {
          const got = (res.body as { email: string }[]).map((u) => u.email).sort();
          assert.deepEqual(got, expected);
        }
      }
    });
    // …while the primary takes an exclusive lock on that table again and again: each is replayed on
    // the replica, which cancels the reads holding the table at that moment (a lock conflict).
    const locker = new pg.Client({ connectionString: primary.url('tessera') });
    await locker.connect();
    try {
      const refused = () => [...statuses.keys()].some((status) => status !== 200);
      for (let i = 0; (await counted()) === countedBefore && !refused(); i++) {
        assert.ok(i < 2_000, `no read was cancelled by recovery: ${JSON.stringify([...statuses])}`);
        for (let k = 0; k < 10; k++) {
          await locker.query('begin; lock table users in access exclusive mode; commit');
          await new Promise((r) => setTimeout(r, 2));
        }
      }
    } finally {
      stop = true;
      await Promise.allSettled(lists);
      await locker.end();
      await replica.query('alter system reset max_standby_streaming_delay');
      await replica.query('select pg_reload_conf()');
      await primary.query("delete from users where email like 'bulk%@acme.test'", [], 'tessera');
    }
    await Promise.all(lists);
    const retried = (await counted()) - countedBefore;
    console.log(
      `# ${retried} list reads cancelled by the replica and answered by the primary; answers ${JSON.stringify([...statuses])}`,
    );
    assert.deepEqual([...statuses.keys()], [200], 'every list answered 200');
    // What was counted happened on the replica, which logged it.
    assert.match(replica.log, /ERROR: +canceling statement due to conflict with recovery/);
  });

  test('the replica killed: lists keep answering, from the primary', async () => {
    await replica.kill();
    for (const token of [owner, other]) {
      assert.ok((await emails(token)).includes('new@acme.test'));
    }
    const discovery = await fetch(new URL('.well-known/openid-configuration', server.issuer('acme')));
    assert.equal(discovery.status, 200);
  });
});

/** The node's read router (the runtime's), as the HTTP layer holds it. */
function serverReads(server: TestServer) {
  const reads = server.reads;
  if (!reads) throw new Error('TESSERA_DB_READ_URL is set: the node has a read router');
  return reads;
}
