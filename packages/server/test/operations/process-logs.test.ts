import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { createPostgresSchema } from '../support/postgres.js';
import { freePort } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';

/** Every migration of this build, by name, in order: what a start on an empty database applies. */
const MIGRATIONS = readdirSync(new URL('../../src/storage/migrations/', import.meta.url))
  .filter((f) => /^\d{3}-.*\.ts$/.test(f))
  .map((f) => f.slice(0, -'.ts'.length))
  .sort();

/**
 * DESIGN §11: every line `tessera serve` writes is JSON (start-up, warnings, shutdown included),
 * never with a secret. A fresh loopback data dir without TESSERA_SECRET makes the most of them: the
 * generated-secret warning and the demo seed, whose password and client secret go to a file instead.
 */
for (const database of httpSuite()) {
  const skip = await databaseSkip(database);

  describe(`tessera serve writes only JSON lines, never a secret (${database})`, { skip }, () => {
    let root: string;
    let schema: { url: string; drop(): Promise<void> } | null = null;
    let serve: TesseraProcess | null = null;
    before(async () => {
      root = mkdtempSync(join(tmpdir(), 'tessera-logs-'));
      if (database === 'postgres') schema = await createPostgresSchema();
    });
    after(async () => {
      await serve?.stop('SIGKILL');
      await schema?.drop();
      rmSync(root, { recursive: true, force: true });
    });

    test('start-up, the demo seed, requests and shutdown', async () => {
      const dataDir = join(root, 'data');
      const port = await freePort();
      const base = `http://localhost:${port}`;
      serve = new TesseraProcess(['serve'], {
        PORT: String(port),
        TESSERA_URL: base,
        TESSERA_DATA_DIR: dataDir,
        TESSERA_LOG_LEVEL: 'info',
        ...(schema ? { DATABASE_URL: schema.url } : {}),
      });
      const seeded = await serve.waitForLog((l) => String(l.msg).startsWith('seeded a demo organization'));

      // The credentials are in a file only its owner reads, named by the log line.
      const file = join(dataDir, 'demo-credentials.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const demo = JSON.parse(readFileSync(file, 'utf8'));
      assert.deepEqual(Object.keys(demo), ['issuer', 'console', 'owner', 'client', 'curl']);
      assert.equal(demo.issuer, `http://acme.localhost:${port}/`);
      assert.equal(demo.console, `${base}/console/`);
      assert.equal(demo.owner.email, 'owner@acme.test');
      assert.match(demo.client.secret, /^tcs_/);
      assert.equal(
        demo.curl,
        `curl -s ${demo.issuer}oauth/token -d grant_type=client_credentials -d client_id=${demo.client.id} -d client_secret=${demo.client.secret}`,
      );
      assert.equal(seeded.level, 30);
      assert.equal(seeded.issuer, demo.issuer);
      assert.equal(seeded.console, demo.console);
      assert.equal(seeded.ownerEmail, 'owner@acme.test');
      assert.equal(seeded.clientId, demo.client.id);
      assert.equal(seeded.credentials, file);

      // The demo client works, and its secret travels through a logged request.
      const token = await fetch(`http://127.0.0.1:${port}/oauth/token?host=acme.localhost:${port}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: demo.client.id,
          client_secret: demo.client.secret,
        }),
      });
      assert.equal(token.status, 200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };

      assert.equal(await serve.stop('SIGTERM'), 0, 'SIGTERM ends it cleanly');
      const logs = serve.logs();
      assert.equal(serve.stderr, '', 'nothing but JSON lines, all on stdout');
      for (const line of logs) {
        assert.equal(typeof line.level, 'number');
        assert.equal(typeof line.time, 'number');
        assert.equal(typeof line.msg, 'string');
      }
      const generated = readFileSync(join(dataDir, 'secret'), 'utf8').trim();
      const warning = logs.find((l) => String(l.msg).startsWith('TESSERA_SECRET is not set'));
      assert.equal(warning?.level, 40);
      assert.equal(
        warning?.msg,
        `TESSERA_SECRET is not set: generated one into ${join(dataDir, 'secret')} (set TESSERA_SECRET in production)`,
      );
      // The start names each migration it applied to the empty database, one line each, in order,
      // before it listens.
      const migrated = logs.filter((l) => l.msg === 'migrated');
      assert.deepEqual(
        migrated.map((l) => [l.level, l.migration]),
        MIGRATIONS.map((name) => [30, name]),
      );
      const listening = logs.find((l) => l.msg === 'listening');
      assert.ok(
        logs.indexOf(migrated.at(-1) as Record<string, unknown>) <
          logs.indexOf(listening as Record<string, unknown>),
      );
      assert.equal(listening?.level, 30);
      assert.equal(listening?.url, base);
      assert.equal(listening?.address, `http://127.0.0.1:${port}`);
      // The banner names the console and who to sign in to it as; the password stays in the file.
      assert.equal(listening?.console, `${base}/console/`);
      assert.equal(listening?.orgIssuers, `http://{slug}.${new URL(base).host}/ (TESSERA_ISSUER_STYLE=host)`);
      assert.equal(listening?.demoOwner, 'owner@acme.test');
      assert.equal(listening?.demoCredentials, file);
      // One listening line: the banner above, not Fastify's own `Server listening at …` as well.
      assert.deepEqual(
        logs.filter((l) => /listening/i.test(String(l.msg))).map((l) => l.msg),
        ['listening'],
      );
      // One line per request, once answered: method, path (no query string), status, duration.
      const requests = logs.filter((l) => l.req !== undefined || l.res !== undefined);
      const tokenLines = requests.filter((l) => (l.req as { path?: string }).path === '/oauth/token');
      assert.equal(tokenLines.length, 1, JSON.stringify(requests));
      const [tokenLine] = tokenLines as [Record<string, unknown>];
      assert.deepEqual(Object.keys(tokenLine).sort(), [
        'hostname',
        'level',
        'msg',
        'pid',
        'req',
        'reqId',
        'res',
        'responseTime',
        'time',
      ]);
      assert.deepEqual(tokenLine.req, { method: 'POST', path: '/oauth/token' });
      assert.deepEqual(tokenLine.res, { statusCode: 200 });
      assert.equal(tokenLine.msg, 'request completed');
      assert.equal(typeof tokenLine.responseTime, 'number');
      for (const line of requests) assert.equal(line.msg, 'request completed');
      // The address policy holds: no warning about it, under either name.
      assert.equal(serve.lines.join('\n').includes('ALLOW_PRIVATE'), false);
      // The last lines: the signal, then the end (a request finishing meanwhile may log between them).
      const shutdown = logs.findIndex((l) => l.msg === 'shutting down');
      assert.equal(logs[shutdown]?.level, 30);
      assert.equal(logs[shutdown]?.signal, 'SIGTERM');
      assert.deepEqual([logs.at(-1)?.level, logs.at(-1)?.msg], [30, 'stopped']);
      assert.ok(shutdown > logs.indexOf(listening as Record<string, unknown>));
      const text = serve.lines.join('\n');
      for (const secret of [generated, demo.owner.password, demo.client.secret, accessToken]) {
        assert.equal(text.includes(secret), false, `a log line holds ${secret.slice(0, 6)}…`);
      }
    });
  });
}

describe('start-up failures are one fatal JSON line', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'tessera-crash-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('bad configuration names the variable; the data dir is left alone', async () => {
    const dataDir = join(root, 'untouched');
    for (const [env, msg] of [
      [{ HOST: 'bogus' }, 'HOST must be an IP address (such as 0.0.0.0, 127.0.0.1 or ::) or localhost'],
      [
        { TESSERA_URL: 'http://localhost:4000/app' },
        'TESSERA_URL must be an http(s) origin with no path, query or fragment',
      ],
    ] as [Record<string, string>, string][]) {
      for (const [command, fd] of [
        ['serve', 'stdout'],
        ['worker', 'stdout'],
        ['migrate', 'stderr'],
      ] as const) {
        const p = new TesseraProcess([command], {
          TESSERA_DATA_DIR: dataDir,
          TESSERA_LOG_LEVEL: 'silent',
          ...env,
        });
        assert.equal(await p.exited(), 1);
        const line = fd === 'stdout' ? p.lines.join('\n') : p.stderr.trim();
        assert.equal(fd === 'stdout' ? p.stderr : p.lines.join(''), '', `${command}: one stream only`);
        const fatal = JSON.parse(line);
        assert.equal(fatal.level, 60, `${command}: level fatal, even at TESSERA_LOG_LEVEL=silent`);
        assert.equal(fatal.msg, msg);
        assert.equal(existsSync(dataDir), false);
      }
    }
  });

  test('a database that does not answer: the error, without the password of DATABASE_URL', async () => {
    const closed = await freePort();
    const password = 'pg-password-never-logged';
    const p = new TesseraProcess(['serve'], {
      TESSERA_DATA_DIR: join(root, 'pg'),
      TESSERA_SECRET: 'a-secret-of-at-least-32-characters-0123',
      DATABASE_URL: `postgres://tessera:${password}@127.0.0.1:${closed}/tessera`,
      TESSERA_LOG_LEVEL: 'info',
    });
    assert.equal(await p.exited(), 1);
    assert.equal(p.stderr, '');
    const fatal = p.logs().at(-1);
    assert.equal(fatal?.level, 60);
    assert.match(String(fatal?.msg), /ECONNREFUSED/);
    const text = p.lines.join('\n');
    assert.equal(text.includes(password), false);
    assert.equal(text.includes('a-secret-of-at-least-32-characters'), false);
  });
});

const ALLOW_PRIVATE_WARNING =
  'TESSERA_OUTBOUND_ALLOW_PRIVATE=1: webhooks, client metadata documents, client key sets and ' +
  "connections' upstream calls may reach loopback and private addresses (the SSRF protection is " +
  'off; for development only)';
const DEPRECATED_NAME_WARNING =
  'TESSERA_WEBHOOKS_ALLOW_PRIVATE is deprecated: set TESSERA_OUTBOUND_ALLOW_PRIVATE instead ' +
  '(the same setting, for every outbound fetch)';

describe('HOST', () => {
  let root: string;
  let serve: TesseraProcess | null = null;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'tessera-host-'));
  });
  after(async () => {
    await serve?.stop('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  test('sets the address tessera serve listens on', async () => {
    const port = await freePort();
    // Any 127.x address is loopback on Linux: listening on 127.0.0.2 leaves 127.0.0.1 refused.
    // TESSERA_WEBHOOKS_ALLOW_PRIVATE=1, the deprecated name of TESSERA_OUTBOUND_ALLOW_PRIVATE, still
    // lifts the address policy: a warning at start-up says so, and another that the name is old.
    const env = {
      PORT: String(port),
      HOST: '127.0.0.2',
      TESSERA_URL: `http://localhost:${port}`,
      TESSERA_DATA_DIR: join(root, 'data'),
      TESSERA_SECRET: 'a-secret-of-at-least-32-characters-0123',
      TESSERA_LOG_LEVEL: 'info',
      TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1',
    };
    serve = new TesseraProcess(['serve'], env);
    const listening = await serve.waitForLog((l) => l.msg === 'listening');
    const warnings = serve.logs().filter((l) => l.level === 40 && String(l.msg).includes('ALLOW_PRIVATE'));
    assert.deepEqual(
      warnings.map((l) => l.msg),
      [DEPRECATED_NAME_WARNING, ALLOW_PRIVATE_WARNING],
    );
    // The worker, which sends too, says the same.
    const worker = await TesseraProcess.worker({ ...env, TESSERA_LOG_LEVEL: 'info' });
    const workerWarnings = worker
      .logs()
      .filter((l) => l.level === 40 && String(l.msg).includes('ALLOW_PRIVATE'));
    assert.equal(await worker.stop('SIGTERM'), 0);
    assert.deepEqual(
      workerWarnings.map((l) => l.msg),
      [DEPRECATED_NAME_WARNING, ALLOW_PRIVATE_WARNING],
    );
    // serve migrated the new data dir and said so once; the worker after it found nothing to apply.
    assert.deepEqual(
      serve
        .logs()
        .filter((l) => l.msg === 'migrated')
        .map((l) => l.migration),
      MIGRATIONS,
    );
    assert.deepEqual(
      worker.logs().filter((l) => l.msg === 'migrated'),
      [],
    );
    assert.equal(listening.address, `http://127.0.0.2:${port}`);
    assert.equal((await fetch(`http://127.0.0.2:${port}/healthz`)).status, 200);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
    // Ctrl-C stops it as cleanly as SIGTERM.
    assert.equal(await serve.stop('SIGINT'), 0);
    const stops = serve.logs().filter((l) => l.msg === 'shutting down' || l.msg === 'stopped');
    assert.deepEqual(
      stops.map((l) => [l.msg, l.signal]),
      [
        ['shutting down', 'SIGINT'],
        ['stopped', undefined],
      ],
    );
  });

  test('a SIGTERM while it starts (migrating a new data dir) waits for the start, then stops cleanly', async () => {
    const port = await freePort();
    const starting = new TesseraProcess(['serve'], {
      PORT: String(port),
      TESSERA_URL: `http://localhost:${port}`,
      TESSERA_DATA_DIR: join(root, 'data-stopped-early'),
      TESSERA_SECRET: 'a-secret-of-at-least-32-characters-0123',
      TESSERA_LOG_LEVEL: 'info',
    });
    // Still starting: the first migration is applied, the rest and the listener are to come.
    await starting.waitForLog((l) => l.msg === 'migrated');
    assert.equal(await starting.stop('SIGTERM'), 0);
    const logs = starting.logs();
    assert.deepEqual(
      logs.filter((l) => l.msg === 'shutting down' || l.msg === 'stopped').map((l) => [l.msg, l.signal]),
      [
        ['shutting down', 'SIGTERM'],
        ['stopped', undefined],
      ],
    );
    assert.equal(logs.at(-1)?.msg, 'stopped');
  });
});
