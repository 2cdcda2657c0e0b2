import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tessera } from '../support/cli.js';
import { freePort } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';

/**
 * The CLI prints and mails the service's URLs, not its own environment's: `PORT=43000 npm start`,
 * then `tessera connection create` with no TESSERA_URL (as an operator types it) prints a callback
 * on the port the service answers at, not on :4000. Before any serve has started it refuses to guess.
 */
describe('the CLI builds URLs from the URL the service serves at', () => {
  let dir: string;
  let port: number;
  let serve: TesseraProcess | null = null;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-served-url-'));
    port = await freePort();
  });
  after(async () => {
    await serve?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const orgCreate = (slug: string) => [
    'org',
    'create',
    '--slug',
    slug,
    '--owner-email',
    `owner@${slug}.test`,
    '--owner-password',
    'owner password',
  ];

  test('before any serve, without TESSERA_URL: a clear refusal, and nothing written', async () => {
    const refused = await tessera(orgCreate('beta'), { TESSERA_DATA_DIR: dir });
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(
      refused.stderr,
      /^error: the service's URL is unknown: `tessera serve` records the URL it serves at when it starts, and none has started on this database yet; start it once, or set TESSERA_URL/m,
    );
    // With TESSERA_URL given, the command uses it: beta did not exist (the refusal wrote nothing).
    const given = await tessera(orgCreate('beta'), {
      TESSERA_DATA_DIR: dir,
      TESSERA_URL: 'http://localhost:4999',
    });
    assert.equal(given.code, 0, given.stderr);
    assert.equal(given.json?.issuer, 'http://beta.localhost:4999/');
  });

  test('after `PORT=N tessera serve`: the CLI with no URL setting prints URLs on port N', async () => {
    // No TESSERA_URL: the service serves at http://localhost:<PORT>, its default.
    serve = await TesseraProcess.serve(port, { TESSERA_DATA_DIR: dir, PORT: String(port) });
    const org = await tessera(orgCreate('gamma'), { TESSERA_DATA_DIR: dir });
    assert.equal(org.code, 0, org.stderr);
    assert.equal(org.json?.issuer, `http://gamma.localhost:${port}/`);
    const connection = await tessera(
      [
        'connection',
        'create',
        '--org',
        'gamma',
        '--type',
        'oidc',
        '--name',
        'Okta',
        '--issuer',
        'https://gamma.okta.example',
        '--client-id',
        'tessera-gamma',
      ],
      { TESSERA_DATA_DIR: dir },
      'upstream secret\n',
    );
    assert.equal(connection.code, 0, connection.stderr);
    const id = connection.json?.id as string;
    assert.equal(connection.json?.callbackUrl, `http://gamma.localhost:${port}/sso/${id}/callback`);
    const update = await tessera(['connection', 'update', '--org', 'gamma', '--id', id, '--name', 'Okta 2'], {
      TESSERA_DATA_DIR: dir,
    });
    assert.equal(update.code, 0, update.stderr);
    assert.equal(update.json?.callbackUrl, `http://gamma.localhost:${port}/sso/${id}/callback`);
    // The service answers at that URL: the callback's issuer is the org's, served on port N.
    const discovery = await fetch(
      `http://127.0.0.1:${port}/.well-known/openid-configuration?host=gamma.localhost:${port}`,
    );
    assert.equal(discovery.status, 200);
    assert.equal(((await discovery.json()) as { issuer: string }).issuer, `http://gamma.localhost:${port}/`);
  });

  test("a CLI whose own TESSERA_URL differs is told so, and prints the service's URLs", async () => {
    const res = await tessera(orgCreate('delta'), {
      TESSERA_DATA_DIR: dir,
      TESSERA_URL: 'http://localhost:4000',
    });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.json?.issuer, `http://delta.localhost:${port}/`);
    const warnings = res.stderr
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    assert.deepEqual(warnings, [
      {
        ...warnings[0],
        level: 40,
        msg: `this command's TESSERA_URL http://localhost:4000 (issuer domain localhost:4000) is not what the service last started with, http://localhost:${port} (issuer domain localhost:${port}): URLs are printed with the service's`,
      },
    ]);
  });
});
