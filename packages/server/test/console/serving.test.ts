import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { CONSOLE_CLIENT_ID, ensureConsoleClient } from '../../src/domain/directory/console-client.js';
import { openRuntime } from '../../src/runtime.js';
import { findClient } from '../../src/storage/repos/clients.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { ownedOrg } from '../management/support/console.js';
import { TEST_SECRET } from '../support/runtime.js';
import { startServer, type TestServer } from '../support/server.js';
import { consoleBuild } from './support/console-build.js';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** How Tessera serves the console's build, and the console's own client. */
describe('console: serving the app', () => {
  let server: TestServer;
  let assets: string[];

  before(async () => {
    const dir = await consoleBuild();
    assets = readdirSync(join(dir, 'assets'));
    server = await startServer({ consoleDir: dir, webhooks: false });
    await ownedOrg(server, 'acme');
  });
  after(() => server?.close());

  test('every page under /console/ is the app, with a strict CSP and no caching of the page', async () => {
    for (const path of ['/console/', '/console/o/acme/users/usr_123', '/console/callback?code=x&state=y']) {
      const response = await fetch(`${server.base}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(response.headers.get('content-security-policy'), CSP);
      assert.equal(response.headers.get('cache-control'), 'no-cache');
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      const html = await response.text();
      assert.match(html, /<div id="app"><\/div>/);
      assert.match(
        html,
        /<script type="module" crossorigin src="\/console\/assets\/index-[\w-]+\.js"><\/script>/,
      );
    }
  });

  test('hashed assets are cached for a year; an unknown file is 404, not the app', async () => {
    const script = assets.find((name) => name.endsWith('.js'));
    const style = assets.find((name) => name.endsWith('.css'));
    assert.ok(script && style, assets.join(' '));
    const js = await fetch(`${server.base}/console/assets/${script}`);
    assert.equal(js.status, 200);
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const css = await fetch(`${server.base}/console/assets/${style}`);
    assert.equal(css.headers.get('content-type'), 'text/css; charset=utf-8');

    const missing = await fetch(`${server.base}/console/assets/index-gone.js`);
    assert.equal(missing.status, 404);
    assert.deepEqual(await missing.json(), {
      error: 'not_found',
      error_detail: 'no route for GET /console/assets/index-gone.js',
    });
  });

  test('/ and /console lead to /console/ on the console host; an org host has no console', async () => {
    const root = await fetch(`${server.base}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/console/');
    const bare = await fetch(`${server.base}/console`, { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(bare.headers.get('location'), '/console/');
    for (const path of ['/', '/console', '/console/']) {
      const onOrgHost = await fetch(`${server.issuer('acme')}${path.slice(1)}`, { redirect: 'manual' });
      assert.equal(onOrgHost.status, 404, path);
      assert.deepEqual(await onOrgHost.json(), {
        error: 'not_found',
        error_detail: `no route for GET ${path}`,
      });
    }
  });

  test('the console client: first party, public, code + refresh, its URIs on TESSERA_URL', async () => {
    const consoleOrg = await findConsoleOrg(server.db);
    assert.ok(consoleOrg);
    const client = await findClient(server.db, consoleOrg.id, CONSOLE_CLIENT_ID);
    assert.ok(client);
    assert.equal(client.kind, 'public');
    assert.equal(client.firstParty, true);
    assert.deepEqual(client.grantTypes, ['authorization_code', 'refresh_token']);
    assert.deepEqual(client.redirectUris, [`${server.base}/console/callback`]);
    assert.deepEqual(client.postLogoutRedirectUris, [`${server.base}/console/signed-out`]);

    // Another TESSERA_URL moves its URIs at the next start, audited once; a start with nothing to change is silent.
    const moved = { ...server.deps, config: { ...server.deps.config, baseUrl: 'https://id.tessera.test' } };
    const updatesBefore = await clientUpdates(server, consoleOrg.id);
    await ensureConsoleClient(moved, consoleOrg);
    await ensureConsoleClient(moved, consoleOrg);
    const after = await findClient(server.db, consoleOrg.id, CONSOLE_CLIENT_ID);
    assert.deepEqual(after?.redirectUris, ['https://id.tessera.test/console/callback']);
    assert.equal(await clientUpdates(server, consoleOrg.id), updatesBefore + 1);
    await ensureConsoleClient(server.deps, consoleOrg);
  });

  test('a CLI command run with another TESSERA_URL leaves the console client where serve put it', async () => {
    // What every `tessera` admin command opens: the same store, its own configuration.
    const cli = await openRuntime(
      loadConfig({
        TESSERA_URL: 'http://localhost:4999',
        TESSERA_DATA_DIR: server.dataDir,
        TESSERA_SECRET: TEST_SECRET,
      }),
      () => {},
    );
    await cli.close();
    const consoleOrg = await findConsoleOrg(server.db);
    assert.ok(consoleOrg);
    const client = await findClient(server.db, consoleOrg.id, CONSOLE_CLIENT_ID);
    assert.deepEqual(client?.redirectUris, [`${server.base}/console/callback`]);
  });
});

async function clientUpdates(server: TestServer, orgId: string): Promise<number> {
  const rows = await server.db
    .selectFrom('audit_events')
    .select('id')
    .where('org_id', '=', orgId)
    .where('key', '=', 'client.updated')
    .execute();
  return rows.length;
}

describe('console: without a build', () => {
  let server: TestServer;
  let empty: string;
  before(async () => {
    empty = mkdtempSync(join(tmpdir(), 'tessera-no-console-'));
    server = await startServer({ consoleDir: empty, webhooks: false });
  });
  after(async () => {
    await server?.close();
    rmSync(empty, { recursive: true, force: true });
  });

  test('/console/ says how to build it (503), instead of a blank page', async () => {
    const response = await fetch(`${server.base}/console/`);
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(
      await response.text(),
      /<h1>The console is not built<\/h1><p>Run <code>npm run build<\/code>/,
    );
  });
});
