import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { type Browser, chromium, type Page } from 'playwright-core';
import ts from 'typescript';
import { CHROMIUM_FLAGS } from '../../server/test/support/chromium.js';
import { CHROMIUM_PATH, chromiumSkip } from '../../server/test/support/environment.js';
import { close, type FakeApi, json, startFakeApi } from './support/fake-api.js';

const SDK_SRC = new URL('../src/', import.meta.url).pathname;
const JOSE_DIST = join(new URL('../../../node_modules/jose/dist/webapi/', import.meta.url).pathname);
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
};

/**
 * The app origin: serves a blank page, the SDK's own sources transpiled file by file, and jose's browser
 * build. Nothing is bundled or polyfilled, so a Node-only API anywhere in the SDK breaks this test.
 */
async function startAppOrigin(): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://app').pathname;
    const script = (body: string) => res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
    if (path === '/') {
      const importMap = JSON.stringify({ imports: { jose: '/jose/index.js' } });
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(`<!doctype html><script type="importmap">${importMap}</script><p>app</p>`);
    }
    if (path.startsWith('/sdk/') && path.endsWith('.js')) {
      const source = readFileSync(join(SDK_SRC, `${path.slice(5, -3).replace(/[^\w-]/g, '')}.ts`), 'utf8');
      const output = ts.transpileModule(source, {
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          verbatimModuleSyntax: true,
        },
      });
      return script(output.outputText);
    }
    if (path.startsWith('/jose/') && !path.includes('..'))
      return script(readFileSync(join(JOSE_DIST, path.slice(6)), 'utf8'));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, close: () => close(server) };
}

interface PageResult {
  verifierLength: number;
  authorizeUrl: string;
  tenants: unknown;
  refused: unknown;
  sub: string;
  down: unknown;
}

const skip = chromiumSkip();

describe('in a browser (Chromium)', { skip }, () => {
  let browser: Browser;
  let page: Page;
  let app: { base: string; close(): Promise<void> };
  let api: FakeApi;
  let token: string;

  before(async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    api = await startFakeApi();
    api.handler = (r) => {
      if (r.method === 'OPTIONS') return { status: 204, headers: CORS };
      if (r.path === '/.well-known/jwks.json')
        return json(200, { keys: [{ ...jwk, kid, alg: 'RS256' }] }, CORS);
      if (r.path === '/tenants')
        return json(200, [{ id: 'tnt_1', name: 'Personal', role: 'owner', logo: null }], CORS);
      return json(401, { error: 'unauthorized', error_detail: "we don't know who you are" }, CORS);
    };
    token = await new SignJWT({ typ: 'user', sub: 'usr_1', tnt: 'tnt_1' })
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
      .setIssuer(`${api.base}/`)
      .setAudience('cli_web')
      .setExpirationTime('5m')
      .sign(privateKey);
    app = await startAppOrigin();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
    page = await browser.newPage();
    await page.goto(`${app.base}/`);
  });
  after(async () => {
    await browser?.close();
    await app?.close();
    await api?.close();
  });

  it('runs the sign-in helpers, API calls, error mapping and verify from a cross-origin page', async () => {
    // The page's code is a string: tsx would otherwise rewrite the function with helpers the page lacks.
    const result = await page.evaluate<PageResult>(`(async () => {
      const { createPkce, createSdk, createState, SdkError } = await import('/sdk/index.js');
      const apiBase = ${JSON.stringify(api.base)};
      const accessToken = ${JSON.stringify(token)};
      const pick = (e) => ({ isSdkError: e instanceof SdkError, status: e.status, code: e.code, detail: e.detail });
      const pkce = await createPkce();
      const sdk = createSdk({ api: apiBase, issuer: apiBase + '/', clientId: 'cli_web' });
      const url = sdk.authorizationUrl({
        redirectUri: location.origin + '/cb',
        codeChallenge: pkce.codeChallenge,
        state: createState(),
      });
      const tenants = await sdk.tenants.list(accessToken);
      const refused = await sdk.users.me(accessToken).catch((err) => err);
      const claims = await sdk.verify(accessToken);
      const offline = createSdk({ api: 'http://127.0.0.1:9', issuer: 'http://127.0.0.1/', clientId: 'cli_web' });
      const down = await offline.users.me(accessToken).catch((err) => err);
      return {
        verifierLength: pkce.codeVerifier.length,
        authorizeUrl: url,
        tenants,
        refused: pick(refused),
        sub: claims.sub,
        down: pick(down),
      };
    })()`);
    assert.equal(result.verifierLength, 43);
    assert.ok(
      result.authorizeUrl.startsWith(`${api.base}/oauth/authorize?response_type=code&client_id=cli_web&`),
    );
    assert.deepEqual(result.tenants, [{ id: 'tnt_1', name: 'Personal', role: 'owner', logo: null }]);
    assert.deepEqual(result.refused, {
      isSdkError: true,
      status: 401,
      code: 'unauthorized',
      detail: "we don't know who you are",
    });
    assert.equal(result.sub, 'usr_1');
    assert.deepEqual(result.down, {
      isSdkError: true,
      status: 0,
      code: 'network_error',
      detail: 'the connection failed',
    });
    const origins = new Set(api.requests.map((r) => r.headers.origin));
    assert.deepEqual([...origins], [app.base], 'every API request was a cross-origin fetch from the page');
    assert.ok(api.requests.every((r) => r.headers.cookie === undefined));
  });

  it('keeps a non-extractable DPoP key in IndexedDB, one per issuer and client, across reloads', async () => {
    // Reads the stored pair as any script of the page could, and tries to take the private key out.
    const probe = `(async () => {
      const { createSdk } = await import('/sdk/index.js');
      const apiBase = ${JSON.stringify(api.base)};
      const sdk = (clientId) => createSdk({ api: apiBase, issuer: apiBase + '/', clientId, dpop: true });
      const stored = (clientId) => new Promise((resolve, reject) => {
        const open = indexedDB.open('tessera-dpop');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('keys').objectStore('keys').get(apiBase + '/\\n' + clientId);
          get.onsuccess = () => { open.result.close(); resolve(get.result); };
          get.onerror = () => reject(get.error);
        };
      });
      const web = sdk('cli_web');
      const thumbprint = await web.dpop.thumbprint();
      const pair = await stored('cli_web');
      const exports = await Promise.all(['jwk', 'pkcs8'].map((format) =>
        crypto.subtle.exportKey(format, pair.privateKey).then(() => 'exported', (e) => e.name)));
      const proof = await web.dpop.proof({ method: 'GET', url: apiBase + '/x' });
      return {
        thumbprint,
        extractable: pair.privateKey.extractable,
        usages: pair.privateKey.usages,
        algorithm: pair.privateKey.algorithm,
        exports,
        proofHeader: JSON.parse(atob(proof.split('.')[0].replace(/-/g, '+').replace(/_/g, '/'))),
        other: await sdk('cli_other').dpop.thumbprint(),
      };
    })()`;
    const first = await page.evaluate<{
      thumbprint: string;
      extractable: boolean;
      usages: string[];
      algorithm: unknown;
      exports: string[];
      proofHeader: { alg: string; typ: string; jwk: Record<string, string> };
      other: string;
    }>(probe);
    assert.equal(first.extractable, false, 'the private key can never be exported');
    assert.deepEqual(first.usages, ['sign']);
    assert.deepEqual(first.algorithm, { name: 'ECDSA', namedCurve: 'P-256' });
    assert.deepEqual(first.exports, ['InvalidAccessError', 'InvalidAccessError']);
    assert.equal(first.proofHeader.alg, 'ES256');
    assert.equal(first.proofHeader.typ, 'dpop+jwt');
    assert.equal(await calculateJwkThumbprint(first.proofHeader.jwk), first.thumbprint);
    assert.equal(first.proofHeader.jwk.d, undefined);
    assert.notEqual(first.other, first.thumbprint, 'each client of an issuer has its own key');

    await page.reload();
    const again = await page.evaluate<{ thumbprint: string; other: string }>(probe);
    assert.equal(again.thumbprint, first.thumbprint, 'the key survives a reload');
    assert.equal(again.other, first.other);

    // A script that plants an extractable pair of its own under the SDK's entry gets it replaced,
    // not used; forget() drops the key.
    const planted = await page.evaluate<{
      planted: string;
      used: string;
      extractable: boolean;
      forgotten: string;
    }>(`(async () => {
      const { createSdk } = await import('/sdk/index.js');
      const apiBase = ${JSON.stringify(api.base)};
      const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
      const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
      await new Promise((resolve, reject) => {
        const open = indexedDB.open('tessera-dpop');
        open.onsuccess = () => {
          const tx = open.result.transaction('keys', 'readwrite');
          tx.objectStore('keys').put(pair, apiBase + '/\\ncli_planted');
          tx.oncomplete = () => { open.result.close(); resolve(); };
          tx.onerror = () => reject(tx.error);
        };
      });
      const sdk = createSdk({ api: apiBase, issuer: apiBase + '/', clientId: 'cli_planted', dpop: true });
      const used = await sdk.dpop.thumbprint();
      const stored = await new Promise((resolve) => {
        const open = indexedDB.open('tessera-dpop');
        open.onsuccess = () => {
          const get = open.result.transaction('keys').objectStore('keys').get(apiBase + '/\\ncli_planted');
          get.onsuccess = () => { open.result.close(); resolve(get.result); };
        };
      });
      await sdk.dpop.forget();
      const forgotten = await sdk.dpop.thumbprint();
      return { planted: JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y }), used, extractable: stored.privateKey.extractable, forgotten };
    })()`);
    const plantedJkt = await calculateJwkThumbprint(JSON.parse(planted.planted));
    assert.notEqual(planted.used, plantedJkt, 'an extractable planted key is never used');
    assert.equal(planted.extractable, false);
    assert.notEqual(planted.forgotten, planted.used, 'forget() makes a new key');
  });
});
