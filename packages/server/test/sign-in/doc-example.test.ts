import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { transform } from 'esbuild';
import * as oidc from 'openid-client';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import { makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

/**
 * The openid-client example at the top of the server's sign-in doc, run as written against a live
 * server: its TypeScript, from the doc, compiled and run with openid-client v6 as a Node app would
 * (`allowInsecureRequests` for the http issuer, its own fetch that sends `*.localhost` to localhost with
 * `?host=`). Only what the example leaves to its reader is filled in: `clientId` (a public client of
 * the org with the example's redirect URI), the browser's trip through the hosted pages where the
 * example says "Send the browser to `url`" (it yields `callbackUrl`), the port of this server instead
 * of :4000, and the `tnt_…` to switch to.
 */
const doc = readFileSync(new URL('../../docs/sign-in.md', import.meta.url), 'utf8');
const example = /## Example first[\s\S]*?```ts\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
const BROWSER_STEP = '// Send the browser to `url`';

let server: TestServer;
let clientId: string;
let tenantId: string;

before(async () => {
  server = await startServer();
  const org = await makeOrg(server, 'acme');
  const created = await makeUser(server.deps, org, 'ada@acme.test');
  tenantId = created.tenant.id;
  ({ clientId } = await makeClient(server.deps, org, { name: 'Doc example' }));
});
after(() => server.close());

test("sign-in.md's openid-client example runs as written: sign-in, refresh, switch tenant, revoke", async () => {
  assert.ok(
    example.startsWith("import * as oidc from 'openid-client';\n"),
    'the example imports openid-client',
  );
  const at = example.indexOf(BROWSER_STEP);
  assert.ok(at > 0, 'the example says where the browser goes');
  const port = new URL(server.base).port;
  const body = example
    .replace("import * as oidc from 'openid-client';\n", '')
    .replace(BROWSER_STEP, `const callbackUrl = new URL(await browse(url));\n${BROWSER_STEP}`)
    .replaceAll('localhost:4000', `localhost:${port}`)
    .replace("'tnt_…'", JSON.stringify(tenantId));
  const { code } = await transform(
    `async function run(oidc, clientId, browse) {\n${body}\nreturn { tokens, next, other };\n}`,
    { loader: 'ts', format: 'esm', target: 'node20' },
  );
  const run = new Function(`${code}\nreturn run;`)() as (
    lib: typeof oidc,
    id: string,
    browse: (url: URL) => Promise<string>,
  ) => Promise<Record<'tokens' | 'next' | 'other', oidc.TokenEndpointResponse>>;

  const browsed: string[] = [];
  const { tokens, next, other } = await run(oidc, clientId, (url) => {
    browsed.push(url.href);
    return signInThroughPages(new FormBrowser(), url.href, { email: 'ada@acme.test', password: PASSWORD });
  });
  assert.equal(browsed.length, 1);
  assert.equal(new URL(browsed[0] as string).origin, `http://acme.localhost:${port}`);
  assert.equal(tokens.token_type, 'bearer');
  assert.ok(tokens.refresh_token && next.refresh_token && other.refresh_token);
  assert.notEqual(next.refresh_token, tokens.refresh_token, 'refresh tokens rotate');
  // The switched token names the tenant asked for; the revocation ended the session.
  const claims = JSON.parse(Buffer.from(other.access_token.split('.')[1] as string, 'base64url').toString());
  assert.equal(claims.tnt, tenantId);
  const refused = await fetch(`http://localhost:${port}/oauth/token?host=acme.localhost:${port}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: other.refresh_token as string,
      client_id: clientId,
    }),
  });
  assert.equal(refused.status, 400);
  assert.equal(((await refused.json()) as { error: string }).error, 'invalid_grant');
});
