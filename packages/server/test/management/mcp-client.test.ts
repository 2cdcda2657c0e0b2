import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createOrg } from '../../src/domain/directory/orgs.js';
import { FormBrowser, locationOf, readForm } from '../sign-in/support/browser.js';
import { startServer, type TestServer } from '../support/server.js';
import { MemoryProvider } from './support/mcp-provider.js';

const OWNER = { email: 'owner@acme.test', password: 'owner long password' };
const REDIRECT = 'http://127.0.0.1:33418/oauth/callback';

/** An MCP server's RFC 9728 metadata, naming the Tessera console as its authorization server. */
async function protectedResource(authorizationServer: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/.well-known/oauth-protected-resource/mcp') {
      const { port } = server.address() as AddressInfo;
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          resource: `http://127.0.0.1:${port}/mcp`,
          authorization_servers: [authorizationServer],
        }),
      );
      return;
    }
    res.statusCode = 401;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}

describe('the MCP SDK client auth() against the console issuer, unmodified', () => {
  let tessera: TestServer;
  let resource: { url: string; server: Server };
  const provider = new MemoryProvider(REDIRECT, 'Acme MCP inspector');
  const consoleIssuer = () => `${tessera.base}/`;

  before(async () => {
    tessera = await startServer();
    await createOrg(tessera.deps, { slug: 'acme', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
    resource = await protectedResource(consoleIssuer());
  });
  after(async () => {
    resource?.server.close();
    await tessera?.close();
  });

  test('registration, authorization with PKCE S256 and resource, token exchange, refresh', async () => {
    // 1. Discovery and dynamic registration, ending in a redirect to the authorization endpoint.
    assert.equal(await auth(provider, { serverUrl: resource.url }), 'REDIRECT');
    const clientId = provider.client?.client_id ?? assert.fail('auth() registered no client');
    assert.match(clientId, /^cli_/);
    assert.equal('client_secret' in (provider.client ?? {}), false);
    const authorize = provider.authorizationUrl ?? assert.fail('no authorization URL');
    assert.equal(authorize.origin + authorize.pathname, `${tessera.base}/oauth/authorize`);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorize.searchParams.get('resource'), resource.url);
    assert.equal(authorize.searchParams.get('client_id'), clientId);

    // 2. The person signs in on the console's hosted login, then sees the consent screen,
    //    which registered clients always get, naming the client.
    const browser = new FormBrowser();
    let response = await browser.get(authorize.href);
    let url = locationOf(response, authorize.href);
    assert.equal(new URL(url).pathname, '/login');
    let page = await (await browser.get(url)).text();
    response = await browser.submit(url, page, OWNER);
    url = locationOf(response, url);
    assert.equal(new URL(url).pathname, '/consent');
    page = await (await browser.get(url)).text();
    assert.match(page, /Acme MCP inspector/);
    assert.ok(readForm(page).action);
    response = await browser.submit(url, page, { decision: 'allow' });
    const callback = new URL(locationOf(response, url));
    assert.equal(callback.origin + callback.pathname, REDIRECT);
    assert.equal(callback.searchParams.get('iss'), consoleIssuer());
    const code = callback.searchParams.get('code') ?? assert.fail('no code in the redirect');

    // 3. The code exchange, with the verifier auth() kept.
    assert.equal(await auth(provider, { serverUrl: resource.url, authorizationCode: code }), 'AUTHORIZED');
    const tokens = provider.saved ?? assert.fail('no tokens saved');
    assert.equal(tokens.token_type, 'Bearer');
    assert.ok(tokens.refresh_token);
    const jwks = createRemoteJWKSet(new URL(`${tessera.base}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer: consoleIssuer(),
      audience: clientId,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    assert.equal(payload.typ, 'console');
    assert.match(String(payload.sub), /^usr_/);

    // The console token manages the owner's org.
    const membership = await fetch(`${tessera.base}/organizations/acme`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.equal(membership.status, 200);
    assert.deepEqual(await membership.json(), { id: await orgId(), slug: 'acme', role: 'owner' });

    // 4. A later auth() refreshes with the rotated refresh token.
    assert.equal(await auth(provider, { serverUrl: resource.url }), 'AUTHORIZED');
    assert.notEqual(provider.saved?.refresh_token, tokens.refresh_token);
    assert.notEqual(provider.saved?.access_token, tokens.access_token);
  });

  async function orgId(): Promise<string> {
    const row = await tessera.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    return row.id;
  }
});
