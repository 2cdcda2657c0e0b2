import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { Browser } from 'playwright-core';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { DocumentHost } from '../sign-in/support/document-host.js';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { MemoryProvider } from './support/mcp-provider.js';

const OWNER = { email: 'owner@acme.test', password: 'owner long password' };
const CLIENT_NAME = 'Acme MCP desktop';

/** A loopback HTTP server answering `handle`; its base URL. */
async function local(handle: (path: string, port: number) => { status: number; body: string }) {
  const server: Server = createServer((req, res) => {
    const { port } = server.address() as AddressInfo;
    const answer = handle(req.url ?? '/', port);
    res.statusCode = answer.status;
    res.setHeader('content-type', answer.body.startsWith('{') ? 'application/json' : 'text/html');
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the MCP SDK auth() with a clientMetadataUrl, signed in through Chromium', () => {
  const skip = chromiumSkip();
  let tessera: TestServer;
  let host: DocumentHost;
  let resource: { server: Server; base: string };
  let callback: { server: Server; base: string };
  let browser: Browser;
  const requested: string[] = [];
  const fetchFn: typeof fetch = (input, init) => {
    requested.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  };

  before(async () => {
    if (skip) return;
    host = await DocumentHost.start();
    tessera = await startServer({
      env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      clientMetadata: { ca: host.ca },
    });
    await createOrg(tessera.deps, { slug: 'acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
    const issuer = `${tessera.base}/`;
    resource = await local((path, port) =>
      path === '/.well-known/oauth-protected-resource/mcp'
        ? {
            status: 200,
            body: JSON.stringify({
              resource: `http://127.0.0.1:${port}/mcp`,
              authorization_servers: [issuer],
            }),
          }
        : { status: 401, body: '' },
    );
    callback = await local(() => ({
      status: 200,
      body: '<!doctype html><title>Done</title><p>Signed in.</p>',
    }));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    resource?.server.close();
    callback?.server.close();
    await tessera?.close();
    await host?.close();
  });

  test('auth() uses the URL as client_id, Chromium signs in and consents, tokens have aud = the URL, no registration', {
    skip,
  }, async () => {
    const redirect = `${callback.base}/oauth/callback`;
    const clientId = host.document('/mcp/client-metadata.json', [redirect], { client_name: CLIENT_NAME });
    const provider = new MemoryProvider(redirect, CLIENT_NAME, clientId);
    const serverUrl = `${resource.base}/mcp`;

    // 1. Discovery sees client_id_metadata_document_supported; the client id is the URL.
    assert.equal(await auth(provider, { serverUrl, fetchFn }), 'REDIRECT');
    assert.equal(provider.client?.client_id, clientId);
    const authorize = provider.authorizationUrl ?? assert.fail('no authorization URL');
    assert.equal(authorize.origin + authorize.pathname, `${tessera.base}/oauth/authorize`);
    assert.equal(authorize.searchParams.get('client_id'), clientId);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');

    // 2. Chromium: the hosted login, then consent naming the document's client and its host.
    const page = await browser.newPage();
    await page.goto(authorize.href);
    await page.waitForURL((u) => u.pathname === '/login');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/consent');
    const consent = await page.textContent('main');
    assert.match(consent ?? '', new RegExp(CLIENT_NAME));
    assert.match(consent ?? '', new RegExp(`describes itself at 127\\.0\\.0\\.1:${new URL(clientId).port}`));
    assert.match(consent ?? '', /registered by a third party/);
    await page.click('button[value=allow]');
    await page.waitForURL((u) => u.href.startsWith(redirect));
    const back = new URL(page.url());
    await page.close();
    assert.equal(back.searchParams.get('iss'), `${tessera.base}/`);
    const code = back.searchParams.get('code') ?? assert.fail('no code in the redirect');

    // 3. The code exchange by auth(): a public client, no secret.
    assert.equal(await auth(provider, { serverUrl, authorizationCode: code, fetchFn }), 'AUTHORIZED');
    const tokens = provider.saved ?? assert.fail('no tokens saved');
    const jwks = createRemoteJWKSet(new URL(`${tessera.base}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer: `${tessera.base}/`,
      audience: clientId,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    assert.equal(payload.aud, clientId);
    assert.match(String(payload.sub), /^usr_/);

    // 4. A refresh through auth(), still the URL's tokens.
    assert.equal(await auth(provider, { serverUrl, fetchFn }), 'AUTHORIZED');
    const refreshed = provider.saved ?? assert.fail('no refreshed tokens');
    assert.notEqual(refreshed.access_token, tokens.access_token);
    const again = await jwtVerify(refreshed.access_token, jwks, { audience: clientId });
    assert.equal(again.payload.aud, clientId);

    assert.ok(requested.includes('/oauth/token'), requested.join(' '));
    assert.equal(requested.includes('/oauth/register'), false, requested.join(' '));
    const rows = await tessera.db.selectFrom('clients').select('id').where('id', '=', clientId).execute();
    assert.deepEqual(rows, []);
  });
});
