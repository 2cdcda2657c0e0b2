import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSdk } from '@tessera/sdk';
import { decodeJwt } from 'jose';
import type { Browser } from 'playwright-core';
import type { Org } from '../../src/domain/types.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { MemoryProvider } from '../management/support/mcp-provider.js';
import { DocumentHost } from '../sign-in/support/document-host.js';
import { makeClient, makeUser, PASSWORD } from '../sign-in/support/fixtures.js';
import { launchChromium } from '../support/chromium.js';
import { chromiumSkip } from '../support/environment.js';
import { startServer, type TestServer } from '../support/server.js';
import { type FilesServer, startFilesServer } from './support/mcp-files-server.js';

// The MCP journey of issue #28 (DESIGN §15), with nothing of Tessera's on the client side: the MCP
// SDK's client, unmodified, against an MCP server in a Koa app behind @tessera/koa, with the org's
// issuer found through the server's 401. SQLite only: every step is HTTP and sign-in, which behave
// alike on both databases; the storage of resources, roles and grants is proven on both elsewhere
// (test/resources/management.test.ts, test/management/organizations.test.ts).

const USER = { email: 'ada@acme.test', password: PASSWORD };

interface Sent {
  method: string;
  url: URL;
  body: string;
}

describe('the MCP journey: MCP SDK client → 401 → protected-resource metadata → org issuer → tool calls', () => {
  const skip = chromiumSkip();
  let tessera: TestServer;
  let acme: Org;
  let host: DocumentHost;
  let files: FilesServer;
  let callback: { server: Server; redirect: string };
  let browser: Browser;
  let issuer: string;
  let owner: string;
  let userId: string;
  let writer: string;
  const sent: Sent[] = [];

  /** Every request the MCP client makes, recorded (the transport and its auth() share it). */
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push({ method: request.method, url: new URL(request.url), body: await request.clone().text() });
    return fetch(request);
  };
  const api = (method: string, path: string, body?: unknown) =>
    call(tessera, method, `/organizations/acme${path}`, owner, body);

  before(async () => {
    if (skip) return;
    host = await DocumentHost.start();
    tessera = await startServer({
      env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      clientMetadata: { ca: host.ca },
    });
    acme = await ownedOrg(tessera, 'acme');
    issuer = tessera.issuer('acme');
    userId = (await makeUser(tessera.deps, acme, USER.email)).user.id;
    owner = await (await consoleOf(tessera)).token('owner@acme.test');
    files = await startFilesServer(issuer);

    // The owner: registration open on the org's issuer, the MCP server as a resource, a role each.
    const settings = await api('PATCH', '/settings', {
      dynamic_registration: true,
      metadata_documents: true,
    });
    assert.equal(settings.status, 200, settings.text);
    for (const [identifier, name, scopes] of [
      [
        files.resource,
        'Files',
        [
          { name: 'files:read', description: 'Read your files' },
          { name: 'files:write', description: 'Change your files' },
        ],
      ],
      [files.other, 'Other', [{ name: 'other:read', description: 'Read the other thing' }]],
    ] as const) {
      const created = await api('POST', '/resources', { identifier, name, scopes });
      assert.equal(created.status, 201, created.text);
    }
    const reader = await api('POST', '/roles', {
      name: 'reader',
      permissions: [{ resource: files.resource, scope: 'files:read' }],
    });
    const writing = await api('POST', '/roles', {
      name: 'writer',
      permissions: [{ resource: files.resource, scope: 'files:write' }],
    });
    assert.equal(writing.status, 201, writing.text);
    writer = writing.body.id;
    const roles = await api('PUT', `/users/${userId}/roles`, { roles: [reader.body.id] });
    assert.equal(roles.status, 200, roles.text);

    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><title>Done</title><p>Signed in.</p>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    callback = {
      server,
      redirect: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/callback`,
    };
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    callback?.server.close();
    await files?.close();
    await tessera?.close();
    await host?.close();
  });

  /** Chromium on the authorization URL: sign in when asked, allow on the consent page; the code. */
  async function consentInChromium(authorize: URL, expect: RegExp[]): Promise<string> {
    const page = await browser.newPage();
    try {
      await page.goto(authorize.href);
      await page.waitForURL(
        (u) => u.pathname === '/login' || u.pathname === '/consent' || u.href.startsWith(callback.redirect),
      );
      if (page.url().startsWith(callback.redirect)) assert.fail(`sent back at once: ${page.url()}`);
      if (new URL(page.url()).pathname === '/login') {
        await page.fill('#email', USER.email);
        await page.fill('#password', USER.password);
        await page.click('button[type=submit]');
        await page.waitForURL((u) => u.pathname === '/consent');
      }
      const consent = (await page.textContent('main')) ?? '';
      for (const words of expect) assert.match(consent, words);
      await page.click('button[value=allow]');
      await page.waitForURL((u) => u.href.startsWith(callback.redirect));
      const back = new URL(page.url());
      assert.equal(back.searchParams.get('iss'), issuer);
      return back.searchParams.get('code') ?? assert.fail('no code in the redirect');
    } finally {
      await page.close();
    }
  }

  /**
   * The MCP client application: connect(); on the SDK's UnauthorizedError (it sent the browser to
   * sign in), the person signs in and consents, the transport finishes the authorization, and the
   * client connects again.
   */
  async function connect(provider: MemoryProvider, consentWords: RegExp[]) {
    const transport = () =>
      new StreamableHTTPClientTransport(new URL(files.resource), {
        authProvider: provider,
        fetch: recording,
      });
    const client = new Client({ name: 'journey', version: '1.0.0' });
    const first = transport();
    await assert.rejects(client.connect(first), UnauthorizedError);
    const authorize = provider.authorizationUrl ?? assert.fail('auth() sent nobody to sign in');
    await first.finishAuth(await consentInChromium(authorize, consentWords));
    const client2 = new Client({ name: 'journey', version: '1.0.0' });
    await client2.connect(transport());
    return { client: client2, authorize };
  }

  /** What the application does when a step-up by refresh came back refused: drop its tokens. */
  const forget = (provider: MemoryProvider) => {
    provider.saved = undefined;
    provider.authorizationUrl = undefined;
  };

  const toolText = (result: unknown) =>
    ((result as { content: { type: string; text: string }[] }).content[0] ?? assert.fail('no content')).text;

  test('a metadata-document client: 401, RFC 9728 metadata, the org issuer, consent, a files:read tool', {
    skip,
  }, async () => {
    sent.length = 0;
    const clientId = host.document('/mcp/client.json', [callback.redirect], {
      client_name: 'Doc MCP client',
    });
    const provider = new MemoryProvider(callback.redirect, 'Doc MCP client', clientId);
    const { client, authorize } = await connect(provider, [/Doc MCP client/, /Files/, /Read your files/]);

    // What the client found on its own: the 401's metadata address, the metadata, the org's issuer.
    const first = sent[0] ?? assert.fail('nothing sent');
    assert.equal(first.url.href, files.resource);
    const paths = sent.map((s) => `${s.url.host}${s.url.pathname}`);
    assert.ok(
      paths.includes(`${new URL(files.resource).host}/.well-known/oauth-protected-resource/mcp`),
      paths.join(' '),
    );
    assert.ok(
      paths.includes(`${new URL(issuer).host}/.well-known/oauth-authorization-server`),
      paths.join(' '),
    );
    assert.equal(
      paths.some((p) => p.endsWith('/oauth/register')),
      false,
      'a metadata document needs no registration',
    );
    assert.equal(authorize.origin + authorize.pathname, `${issuer}oauth/authorize`);
    assert.equal(authorize.searchParams.get('client_id'), clientId);
    assert.equal(authorize.searchParams.get('resource'), files.resource);
    const exchange = sent.find((s) => s.url.pathname === '/oauth/token') ?? assert.fail('no token request');
    const form = new URLSearchParams(exchange.body);
    assert.deepEqual([form.get('grant_type'), form.get('resource')], ['authorization_code', files.resource]);

    const token = decodeJwt(provider.saved?.access_token ?? '');
    assert.deepEqual(
      [token.iss, token.aud, token.sub, token.scope],
      [issuer, [clientId, files.resource], userId, 'files:read'],
    );

    assert.equal(toolText(await client.callTool({ name: 'read_file' })), 'hello from files');
    assert.deepEqual(files.calls.at(-1), { tool: 'read_file', sub: userId });
    await client.close();
  });

  test('a DCR client: registers with the org issuer, reads; writing is 403 insufficient_scope until the role allows it and the client steps up', {
    skip,
  }, async () => {
    sent.length = 0;
    const provider = new MemoryProvider(callback.redirect, 'DCR MCP client');
    const { client } = await connect(provider, [
      /DCR MCP client/,
      /registered by a third party/,
      /Read your files/,
    ]);
    const registration =
      sent.find((s) => s.url.pathname === '/oauth/register') ?? assert.fail('no registration');
    assert.equal(registration.url.origin, issuer.slice(0, -1));
    const clientId = provider.client?.client_id ?? assert.fail('no client');
    const [row] = await tessera.db
      .selectFrom('clients')
      .select('org_id')
      .where('id', '=', clientId)
      .execute();
    assert.equal(row?.org_id, (await api('GET', '/settings')).body.id);
    assert.equal(toolText(await client.callTool({ name: 'read_file' })), 'hello from files');

    // The files:write tool, asked with the files:read token: 403 and the challenge, nothing runs.
    const readToken = provider.saved?.access_token ?? '';
    assert.equal(decodeJwt(readToken).scope, 'files:read');
    const denied = await fetch(files.resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${readToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'write_file', arguments: {} },
      }),
    });
    assert.equal(denied.status, 403);
    assert.equal(
      denied.headers.get('www-authenticate'),
      `Bearer realm="files", error="insufficient_scope", scope="files:write", resource_metadata="${new URL(files.resource).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    assert.deepEqual(await denied.json(), {
      error: 'insufficient_scope',
      error_detail: 'this token lacks the files:write scope',
    });
    // The same call inside a JSON-RPC batch behind a permitted one: refused the same way, nothing runs.
    const batched = await fetch(files.resource, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${readToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
        { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'write_file', arguments: {} } },
      ]),
    });
    assert.equal(batched.status, 403);
    assert.deepEqual(await batched.json(), {
      error: 'insufficient_scope',
      error_detail: 'this token lacks the files:write scope',
    });
    assert.equal(
      files.calls.some((c) => c.tool === 'write_file'),
      false,
    );

    // The owner gives the user's role files:write through the management API.
    const reader = (await api('GET', `/users/${userId}/roles`)).body.data[0].id;
    const roles = await api('PUT', `/users/${userId}/roles`, { roles: [reader, writer] });
    assert.equal(roles.status, 200, roles.text);

    // The client's step-up. The challenge names only what write_file needs (files:write): keeping
    // files:read is the client's part (MCP 2026-07-28, SEP-2350). The SDK (1.32) does not add the
    // challenge to what it holds: it takes the challenge's scope and first tries its refresh token,
    // which Tessera never widens (the grant held files:read only), so the same 403 comes back and
    // the SDK gives up on it (modelcontextprotocol/typescript-sdk#2255); the application then
    // forgets its tokens, and the SDK's next attempt goes through the 401 (no scope in it, so the
    // SDK drops the challenge's) to a new authorization for the metadata's scopes_supported.
    sent.length = 0;
    await assert.rejects(client.callTool({ name: 'write_file' }), /403 after trying upscoping/);
    const refresh = sent.find((s) => new URLSearchParams(s.body).get('grant_type') === 'refresh_token');
    assert.ok(refresh, 'the SDK tried its refresh token');
    assert.equal(decodeJwt(provider.saved?.access_token ?? '').scope, 'files:read', 'refresh did not widen');
    forget(provider);
    await assert.rejects(client.callTool({ name: 'write_file' }), UnauthorizedError);
    const stepUp = (provider as MemoryProvider).authorizationUrl ?? assert.fail('no new authorization');
    assert.equal(stepUp.searchParams.get('scope'), 'files:read files:write');
    assert.equal(stepUp.searchParams.get('resource'), files.resource);
    const transport = client.transport as StreamableHTTPClientTransport;
    await transport.finishAuth(await consentInChromium(stepUp, [/Change your files/]));
    assert.equal(
      decodeJwt((provider as MemoryProvider).saved?.access_token ?? '').scope,
      'files:read files:write',
    );
    assert.equal(toolText(await client.callTool({ name: 'write_file' })), 'written');
    assert.deepEqual(files.calls.at(-1), { tool: 'write_file', sub: userId });
    await client.close();
  });

  test('a token bound to another resource is refused with invalid_token', { skip }, async () => {
    const machine = await makeClient(tessera.deps, acme, {
      name: 'Other service',
      kind: 'confidential',
      redirectUris: [],
      grantTypes: ['client_credentials'],
    });
    const permitted = await api('PUT', `/clients/${machine.clientId}/permissions`, {
      permissions: [{ resource: files.other, scope: 'other:read' }],
    });
    assert.equal(permitted.status, 200, permitted.text);
    const sdk = createSdk({ api: issuer.slice(0, -1), issuer, clientId: machine.clientId });
    const minted = await sdk.token.clientCredentials({
      clientId: machine.clientId,
      clientSecret: machine.secret ?? '',
      resource: files.other,
      scope: 'other:read',
    });
    assert.deepEqual(decodeJwt(minted.accessToken).aud, [machine.clientId, files.other]);
    const refused = await fetch(files.resource, {
      method: 'POST',
      headers: { authorization: `Bearer ${minted.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get('www-authenticate'),
      `Bearer realm="files", error="invalid_token", resource_metadata="${new URL(files.resource).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});
