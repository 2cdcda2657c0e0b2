import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Org } from '../../src/domain/types.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, signInThroughPages } from './support/browser.js';
import { authorizeUrl, CALLBACK, makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

/** GET /oauth/authorize, RFC 6749 §4.1.2.1: which failures redirect, and which never do. */
describe('GET /oauth/authorize errors', () => {
  let server: TestServer;
  let issuer: string;
  let publicId: string;
  let confidentialId: string;
  let machineOnlyId: string;
  let thirdPartyId: string;
  let org: Org;

  before(async () => {
    server = await startServer();
    issuer = server.issuer('acme');
    org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    ({ clientId: publicId } = await makeClient(server.deps, org));
    ({ clientId: confidentialId } = await makeClient(server.deps, org, { kind: 'confidential' }));
    ({ clientId: machineOnlyId } = await makeClient(server.deps, org, {
      kind: 'confidential',
      grantTypes: ['client_credentials'],
      redirectUris: [CALLBACK],
    }));
    ({ clientId: thirdPartyId } = await makeClient(server.deps, org, { firstParty: false }));
  });
  after(() => server.close());

  /** Expects the error to come back to the client's redirect URI with state and iss. */
  async function redirectedError(url: string, state: string | null) {
    const response = await fetch(url, { redirect: 'manual' });
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    const params = location.searchParams;
    assert.equal(params.get('iss'), issuer, 'RFC 9207 iss');
    assert.equal(params.get('state'), state);
    assert.equal(params.get('code'), null);
    assert.ok(params.get('error_description'));
    return params.get('error');
  }

  /** Expects an HTML error page and no redirect at all. */
  async function errorPage(url: string) {
    const response = await fetch(url, { redirect: 'manual' });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    return response.text();
  }

  test('an unknown or missing client_id shows a page and never redirects', async () => {
    assert.match(await errorPage(authorizeUrl(issuer, 'cli_unknown').url), /not known here/);
    assert.match(
      await errorPage(authorizeUrl(issuer, publicId, { client_id: null }).url),
      /client_id is missing/,
    );
  });

  test('an unregistered redirect_uri shows a page and never redirects', async () => {
    for (const redirect of [
      'https://evil.example/callback',
      'http://127.0.0.1:8765/callback/extra',
      'http://127.0.0.1:8765/callback?x=1',
      'http://127.0.0.2:8765/callback',
    ]) {
      await errorPage(authorizeUrl(issuer, publicId, { redirect_uri: redirect }).url);
    }
  });

  test('client_id or redirect_uri given twice shows a page', async () => {
    const { url } = authorizeUrl(issuer, publicId);
    await errorPage(`${url}&client_id=${publicId}`);
    await errorPage(`${url}&redirect_uri=${encodeURIComponent(CALLBACK)}`);
  });

  test('loopback redirect URIs match on any port (RFC 8252 §7.3); others match exactly', async () => {
    const other = 'http://127.0.0.1:51234/callback';
    const response = await fetch(authorizeUrl(issuer, publicId, { redirect_uri: other }).url, {
      redirect: 'manual',
    });
    assert.equal(response.status, 302);
    assert.match(response.headers.get('location') ?? '', /^\/login\?req=arq_/);

    const { clientId } = await makeClient(server.deps, org, {
      redirectUris: [
        'http://localhost/cb',
        'http://[::1]:9000/cb',
        'https://127.0.0.1/cb',
        'https://app.example:8443/cb',
      ],
    });
    for (const ok of [
      'http://localhost:3000/cb',
      'http://[::1]:4000/cb',
      'http://[::1]/cb',
      'https://127.0.0.1:8443/cb',
    ]) {
      const r = await fetch(authorizeUrl(issuer, clientId, { redirect_uri: ok }).url, { redirect: 'manual' });
      assert.equal(r.status, 302, ok);
    }
    await errorPage(authorizeUrl(issuer, clientId, { redirect_uri: 'https://app.example:9443/cb' }).url);
    await errorPage(authorizeUrl(issuer, clientId, { redirect_uri: 'http://localhost:3000/other' }).url);
    // The scheme is part of the match: only the port may differ.
    await errorPage(authorizeUrl(issuer, clientId, { redirect_uri: 'http://127.0.0.1:8443/cb' }).url);
  });

  test('invalid_request: missing response_type, PKCE missing or plain, a repeated parameter', async () => {
    let a = authorizeUrl(issuer, publicId, { response_type: null });
    assert.equal(await redirectedError(a.url, a.state), 'invalid_request');
    a = authorizeUrl(issuer, publicId, { code_challenge: null, code_challenge_method: null });
    assert.equal(
      await redirectedError(a.url, a.state),
      'invalid_request',
      'PKCE is required of public clients',
    );
    a = authorizeUrl(issuer, publicId, { code_challenge_method: 'plain' });
    assert.equal(await redirectedError(a.url, a.state), 'invalid_request', 'plain is refused');
    a = authorizeUrl(issuer, publicId, { code_challenge_method: null });
    assert.equal(await redirectedError(a.url, a.state), 'invalid_request', 'an absent method means plain');
    a = authorizeUrl(issuer, publicId, { code_challenge: 'short' });
    assert.equal(await redirectedError(a.url, a.state), 'invalid_request');
    a = authorizeUrl(issuer, publicId);
    assert.equal(await redirectedError(`${a.url}&scope=profile&scope=email`, a.state), 'invalid_request');
  });

  test('the situation’s code: Tessera-Error-Code on the page and on the redirect, and the page’s reference', async () => {
    const page = await fetch(authorizeUrl(issuer, 'cli_unknown').url, { redirect: 'manual' });
    assert.equal(page.status, 400);
    assert.equal(page.headers.get('tessera-error-code'), 'authorize.client.unknown');
    assert.match(await page.text(), /Reference: <code>authorize\.client\.unknown<\/code>/);
    const a = authorizeUrl(issuer, publicId, { response_type: 'token' });
    const redirected = await fetch(a.url, { redirect: 'manual' });
    assert.equal(redirected.status, 302);
    assert.equal(redirected.headers.get('tessera-error-code'), 'authorize.response_type.unsupported');
    // The application gets the protocol's parameters only: the code is not one of them.
    const params = new URL(redirected.headers.get('location') ?? '').searchParams;
    assert.deepEqual([...params.keys()].sort(), ['error', 'error_description', 'iss', 'state']);
    assert.equal(params.get('error'), 'unsupported_response_type');
  });

  test('unsupported_response_type', async () => {
    const a = authorizeUrl(issuer, publicId, { response_type: 'token' });
    assert.equal(await redirectedError(a.url, a.state), 'unsupported_response_type');
  });

  test('unauthorized_client: a client without the authorization_code grant', async () => {
    const a = authorizeUrl(issuer, machineOnlyId);
    assert.equal(await redirectedError(a.url, a.state), 'unauthorized_client');
  });

  test('invalid_scope', async () => {
    const a = authorizeUrl(issuer, publicId, { scope: 'profile admin' });
    assert.equal(await redirectedError(a.url, a.state), 'invalid_scope');
  });

  test('invalid_target: a resource that is not an absolute URI (RFC 8707)', async () => {
    const a = authorizeUrl(issuer, publicId, { resource: 'not a uri' });
    assert.equal(await redirectedError(a.url, a.state), 'invalid_target');
  });

  test('access_denied: the person presses Deny on the consent page', async () => {
    const a = authorizeUrl(issuer, thirdPartyId);
    const callback = await signInThroughPages(new FormBrowser(), a.url, {
      email: 'ada@acme.test',
      password: PASSWORD,
      consent: 'deny',
    });
    const params = new URL(callback).searchParams;
    assert.equal(params.get('error'), 'access_denied');
    assert.equal(params.get('state'), a.state);
    assert.equal(params.get('iss'), issuer);
    assert.equal(params.get('code'), null);
  });

  test('without state, the error carries none; unknown parameters are ignored', async () => {
    const a = authorizeUrl(issuer, publicId, { state: null, response_type: 'token' });
    assert.equal(await redirectedError(a.url, null), 'unsupported_response_type');
    const ok = authorizeUrl(issuer, publicId, { prompt: 'login', foo: 'bar' });
    assert.equal((await fetch(ok.url, { redirect: 'manual' })).status, 302);
  });

  test('a confidential client may omit PKCE; a single registered redirect_uri may be omitted', async () => {
    const noPkce = authorizeUrl(issuer, confidentialId, {
      code_challenge: null,
      code_challenge_method: null,
    });
    const r = await fetch(noPkce.url, { redirect: 'manual' });
    assert.match(r.headers.get('location') ?? '', /^\/login\?req=/);
    const implicitRedirect = authorizeUrl(issuer, publicId, { redirect_uri: null });
    const r2 = await fetch(implicitRedirect.url, { redirect: 'manual' });
    assert.match(r2.headers.get('location') ?? '', /^\/login\?req=/);
  });
});
