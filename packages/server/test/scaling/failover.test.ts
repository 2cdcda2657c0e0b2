import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rotateClientSecret } from '../../src/domain/directory/index.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { FormBrowser, signInThroughPages } from '../sign-in/support/browser.js';
import {
  authorizeUrl,
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import { Cluster, clusterDir, clustersSkip, removeClusterDir, startHaproxy } from '../support/pg-clusters.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Issue 48: a primary and a synchronous streaming standby (two clusters of this file's own), reached by
 * two nodes through HAProxy with a health check (the primary active, the standby its backup, as a
 * Patroni deployment routes). Under load the primary is killed (SIGKILL to its whole process group) and
 * the standby promoted: no acknowledged write is lost, each refresh chain goes on (a rotation whose
 * answer was lost is retried within the grace by its confidential client), `/readyz` says not ready in
 * the gap and ready after, the nodes reconnect on their own and LISTEN again, and a change made after
 * the failover empties the other node's cache through the notification. fsync off: a killed postmaster
 * leaves its writes in the operating system's cache; what is claimed here is the standby's.
 */
const skip = clustersSkip({ haproxy: true });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('failover: a synchronous standby promoted behind HAProxy under load', { skip }, () => {
  let dir: string;
  let primary: Cluster;
  let standby: Cluster;
  const nodes: TestServer[] = [];
  let org: Org;
  let client: { clientId: string; secret: string | null };

  before(async () => {
    const started = Date.now();
    dir = clusterDir('tessera-failover-');
    primary = await Cluster.primary(dir, 'primary', { fsync: false, synchronousStandby: 'standby' });
    standby = await Cluster.standby(dir, 'standby', primary);
    await primary.query('create database tessera');
    const proxy = await startHaproxy(dir, [primary, standby]);
    const env = { DATABASE_URL: proxy.url('tessera'), TESSERA_DB_POOL: '4' };
    nodes.push(await startServer({ env }));
    nodes.push(await startServer({ env }));
    const a = nodes[0] as TestServer;
    org = await makeOrg(a, 'acme');
    client = await makeClient(a.deps, org, { kind: 'confidential', name: 'Web app' });
    console.log(`# primary, synchronous standby, HAProxy and two nodes up in ${Date.now() - started} ms`);
  });

  after(async () => {
    await Promise.all(nodes.map((n) => n.close()));
    await primary?.kill();
    await standby?.kill();
    if (dir) removeClusterDir(dir);
  });

  const refresh = (node: TestServer, token: string) =>
    tokenRequest(node.issuer('acme'), {
      grant_type: 'refresh_token',
      refresh_token: token,
      client_id: client.clientId,
      client_secret: client.secret as string,
    });

  async function refreshTokenOf(email: string): Promise<string> {
    const a = nodes[0] as TestServer;
    const { url, verifier } = authorizeUrl(a.issuer('acme'), client.clientId, { scope: 'offline_access' });
    const callback = await signInThroughPages(new FormBrowser(), url, { email, password: PASSWORD });
    const code = new URL(callback).searchParams.get('code') ?? '';
    const tokens = await tokenRequest(a.issuer('acme'), {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: new URL(callback).origin + new URL(callback).pathname,
      client_id: client.clientId,
      client_secret: client.secret as string,
    });
    assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
    return tokens.body.refresh_token as string;
  }

  test('no acknowledged write is lost, every refresh chain goes on, /readyz says when there is no primary', async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    const emails = ['ada@acme.test', 'bob@acme.test', 'cy@acme.test'];
    for (const email of emails) await makeUser(a.deps, org, email);
    const chains = await Promise.all(emails.map(refreshTokenOf));

    let stop = false;
    let promoted = false;
    const acknowledgedUsers: string[] = [];
    const afterPromotion = new Array<number>(chains.length).fill(0);
    const refusals: string[] = [];
    const readiness: number[] = [];

    // Each chain refreshes on alternating nodes; an answer that is not 200 is retried with the same
    // token (the rotation it asked for may have committed with its answer lost: the grace's case).
    const chain = async (i: number) => {
      for (let k = 0; !stop; k++) {
        const node = k % 2 === 0 ? a : b;
        const answer = await refresh(node, chains[i] as string).catch(() => null);
        if (answer?.status === 200) {
          chains[i] = answer.body.refresh_token as string;
          if (promoted) afterPromotion[i] = (afterPromotion[i] as number) + 1;
        } else {
          if (answer && answer.status !== 503)
            refusals.push(`${answer.status} ${JSON.stringify(answer.body)}`);
          await sleep(50);
        }
      }
    };
    // Users written through each node's domain: acknowledged when the commit returned.
    const writer = async () => {
      for (let k = 0; !stop; k++) {
        const email = `load${k}@acme.test`;
        const node = k % 2 === 0 ? a : b;
        try {
          await makeUser(node.deps, org, email);
          acknowledgedUsers.push(email);
        } catch {
          await sleep(50);
        }
      }
    };
    const probe = async () => {
      while (!stop) {
        const answer = await fetch(`${a.base}/readyz`).catch(() => null);
        readiness.push(answer?.status ?? 0);
        await answer?.body?.cancel();
        await sleep(100);
      }
    };
    const load = [...chains.map((_, i) => chain(i)), writer(), probe()];

    await sleep(1_500);
    const beforeKill = acknowledgedUsers.length;
    assert.ok(beforeKill > 0, 'writes were acknowledged before the failover');
    await primary.kill();
    await sleep(500);
    await standby.query('select pg_promote()');
    promoted = true;
    const promotedAt = Date.now();
    // Until every chain has refreshed three times on the new primary, and readiness is back.
    while (afterPromotion.some((n) => n < 3) || readiness.at(-1) !== 200) {
      assert.ok(Date.now() - promotedAt < 60_000, `no recovery: ${afterPromotion} ${readiness.slice(-5)}`);
      await sleep(100);
    }
    stop = true;
    await Promise.all(load);
    console.log(
      `# ${acknowledgedUsers.length} users acknowledged (${beforeKill} before the kill), ` +
        `chains refreshed ${afterPromotion} times after the promotion, recovered in ${Date.now() - promotedAt} ms`,
    );

    assert.deepEqual(refusals, [], 'a refresh was refused: a chain lost its session');
    const stored = await standby.query<{ email: string }>('select email from users', [], 'tessera');
    const kept = new Set(stored.rows.map((r) => r.email));
    assert.deepEqual(
      acknowledgedUsers.filter((e) => !kept.has(e)),
      [],
      'acknowledged users missing on the promoted standby',
    );
    assert.ok(readiness.includes(503), `/readyz never said not ready: ${readiness}`);
    assert.equal(readiness.at(-1), 200);
    // Each chain's last token still works (on either node), once more.
    for (const token of chains) assert.equal((await refresh(b, token)).status, 200);
  });

  test('after the failover both nodes LISTEN on the new primary, and a change reaches the other node', async () => {
    const [a, b] = nodes as [TestServer, TestServer];
    // The listeners reconnect on their own (once a second): waited for, not timed.
    for (let i = 0; ; i++) {
      const listening = await standby.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = 'tessera' and query ilike 'listen %'",
      );
      if (listening.rows[0]?.n === 4) break;
      assert.ok(i < 200, `listeners on the new primary: ${listening.rows[0]?.n}`);
      await sleep(100);
    }
    const made = await orgWithMachineClient(a.deps, 'beta');
    const grant = (node: TestServer, secret: string) =>
      tokenRequest(node.issuer('beta'), {
        grant_type: 'client_credentials',
        client_id: made.clientId,
        client_secret: secret,
      });
    assert.equal((await grant(b, made.clientSecret)).status, 200);
    const cache = b.deps.credentials;
    assert.ok(cache, 'tessera serve caches client credentials');
    const seen = cache.generation;
    const secret = await rotateClientSecret(a.deps, made.org, made.clientId, SYSTEM);
    for (let i = 0; cache.generation === seen; i++) {
      assert.ok(i < 2_000, 'no change notification reached the other node');
      await sleep(10);
    }
    const old = await grant(b, made.clientSecret);
    assert.deepEqual([old.status, old.body.error], [401, 'invalid_client']);
    assert.equal((await grant(b, secret)).status, 200);
  });
});
