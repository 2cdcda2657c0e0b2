import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config/config.js';
import { recordServedUrl, servedUrl } from '../../src/domain/served-url.js';
import { openStore, type Store } from '../../src/storage/db.js';
import { migrate } from '../../src/storage/migrate.js';
import { putServiceSetting } from '../../src/storage/repos/service-settings.js';

/** The `served_url` record the CLI reads (migration 041): what serve writes, and a row it did not. */
let dir: string;
let store: Store;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tessera-served-'));
  store = openStore({ databaseUrl: null, dataDir: dir });
  await migrate(store.db);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('serve records its URL settings; the last start wins; a row no serve wrote reads as none', async () => {
  assert.equal(await servedUrl(store.db), null);
  await recordServedUrl(store.db, loadConfig({ PORT: '43000' }), 1);
  assert.deepEqual(await servedUrl(store.db), {
    TESSERA_URL: 'http://localhost:43000',
    TESSERA_ISSUER_DOMAIN: 'localhost:43000',
    TESSERA_ISSUER_STYLE: 'host',
  });
  const config = loadConfig({ TESSERA_URL: 'https://id.example.com', TESSERA_ISSUER_DOMAIN: 'example.org' });
  await recordServedUrl(store.db, config, 2);
  assert.deepEqual(await servedUrl(store.db), {
    TESSERA_URL: 'https://id.example.com',
    TESSERA_ISSUER_DOMAIN: 'example.org',
    TESSERA_ISSUER_STYLE: 'host',
  });
  const rows = await store.db.selectFrom('service_settings').selectAll().execute();
  assert.deepEqual(rows, [
    {
      name: 'served_url',
      value:
        '{"TESSERA_URL":"https://id.example.com","TESSERA_ISSUER_DOMAIN":"example.org","TESSERA_ISSUER_STYLE":"host"}',
      updated_at: 2,
    },
  ]);
  // A record written before path issuers (no style) was a host-style start.
  await putServiceSetting(
    store.db,
    'served_url',
    '{"TESSERA_URL":"https://id.example.com","TESSERA_ISSUER_DOMAIN":"example.org"}',
    3,
  );
  assert.equal((await servedUrl(store.db))?.TESSERA_ISSUER_STYLE, 'host');
  // With path issuers there are no org hosts: the record says so, and the CLI's config loads from it.
  await recordServedUrl(
    store.db,
    loadConfig({ TESSERA_URL: 'https://id.example.com', TESSERA_ISSUER_STYLE: 'path' }),
    4,
  );
  const path = await servedUrl(store.db);
  assert.deepEqual(path, {
    TESSERA_URL: 'https://id.example.com',
    TESSERA_ISSUER_DOMAIN: '',
    TESSERA_ISSUER_STYLE: 'path',
  });
  assert.equal(loadConfig({ ...path }).issuerStyle, 'path');
  for (const garbage of [
    'not json',
    'null',
    '{"TESSERA_URL":42,"TESSERA_ISSUER_DOMAIN":"x"}',
    '{"TESSERA_URL":"https://id.example.com","TESSERA_ISSUER_DOMAIN":"","TESSERA_ISSUER_STYLE":"sideways"}',
  ]) {
    await putServiceSetting(store.db, 'served_url', garbage, 3);
    assert.equal(await servedUrl(store.db), null, garbage);
  }
});
