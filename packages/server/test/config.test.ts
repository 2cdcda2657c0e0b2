import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config/config.js';

test('defaults: localhost:4000, issuer domain from TESSERA_URL, loopback override on', () => {
  const c = loadConfig({});
  assert.equal(c.port, 4000);
  assert.equal(c.baseUrl, 'http://localhost:4000');
  assert.equal(c.issuerDomain, 'localhost:4000');
  assert.equal(c.loopback, true);
  assert.equal(c.trustProxy, 0);
  assert.equal(c.databaseUrl, null);
  assert.ok(Object.isFrozen(c));
});

test('a public URL turns the host override off', () => {
  const c = loadConfig({ TESSERA_URL: 'https://id.example.com', TESSERA_ISSUER_DOMAIN: 'id.example.com' });
  assert.equal(c.loopback, false);
  assert.equal(c.scheme, 'https');
});

test('each bad variable stops start-up with one line naming it', () => {
  const cases: [Record<string, string>, string][] = [
    [{ PORT: '-1' }, 'PORT must be a whole number from 0 to 65535'],
    [{ TESSERA_URL: 'ftp://x' }, 'TESSERA_URL must be an http(s) origin with no path, query or fragment'],
    [
      { TESSERA_URL: 'http://localhost:4000/app' },
      'TESSERA_URL must be an http(s) origin with no path, query or fragment',
    ],
    [
      { TESSERA_ISSUER_DOMAIN: 'bad domain' },
      'TESSERA_ISSUER_DOMAIN must be a host name with an optional port',
    ],
    [
      { DATABASE_URL: 'mysql://x' },
      'DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)',
    ],
    [{ TESSERA_SECRET: 'short' }, 'TESSERA_SECRET must be at least 32 characters'],
    [{ TESSERA_TRUST_PROXY: 'yes' }, 'TESSERA_TRUST_PROXY must be a whole number from 0 to 32'],
    [{ TESSERA_WEBHOOKS_ALLOW_PRIVATE: 'true' }, 'TESSERA_WEBHOOKS_ALLOW_PRIVATE must be 1 or 0'],
    [{ TESSERA_WEBHOOK_TIMEOUT: '2m' }, 'TESSERA_WEBHOOK_TIMEOUT "2m" must be above 0 and at most 60 s'],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && e.message === message,
    );
  }
});
