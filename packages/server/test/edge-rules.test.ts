import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadConfig } from '../src/config/config.js';
import { buildApp } from '../src/http/app.js';
import { openTestRuntime, TEST_SECRET } from './support/runtime.js';

const HSTS = 'max-age=31536000; includeSubDomains';

/** Sends `head` (request line and headers) as written, and returns the raw response. */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}\r\n`));
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk;
    });
    socket.on('end', () => resolve(response));
    socket.on('error', reject);
  });
}

/** What every response carries (spec-independent hardening), and the one-Host rule. */
describe('headers on every response, and exactly one Host', () => {
  let rt: Awaited<ReturnType<typeof openTestRuntime>>;
  let plain: FastifyInstance;
  let secure: FastifyInstance;

  before(async () => {
    rt = await openTestRuntime('sqlite');
    plain = buildApp(rt.deps);
    const httpsConfig = loadConfig({
      TESSERA_URL: 'https://id.example.com',
      TESSERA_DATA_DIR: rt.dataDir,
      TESSERA_SECRET: TEST_SECRET,
    });
    secure = buildApp({ ...rt.deps, config: httpsConfig });
    await plain.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await plain.close();
    await secure.close();
    await rt.close();
  });

  /** A 200, a hosted page, a 404, a 400 from the edge, a 404 from before routing, an error page. */
  const requests = (host: string): [number, InjectOptions][] => [
    [200, { url: '/.well-known/openid-configuration', headers: { host } }],
    [200, { url: '/login', headers: { host } }],
    [404, { url: '/nothing-here', headers: { host } }],
    [400, { url: '/.well-known/jwks.json?x=%00', headers: { host } }],
    [404, { url: '/organizations/%zz/events', headers: { host } }],
    [400, { url: '/login?req=%00', headers: { host } }],
    [401, { url: '/users/me', headers: { host } }],
  ];

  test('X-Content-Type-Options: nosniff on every response; no HSTS while TESSERA_URL is http', async () => {
    for (const [status, request] of requests('localhost:4000')) {
      const res = await plain.inject(request);
      assert.equal(res.statusCode, status, request.url as string);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', request.url as string);
      assert.equal(res.headers['strict-transport-security'], undefined, request.url as string);
    }
  });

  test('Strict-Transport-Security on every response, org hosts included, while TESSERA_URL is https', async () => {
    for (const [status, request] of requests('id.example.com')) {
      const res = await secure.inject(request);
      assert.equal(res.statusCode, status, request.url as string);
      assert.equal(res.headers['strict-transport-security'], HSTS, request.url as string);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', request.url as string);
    }
    // An org host that does not exist answers 404, with the header too.
    const unknown = await secure.inject({
      url: '/.well-known/jwks.json',
      headers: { host: 'nope.id.example.com' },
    });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.headers['strict-transport-security'], HSTS);
  });

  test('two Host headers are 400 with the API error body; one is served', async () => {
    const { port } = plain.server.address() as { port: number };
    const path = 'GET /.well-known/openid-configuration HTTP/1.1';
    const one = await rawRequest(port, `${path}\r\nHost: localhost:4000\r\nConnection: close\r\n`);
    assert.match(one, /^HTTP\/1\.1 200 /);
    for (const hosts of [
      ['localhost:4000', 'acme.localhost:4000'],
      ['localhost:4000', 'localhost:4000'],
    ]) {
      const lines = hosts.map((h, i) => `${i === 0 ? 'Host' : 'host'}: ${h}\r\n`).join('');
      const two = await rawRequest(port, `${path}\r\n${lines}Connection: close\r\n`);
      const [head, body] = two.split('\r\n\r\n') as [string, string];
      assert.match(head, /^HTTP\/1\.1 400 /);
      assert.match(head, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i);
      assert.match(head, /\r\nx-content-type-options: nosniff\r\n/i);
      assert.deepEqual(JSON.parse(body), {
        error: 'invalid_request',
        error_detail: 'a request must have exactly one Host header',
      });
    }
  });
});
