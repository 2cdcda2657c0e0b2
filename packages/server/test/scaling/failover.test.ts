import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { rotateClientSecret } from '../../src/domain/directory/index.js';
import { createWebhook } from '../../src/domain/directory/webhooks.js';
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
  let webhookId: string;

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
    // Every user created is audited, and the audit entry is a delivery of this webhook, written in the
    // same transaction (the outbox). Its receiver is never there: the deliveries stay in the table.
    webhookId = (
      await createWebhook(
        a.deps,
        org,
        { url: 'https://127.0.0.1:9/failover', events: ['user.created'] },
        SYSTEM,
      )
    ).webhook.id;
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
    /** Each /readyz answer of each node, with when it came. */
    const probes: { node: number; at: number; status: number }[] = [];
    let rotations = 0;

    // Each chain refreshes on alternating nodes; an answer that is not 200 is retried with the same
    // token (the rotation it asked for may have committed with its answer lost: the grace's case).
    const chain = async (i: number) => {
      for (let k = 0; !stop; k++) {
        const node = k % 2 === 0 ? a : b;
        const answer = await refresh(node, chains[i] as string).catch(() => null);
        if (answer?.status === 200) {
          chains[i] = answer.body.refresh_token as string;
          rotations += 1;
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
    const probe = async (node: TestServer, index: number) => {
      while (!stop) {
        const answer = await fetch(`${node.base}/readyz`).catch(() => null);
        const status = answer?.status ?? 0;
        if (index === 0) readiness.push(status);
        probes.push({ node: index, at: Date.now(), status });
        await answer?.body?.cancel();
        await sleep(100);
      }
    };
    const load = [...chains.map((_, i) => chain(i)), writer(), probe(a, 0), probe(b, 1)];

    await sleep(1_500);
    const beforeKill = acknowledgedUsers.length;
    assert.ok(beforeKill > 0, 'writes were acknowledged before the failover');
    const killedAt = Date.now();
    await primary.kill();
    // Promoted only once each node has said it is not ready: waited for, not timed, so a slow machine's
    // probes cannot all fall in the short window between the kill and the promotion.
    const saidNotReady = (index: number) =>
      probes.some((p) => p.node === index && p.at > killedAt && p.status !== 200);
    while (!saidNotReady(0) || !saidNotReady(1)) {
      assert.ok(
        Date.now() - killedAt < 30_000,
        `/readyz still ready 30 s after the kill: ${readiness.slice(-5)}`,
      );
      await sleep(50);
    }
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
    const recoveredIn = Date.now() - promotedAt;

    assert.deepEqual(refusals, [], 'a refresh was refused: a chain lost its session');
    // What the promoted standby holds of each acknowledged write: the users, their `user.created`
    // audit entries and the webhook deliveries of those entries.
    const emailsOf = async (text: string, values: unknown[] = []) =>
      new Set((await standby.query<{ email: string }>(text, values, 'tessera')).rows.map((r) => r.email));
    const users = await emailsOf('select email from users');
    const audited = await emailsOf(
      "select data::json->>'email' as email from audit_events where entity = 'user' and verb = 'created'",
    );
    const delivered = await emailsOf(
      "select a.data::json->>'email' as email from webhook_deliveries d join audit_events a on a.id = d.event_id where d.webhook_id = $1",
      [webhookId],
    );
    const found = (kept: Set<string>) => acknowledgedUsers.filter((e) => kept.has(e)).length;
    // Each chain's last token still works (on either node), once more: every acknowledged rotation of
    // the chain before it was kept (each consumed the one before).
    const lastTokens = await Promise.all(chains.map(async (token) => (await refresh(b, token)).status));
    // Without a primary: from the kill to the first moment both nodes said ready again.
    const down = (index: number) => probes.filter((p) => p.node === index && p.at > killedAt);
    const readyAgain = Math.max(
      ...[0, 1].map(
        (i) =>
          down(i).find((p, k, all) => p.status === 200 && all.slice(k).every((q) => q.status === 200))?.at ??
          Number.NaN,
      ),
    );
    const notReady = (index: number) => down(index).filter((p) => p.status !== 200).length;
    console.log(
      `# writes acknowledged: ${acknowledgedUsers.length} users (${beforeKill} before the kill), as many audit entries and webhook deliveries, ${rotations} refresh rotations over ${chains.length} chains\n` +
        `# writes found on the promoted standby: ${found(users)} users, ${found(audited)} audit entries, ${found(delivered)} webhook deliveries; ${lastTokens.filter((s) => s === 200).length} of ${chains.length} chains' last refresh token accepted\n` +
        `# without a primary: ${((promotedAt - killedAt) / 1000).toFixed(1)} s from the kill to the promotion; ${((readyAgain - killedAt) / 1000).toFixed(1)} s from the kill until both nodes were ready again (not-ready answers: ${notReady(0)} and ${notReady(1)}); recovered ${recoveredIn} ms after the promotion`,
    );
    assert.deepEqual(
      acknowledgedUsers.filter((e) => !users.has(e)),
      [],
      'acknowledged users missing on the promoted standby',
    );
    assert.deepEqual(
      acknowledgedUsers.filter((e) => !audited.has(e)),
      [],
      'audit entries of acknowledged users missing on the promoted standby',
    );
    assert.deepEqual(
      acknowledgedUsers.filter((e) => !delivered.has(e)),
      [],
      'webhook deliveries of acknowledged users missing on the promoted standby',
    );
    assert.deepEqual(
      lastTokens,
      chains.map(() => 200),
    );
    assert.ok(readiness.includes(503), `/readyz never said not ready: ${readiness}`);
    assert.equal(readiness.at(-1), 200);
    assert.ok(Number.isFinite(readyAgain), 'both nodes said ready again');
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
    const ready = await Promise.all(nodes.map(async (n) => (await fetch(`${n.base}/readyz`)).status));
    assert.deepEqual(ready, [200, 200]);
    console.log(
      `# nodes reconnected: ${ready.length} of ${nodes.length} (each /readyz 200, 4 LISTEN connections on the new primary)`,
    );
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
