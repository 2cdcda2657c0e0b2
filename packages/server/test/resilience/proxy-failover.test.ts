import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { loadConfig } from '../../src/config/config.js';
import { openRuntime, type Runtime } from '../../src/runtime.js';
import { FormBrowser, signInThroughPages } from '../sign-in/support/browser.js';
import { authorizeUrl, CALLBACK, makeClient, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { NGINX_PATH, nginxSkip, postgresSkip } from '../support/environment.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import {
  type Answer,
  DOMAIN,
  makeCertificates,
  opensslSkip,
  ProxyClient,
  ROOT,
  writeNginxConfig,
} from '../support/nginx-proxy.js';
import { createPostgresSchema } from '../support/postgres.js';
import { TEST_SECRET } from '../support/runtime.js';
import { freePort } from '../support/server.js';
import { spawnGroup, TesseraProcess } from '../support/tessera-process.js';

/**
 * DESIGN §18: two `tessera serve` nodes on one PostgreSQL database behind Debian's nginx, configured
 * by the repository's deploy/nginx.conf (TLS with a wildcard certificate of a test CA, upstream
 * keep-alive), with TESSERA_TRUST_PROXY=1. PostgreSQL only: several nodes share a database there.
 *
 * The hosts are under `tessera.test` (a name reserved for tests, never resolved): every request goes
 * to 127.0.0.1 with the host as SNI and Host header, as a browser would send it.
 */
const skip = (await postgresSkip()) || nginxSkip() || opensslSkip();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two nodes on one PostgreSQL behind nginx (TLS, keep-alive, TESSERA_TRUST_PROXY=1)', {
  skip,
}, () => {
  let dir: string;
  let schema: { url: string; drop(): Promise<void> };
  let ports: { tls: number; http: number; nodes: number[] };
  const nodes: TesseraProcess[] = [];
  const exited: TesseraProcess[] = [];
  let client: ProxyClient;
  let runtime: Runtime;
  let admin: pg.Client;
  let nginxLog: () => string;
  let env: Record<string, string>;
  let stopNginx = () => {};

  /** Node i, from the compiled CLI (as in production, and quick to start again). */
  const start = async (i: number) => {
    const port = ports.nodes[i] as number;
    const node = await new TesseraProcess(
      ['serve', '--port', String(port)],
      { TESSERA_SECRET: TEST_SECRET, ...env },
      { entry: [join(ROOT, 'packages/server/bin/tessera.mjs')] },
    ).untilServing(port);
    nodes[i] = node;
    return node;
  };

  before(async () => {
    // The nodes run the build (incremental: a no-op when dist/ is up to date).
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(build.status, 0, `${build.stdout}${build.stderr}`);
    dir = mkdtempSync(join(tmpdir(), 'tessera-proxy-'));
    schema = await createPostgresSchema();
    ports = { tls: await freePort(), http: await freePort(), nodes: [await freePort(), await freePort()] };
    const tls = makeCertificates(dir);
    const conf = writeNginxConfig(dir, ports, tls);
    const check = spawnSync(NGINX_PATH, ['-t', '-p', dir, '-c', conf], { encoding: 'utf8' });
    assert.equal(check.status, 0, check.stderr);
    client = new ProxyClient(ports.tls, tls.ca);
    const nginx = spawnGroup(NGINX_PATH, ['-p', dir, '-c', conf], { env: { PATH: process.env.PATH ?? '' } });
    nginxLog = () => {
      try {
        return readFileSync(join(dir, 'error.log'), 'utf8');
      } catch {
        return '';
      }
    };
    stopNginx = () => {
      if (nginx.pid && nginx.exitCode === null) process.kill(-nginx.pid, 'SIGKILL');
    };
    let said = '';
    nginx.stderr?.on('data', (chunk) => {
      said += chunk;
    });
    for (let i = 0; ; i++) {
      const up = await client.send(DOMAIN, 'GET', '/healthz');
      if (up.status !== 0) break;
      assert.ok(i < 100 && nginx.exitCode === null, `nginx did not start: ${said}${nginxLog()}`);
      await sleep(100);
    }
    env = {
      DATABASE_URL: schema.url,
      TESSERA_URL: `https://${DOMAIN}:${ports.tls}`,
      HOST: '127.0.0.1',
      TESSERA_TRUST_PROXY: '1',
      TESSERA_LOG_LEVEL: 'warn',
      TESSERA_DB_POOL: '8',
    };
    admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
  });

  after(async () => {
    stopNginx();
    client?.agent.destroy();
    await Promise.all(nodes.map((n) => n.stop('SIGKILL')));
    await runtime?.close();
    await admin?.end();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('two nodes started at once on an empty database both come up, migrated once', async () => {
    await Promise.all([start(0), start(1)]);
    for (const port of ports.nodes) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      assert.equal(ready.status, 200);
    }
    const { rows } = await admin.query<{ name: string; n: number }>(
      'select name, count(*)::int as n from tessera_migrations group by name',
    );
    assert.ok(rows.length >= 21);
    assert.deepEqual(
      rows.filter((r) => r.n !== 1),
      [],
    );
    const consoleOrgs = await admin.query('select id from organizations where is_console = 1');
    assert.equal(consoleOrgs.rowCount, 1, 'one console org');
    // Through the proxy, on the console host and on an org host alike (the wildcard certificate).
    const home = await client.send(DOMAIN, 'GET', '/readyz');
    assert.equal(home.status, 200, `${home.text}\n${nginxLog()}`);
    const org = await client.send(`acme.${DOMAIN}`, 'GET', '/healthz');
    assert.equal(org.status, 200, org.text);
  });

  test('the DCR per-address limit counts the client address nginx saw, not the forged X-Forwarded-For', async () => {
    const register = (from: string, forged: string) =>
      client.send(DOMAIN, 'POST', '/oauth/register', {
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
        body: JSON.stringify({ redirect_uris: [CALLBACK] }),
        localAddress: from,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const a = await register('127.2.0.1', `198.51.100.${i + 1}`);
      assert.notEqual(a.status, 0, a.text);
      statuses.push(a.status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(201), 429], nginxLog());
    // Another client address is not limited: the limit is per real address, not the proxy's.
    assert.equal((await register('127.2.0.2', '198.51.100.1')).status, 201);
  });

  test('a node SIGKILLed and restarted five times under load: no 502 while both are up, no write lost', async () => {
    runtime = await openRuntime(
      loadConfig({ ...env, TESSERA_SECRET: TEST_SECRET, TESSERA_DATA_DIR: dir }),
      () => {},
    );
    const made = await orgWithMachineClient(runtime.deps, 'acme');
    const host = `acme.${DOMAIN}`;
    const web = await makeClient(runtime.deps, made.org);
    await makeUser(runtime.deps, made.org, 'ada@acme.test');

    /** Signs ada in through the proxy: a refresh token. */
    const session = async (): Promise<string> => {
      const browser = new FormBrowser(client.fetch);
      const { url, verifier } = authorizeUrl(made.issuer, web.clientId);
      const callback = await signInThroughPages(browser, url, { email: 'ada@acme.test', password: PASSWORD });
      const code = new URL(callback).searchParams.get('code') ?? '';
      const exchange = await client.form(host, '/oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: web.clientId,
      });
      assert.equal(exchange.status, 200, exchange.text);
      return JSON.parse(exchange.text).refresh_token as string;
    };
    const refresh = (token: string) =>
      client.form(host, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: web.clientId,
      });

    // Obtained before any kill, and refreshed once after each.
    let kept = await session();

    const answers: (Answer & { what: string })[] = [];
    const registered: string[] = [];
    let running = true;
    let address = 0;
    const loop = async (work: () => Promise<void>) => {
      while (running) await work();
    };
    const record = (what: string, a: Answer) => {
      answers.push({ ...a, what });
      return a;
    };
    const loops = [
      ...[0, 1, 2].map(() =>
        loop(async () => {
          record(
            'token',
            await client.form(host, '/oauth/token', {
              grant_type: 'client_credentials',
              client_id: made.clientId,
              client_secret: made.clientSecret,
            }),
          );
        }),
      ),
      // Writes: each registration from an address of its own (127.1.x.y), so the per-address limit
      // of registrations never refuses one.
      ...[0, 1].map(() =>
        loop(async () => {
          address += 1;
          const from = `127.1.${Math.floor(address / 250)}.${(address % 250) + 1}`;
          const a = record(
            'register',
            await client.send(DOMAIN, 'POST', '/oauth/register', {
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ redirect_uris: [CALLBACK], client_name: 'Load' }),
              localAddress: from,
            }),
          );
          if (a.status === 201) registered.push(JSON.parse(a.text).client_id as string);
        }),
      ),
      // Sessions refreshed over and over: each 200 rotates the token (a write).
      ...[0, 1].map(() => {
        let token: string | null = null;
        return loop(async () => {
          token ??= await session().catch(() => null);
          if (token === null) return;
          const a = record('refresh', await refresh(token));
          token = a.status === 200 ? (JSON.parse(a.text).refresh_token as string) : null;
        });
      }),
    ];

    const kills: { at: number; back: number; victim: number }[] = [];
    const survivors: number[] = [];
    for (let round = 0; round < 5; round++) {
      await sleep(1_500);
      const victim = round % 2;
      const survivor = nodes[1 - victim] as TesseraProcess;
      const at = Date.now();
      const dead = nodes[victim] as TesseraProcess;
      await dead.stop('SIGKILL');
      exited.push(dead);
      // Sent again while nginx answers 502 (it sent the request on a kept-alive connection to the dead
      // node, which never read it): the token was not used, and it refreshes on the live node.
      let kept2 = await refresh(kept);
      while (kept2.status === 502 && Date.now() - at < 10_000) {
        await sleep(100);
        kept2 = await refresh(kept);
      }
      assert.equal(kept2.status, 200, `the refresh token from before the kill: ${kept2.text}`);
      assert.ok(kept2.end - at < 10_000, 'it refreshes within seconds of the kill');
      kept = JSON.parse(kept2.text).refresh_token as string;
      await start(victim);
      kills.push({ at, back: Date.now(), victim });
      assert.ok(survivor.running, `the surviving node exited:\n${survivor.stdout}`);
      survivors.push(survivor.pid ?? 0);
    }
    await sleep(1_500);
    running = false;
    await Promise.all(loops);

    // While one node is down (from its kill until it serves again), the requests nginx had sent it,
    // or sent on a kept-alive connection to it before noticing it died, are answered 502: nginx does
    // not send a POST twice (it may have been done). At any other time, nothing but successes.
    const counts = answers.reduce<Record<string, number>>((c, a) => {
      c[`${a.what} ${a.status}`] = (c[`${a.what} ${a.status}`] ?? 0) + 1;
      return c;
    }, {});
    console.log(
      `# answers: ${JSON.stringify(counts)}; down (ms): ${kills.map((k) => k.back - k.at).join(', ')}`,
    );
    const whileDown = (a: Answer) => kills.some((k) => a.end >= k.at && a.start <= k.back);
    const failed = answers
      .filter((a) => a.status >= 300 || a.status === 0)
      .filter((a) => !(a.status === 502 && whileDown(a)));
    assert.deepEqual(
      failed.map((a) => `${a.what} ${a.status} at ${a.start}-${a.end}: ${a.text.slice(0, 200)}`),
      [],
      `kills: ${JSON.stringify(kills)}\nnginx error log:\n${nginxLog()}`,
    );
    // Requests recover within seconds: after each kill, a request sent after it succeeds within 5 s.
    const recovery = kills.map((k) => {
      const next = answers.filter((a) => a.start >= k.at && a.status < 300).map((a) => a.end - k.at);
      return next.length > 0 ? Math.min(...next) : Number.POSITIVE_INFINITY;
    });
    assert.ok(
      recovery.every((ms) => ms < 5_000),
      `first success after each kill (ms): ${recovery.join(', ')}`,
    );
    // Every registration the proxy answered 201 exists.
    assert.ok(registered.length > 10, `only ${registered.length} registrations`);
    const stored = await admin.query<{ id: string }>('select id from clients where id = any($1)', [
      registered,
    ]);
    assert.equal(stored.rowCount, registered.length);
    // No node logged a fatal line or an escaped error; the nodes that were not killed never exited.
    for (const node of [...nodes, ...exited]) {
      const lines = node.lines.filter((l) => /"level":(50|60)/.test(l));
      assert.deepEqual(lines, []);
    }
    for (const node of nodes) assert.ok(node.running);
    assert.doesNotMatch(nginxLog(), /no live upstreams/);
  });
});
