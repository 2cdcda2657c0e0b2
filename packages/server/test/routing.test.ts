import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/http/app.js';
import { orgWithMachineClient } from './support/fixtures.js';
import { startServer, type TestServer } from './support/server.js';

describe('org routing by Host', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    await orgWithMachineClient(server.deps, 'acme');
  });
  after(() => server.close());

  const issuerOf = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('the base host is the console; <slug>.<domain> is that org', async () => {
    assert.equal(
      (await issuerOf(`${server.base}/.well-known/openid-configuration`)).body.issuer,
      `${server.base}/`,
    );
    assert.equal(
      (await issuerOf(`${server.issuer('acme')}.well-known/openid-configuration`)).body.issuer,
      server.issuer('acme'),
    );
  });

  test('while TESSERA_URL is loopback, ?host= overrides Host', async () => {
    const res = await issuerOf(
      `${server.base}/.well-known/openid-configuration?host=acme.localhost:${server.port}`,
    );
    assert.equal(res.body.issuer, server.issuer('acme'));
  });

  test('an unknown org host is 404 with the error body', async () => {
    const res = await issuerOf(`${server.issuer('ghost')}.well-known/jwks.json`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: 'not_found', error_detail: 'no organization at this host' });
  });

  test('the JWKS holds public parts only, kid = RFC 7638 thumbprint', async () => {
    const { calculateJwkThumbprint } = await import('jose');
    const res = await fetch(`${server.issuer('acme')}.well-known/jwks.json`);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    const { keys } = (await res.json()) as { keys: Record<string, string>[] };
    assert.equal(keys.length, 2);
    for (const key of keys) {
      assert.deepEqual(Object.keys(key).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
      assert.equal(key.kid, await calculateJwkThumbprint({ kty: 'RSA', n: key.n, e: key.e }, 'sha256'));
      assert.equal(Buffer.from(key.n ?? '', 'base64url').length * 8, 2048);
    }
  });

  test('/healthz answers with the database kind', async () => {
    const res = await fetch(`${server.base}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ok', database: 'sqlite' });
  });

  test('unknown routes are 404 with the error body', async () => {
    const res = await fetch(`${server.base}/nope?secret=1`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: 'not_found', error_detail: 'no route for GET /nope' });
  });
});

test('with a public TESSERA_URL the host query parameter is ignored', async () => {
  const server = await startServer();
  try {
    const config = loadConfig({
      TESSERA_URL: 'https://id.example.com',
      TESSERA_DATA_DIR: server.dataDir,
      TESSERA_SECRET: 'x'.repeat(32),
    });
    await orgWithMachineClient(server.deps, 'acme');
    const app = buildApp({ ...server.deps, config });
    const viaQuery = await app.inject({
      url: '/.well-known/openid-configuration?host=acme.id.example.com',
      headers: { host: 'id.example.com' },
    });
    assert.equal(viaQuery.json().issuer, 'https://id.example.com/');
    const viaHost = await app.inject({
      url: '/.well-known/openid-configuration',
      headers: { host: 'acme.id.example.com' },
    });
    assert.equal(viaHost.json().issuer, 'https://acme.id.example.com/');
    await app.close();
  } finally {
    await server.close();
  }
});
