import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { updateBranding } from '../../src/domain/branding/index.js';
import { updateOrgSettings } from '../../src/domain/directory/org-settings.js';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { createConnection } from '../../src/domain/federation/connections.js';
import { orgRequiresMfa } from '../../src/domain/sign-in/index.js';
import { updateTextOverrides } from '../../src/domain/texts/index.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { writesCachedTable } from '../../src/storage/own-writes.js';
import { postgresSkip } from '../support/environment.js';
import { createPostgresSchema } from '../support/postgres.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * On PostgreSQL a `tessera serve` node keeps what every hosted page of a sign-in reads per org —
 * its texts overrides, its brands, its connections, whether it requires a second factor — until a
 * change to their tables is announced (migration 060): its own change at the commit, before the
 * writer is answered; another node's by the NOTIFY of that commit. Two servers on one schema, as
 * two nodes behind one issuer; SQLite's counter is raised by the same migration's triggers and
 * checked by the languages, branding and federation suites, which change these on one process.
 */
const skip = await postgresSkip();

describe('the hosted pages’ cached per-org reads on PostgreSQL, two nodes', { skip }, () => {
  let schema: { url: string; drop(): Promise<void> };
  let a: TestServer;
  let b: TestServer;
  let org: Org;

  before(async () => {
    schema = await createPostgresSchema();
    a = await startServer({ env: { DATABASE_URL: schema.url } });
    b = await startServer({ env: { DATABASE_URL: schema.url, TESSERA_URL: a.base } });
    ({ org } = await createOrg(a.deps, {
      slug: 'acme',
      ownerEmail: 'owner@acme.test',
      ownerPassword: 'pw 1 pw 1 pw',
    }));
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await schema?.drop();
  });

  /** acme's login page in English through `server`, addressed to a's issuer host (node:http sends that Host). */
  const loginPage = (server: TestServer) =>
    new Promise<string>((resolve, reject) => {
      const issuer = new URL(a.issuer('acme'));
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: `${issuer.pathname}login?lang=en`,
          headers: { host: issuer.host },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () =>
            res.statusCode === 200 ? resolve(body) : reject(new Error(`${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  /** Waits (up to 10 s) until `server`'s caches (all emptied together) have seen a change since `generation`. */
  async function changedSince(server: TestServer, generation: number) {
    const cache = server.deps.orgTexts;
    assert.ok(cache);
    for (let i = 0; i < 200 && cache.generation === generation; i++) await sleep(50);
    assert.notEqual(cache.generation, generation, 'no change reached the node');
  }

  /** Reads the page on both nodes twice (the second from what the first kept), then applies `change` on a. */
  async function changeOnA(change: () => Promise<unknown>): Promise<number> {
    await loginPage(a);
    await loginPage(a);
    await loginPage(b);
    await loginPage(b);
    const generation = b.deps.orgTexts?.generation ?? 0;
    await change();
    return generation;
  }

  test('a texts override: the writing node shows it on its next page, the other once the NOTIFY arrives', async () => {
    const title = `Welcome to Acme ${randomBytes(3).toString('hex')}`;
    const generation = await changeOnA(() =>
      updateTextOverrides(a.deps, org, 'en', { 'login.title': title }, SYSTEM),
    );
    assert.match(await loginPage(a), new RegExp(`<h1>${title}</h1>`));
    await changedSince(b, generation);
    assert.match(await loginPage(b), new RegExp(`<h1>${title}</h1>`));
  });

  test('a brand: its display name is on both nodes’ pages', async () => {
    const name = `Acme Blue ${randomBytes(3).toString('hex')}`;
    const generation = await changeOnA(() =>
      updateBranding(a.deps, org, null, { displayName: name }, SYSTEM),
    );
    assert.ok((await loginPage(a)).includes(name), 'node a shows the new name');
    await changedSince(b, generation);
    assert.ok((await loginPage(b)).includes(name), 'node b shows the new name');
  });

  test('a connection: its button is on both nodes’ login pages', async () => {
    const name = `Acme Directory ${randomBytes(3).toString('hex')}`;
    const generation = await changeOnA(() =>
      createConnection(
        a.deps,
        org,
        { type: 'oidc', name, issuer: 'https://idp.acme.test', clientId: 'rp', clientSecret: 'rp secret' },
        SYSTEM,
      ),
    );
    assert.ok((await loginPage(a)).includes(name), 'node a shows the button');
    await changedSince(b, generation);
    assert.ok((await loginPage(b)).includes(name), 'node b shows the button');
  });

  test('the second-factor policy: required on both nodes once set, and no longer once unset by plain SQL', async () => {
    assert.equal(await orgRequiresMfa(a.deps, org), false);
    assert.equal(await orgRequiresMfa(b.deps, org), false);
    const generation = b.deps.orgTexts?.generation ?? 0;
    await updateOrgSettings(a.deps, org, { requireMfa: true }, SYSTEM);
    assert.equal(await orgRequiresMfa(a.deps, org), true);
    await changedSince(b, generation);
    assert.equal(await orgRequiresMfa(b.deps, org), true);
    // Another writer (plain SQL, as an operator's): both nodes learn by the NOTIFY of its commit.
    const seenA = a.deps.orgTexts?.generation ?? 0;
    const seenB = b.deps.orgTexts?.generation ?? 0;
    const other = new pg.Client({ connectionString: schema.url });
    await other.connect();
    try {
      await other.query('update org_sign_in_policies set require_mfa = 0 where org_id = $1', [org.id]);
    } finally {
      await other.end();
    }
    await changedSince(a, seenA);
    await changedSince(b, seenB);
    assert.equal(await orgRequiresMfa(a.deps, org), false);
    assert.equal(await orgRequiresMfa(b.deps, org), false);
  });
});

describe('which statements empty a node’s caches at their commit: the pages’ per-org tables too', () => {
  test('writes to texts overrides, brands, connections and sign-in policies; not their neighbours', () => {
    const writes = [
      'insert into "org_texts" ("org_id", "locale", "key", "message") values ($1, $2, $3, $4)',
      'delete from "org_texts" where "org_id" = $1',
      'update "brandings" set "settings" = $1 where "org_id" = $2',
      'insert into "connections" ("id") values ($1)',
      'update "org_sign_in_policies" set "require_mfa" = $1',
    ];
    const others = [
      'select * from "org_texts" where "org_id" = $1',
      'insert into "brand_images" ("org_id") values ($1)',
      'update "connections_log" set x = 1',
      'insert into "federated_identities" ("connection_id") values ($1)',
    ];
    assert.deepEqual(
      writes.filter((q) => !writesCachedTable(q)),
      [],
    );
    assert.deepEqual(others.filter(writesCachedTable), []);
  });
});
