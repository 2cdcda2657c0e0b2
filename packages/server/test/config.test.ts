import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config/config.js';

test('defaults: localhost:4000, issuer domain from TESSERA_URL, loopback override on', () => {
  const c = loadConfig({});
  assert.equal(c.port, 4000);
  assert.equal(c.baseUrl, 'http://localhost:4000');
  assert.equal(c.issuerDomain, 'localhost:4000');
  assert.equal(c.issuerStyle, 'host');
  assert.equal(loadConfig({ TESSERA_ISSUER_STYLE: 'path' }).issuerStyle, 'path');
  assert.equal(c.loopback, true);
  assert.equal(c.trustProxy, 0);
  assert.equal(c.databaseUrl, null);
  assert.ok(Object.isFrozen(c));
});

test('webhook delivery defaults (DESIGN §6): retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; 15 s timeout', () => {
  const c = loadConfig({});
  const [s, m, h] = [1000, 60_000, 3_600_000];
  assert.deepEqual(c.webhookRetrySchedule, [5 * s, 5 * m, 30 * m, 2 * h, 5 * h, 10 * h, 10 * h]);
  assert.equal(c.webhookTimeoutMs, 15 * s);
  assert.equal(c.outboundAllowPrivate, false);
  const short = loadConfig({ TESSERA_WEBHOOK_RETRY_SCHEDULE: '200ms, 1s', TESSERA_WEBHOOK_TIMEOUT: '1s' });
  assert.deepEqual(short.webhookRetrySchedule, [200, 1000]);
  assert.equal(short.webhookTimeoutMs, 1000);
});

test('refresh-token reuse grace: 10 s by default, a duration such as 2s, 0 turns it off', () => {
  assert.equal(loadConfig({}).refreshReuseGraceMs, 10_000);
  assert.equal(loadConfig({ TESSERA_REFRESH_REUSE_GRACE: '2s' }).refreshReuseGraceMs, 2000);
  assert.equal(loadConfig({ TESSERA_REFRESH_REUSE_GRACE: '500ms' }).refreshReuseGraceMs, 500);
  assert.equal(loadConfig({ TESSERA_REFRESH_REUSE_GRACE: '0' }).refreshReuseGraceMs, 0);
});

test('TESSERA_OUTBOUND_ALLOW_PRIVATE: off by default; its old name TESSERA_WEBHOOKS_ALLOW_PRIVATE still works, reported as deprecated', () => {
  const off = loadConfig({});
  assert.equal(off.outboundAllowPrivate, false);
  assert.equal(off.deprecatedAllowPrivate, null);
  const on = loadConfig({ TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' });
  assert.equal(on.outboundAllowPrivate, true);
  assert.equal(on.deprecatedAllowPrivate, null);
  const alias = loadConfig({ TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1' });
  assert.equal(alias.outboundAllowPrivate, true);
  assert.equal(alias.deprecatedAllowPrivate, 'TESSERA_WEBHOOKS_ALLOW_PRIVATE');
  const aliasOff = loadConfig({ TESSERA_WEBHOOKS_ALLOW_PRIVATE: '0' });
  assert.equal(aliasOff.outboundAllowPrivate, false);
  assert.equal(aliasOff.deprecatedAllowPrivate, 'TESSERA_WEBHOOKS_ALLOW_PRIVATE');
  const both = loadConfig({ TESSERA_OUTBOUND_ALLOW_PRIVATE: '1', TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1' });
  assert.equal(both.outboundAllowPrivate, true);
  assert.equal(both.deprecatedAllowPrivate, 'TESSERA_WEBHOOKS_ALLOW_PRIVATE');
});

test('TESSERA_DB_POOL: 10 PostgreSQL connections by default, 1 to 200', () => {
  assert.equal(loadConfig({}).dbPool, 10);
  assert.equal(loadConfig({ TESSERA_DB_POOL: '25' }).dbPool, 25);
  assert.equal(loadConfig({ TESSERA_DB_POOL: '' }).dbPool, 10);
});

test('TESSERA_DB_PREPARED_STATEMENTS: on with PostgreSQL, off behind a pooler (TESSERA_DB_LISTEN_URL elsewhere), never on SQLite', () => {
  const url = 'postgres://tessera@127.0.0.1:5432/tessera';
  const pooler = 'postgres://tessera@127.0.0.1:6432/tessera';
  assert.equal(loadConfig({}).dbPreparedStatements, false);
  assert.equal(loadConfig({ DATABASE_URL: url }).dbPreparedStatements, true);
  assert.equal(loadConfig({ DATABASE_URL: url, TESSERA_DB_LISTEN_URL: url }).dbPreparedStatements, true);
  assert.equal(loadConfig({ DATABASE_URL: pooler, TESSERA_DB_LISTEN_URL: url }).dbPreparedStatements, false);
  assert.equal(
    loadConfig({ DATABASE_URL: pooler, TESSERA_DB_LISTEN_URL: url, TESSERA_DB_PREPARED_STATEMENTS: 'on' })
      .dbPreparedStatements,
    true,
  );
  assert.equal(
    loadConfig({ DATABASE_URL: url, TESSERA_DB_PREPARED_STATEMENTS: 'off' }).dbPreparedStatements,
    false,
  );
  assert.equal(
    loadConfig({ DATABASE_URL: url, TESSERA_DB_PREPARED_STATEMENTS: '' }).dbPreparedStatements,
    true,
  );
});

test('a public URL turns the host override off', () => {
  const c = loadConfig({ TESSERA_URL: 'https://id.example.com', TESSERA_ISSUER_DOMAIN: 'id.example.com' });
  assert.equal(c.loopback, false);
  assert.equal(c.scheme, 'https');
});

test('HOST: loopback by default while TESSERA_URL is loopback, every interface otherwise; an IP or localhost', () => {
  assert.equal(loadConfig({}).host, '127.0.0.1');
  assert.equal(loadConfig({ TESSERA_URL: 'http://127.0.0.1:4000' }).host, '127.0.0.1');
  assert.equal(loadConfig({ TESSERA_URL: 'https://id.example.com' }).host, '0.0.0.0');
  assert.equal(loadConfig({ TESSERA_URL: 'https://id.example.com', HOST: '127.0.0.1' }).host, '127.0.0.1');
  assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
  assert.equal(loadConfig({ HOST: '::' }).host, '::');
  assert.equal(loadConfig({ HOST: '[::1]' }).host, '::1');
  assert.equal(loadConfig({ HOST: 'LocalHost' }).host, 'localhost');
  assert.equal(loadConfig({ HOST: '' }).host, '127.0.0.1');
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
      { TESSERA_ISSUER_STYLE: 'paths' },
      'TESSERA_ISSUER_STYLE must be host (one host per org) or path (/o/<slug>/ on TESSERA_URL)',
    ],
    [
      { TESSERA_ISSUER_STYLE: 'path', TESSERA_ISSUER_DOMAIN: 'orgs.example.com' },
      'TESSERA_ISSUER_DOMAIN names the org hosts, which TESSERA_ISSUER_STYLE=path does not use: unset one of them',
    ],
    [
      { DATABASE_URL: 'mysql://x' },
      'DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)',
    ],
    [{ TESSERA_SECRET: 'short' }, 'TESSERA_SECRET must be at least 32 characters'],
    ...['bogus', 'example.com', '0.0.0.0:4000', '256.1.1.1', ' 127.0.0.1'].map(
      (HOST): [Record<string, string>, string] => [
        { HOST },
        'HOST must be an IP address (such as 0.0.0.0, 127.0.0.1 or ::) or localhost',
      ],
    ),
    [{ TESSERA_TRUST_PROXY: 'yes' }, 'TESSERA_TRUST_PROXY must be a whole number from 0 to 32'],
    ...['yes', 'true', '1', 'ON'].map((TESSERA_DB_PREPARED_STATEMENTS): [Record<string, string>, string] => [
      { DATABASE_URL: 'postgres://tessera@127.0.0.1:5432/tessera', TESSERA_DB_PREPARED_STATEMENTS },
      'TESSERA_DB_PREPARED_STATEMENTS must be on or off',
    ]),
    [
      { TESSERA_DB_PREPARED_STATEMENTS: 'on' },
      'TESSERA_DB_PREPARED_STATEMENTS needs DATABASE_URL (it is a PostgreSQL setting)',
    ],
    ...['0', '201', 'ten', '-1', '2.5'].map((TESSERA_DB_POOL): [Record<string, string>, string] => [
      { TESSERA_DB_POOL },
      'TESSERA_DB_POOL must be a whole number from 1 to 200',
    ]),
    [{ TESSERA_WEBHOOKS_ALLOW_PRIVATE: 'true' }, 'TESSERA_WEBHOOKS_ALLOW_PRIVATE must be 1 or 0'],
    [{ TESSERA_OUTBOUND_ALLOW_PRIVATE: 'yes' }, 'TESSERA_OUTBOUND_ALLOW_PRIVATE must be 1 or 0'],
    [
      { TESSERA_OUTBOUND_ALLOW_PRIVATE: '0', TESSERA_WEBHOOKS_ALLOW_PRIVATE: '1' },
      'TESSERA_OUTBOUND_ALLOW_PRIVATE and TESSERA_WEBHOOKS_ALLOW_PRIVATE (its deprecated name) disagree: set only TESSERA_OUTBOUND_ALLOW_PRIVATE',
    ],
    [
      { TESSERA_REFRESH_REUSE_GRACE: '10' },
      'TESSERA_REFRESH_REUSE_GRACE "10" is not a delay such as 500ms, 5s, 5m or 2h',
    ],
    [
      { TESSERA_REFRESH_REUSE_GRACE: '2m' },
      'TESSERA_REFRESH_REUSE_GRACE "2m" must be above 0 and at most 60 s',
    ],
    [{ TESSERA_WEBHOOK_TIMEOUT: '2m' }, 'TESSERA_WEBHOOK_TIMEOUT "2m" must be above 0 and at most 60 s'],
    [
      { TESSERA_WEBHOOK_RETRY_SCHEDULE: '5s,soon' },
      'TESSERA_WEBHOOK_RETRY_SCHEDULE "soon" is not a delay such as 500ms, 5s, 5m or 2h',
    ],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && e.message === message,
    );
  }
});
