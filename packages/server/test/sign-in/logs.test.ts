import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser } from './support/browser.js';
import { api, makeClient, makeOrg, makeUser, PASSWORD, signIn, tokenRequest } from './support/fixtures.js';

/** Logs show method, path and status: never a password, code, token, key or cookie. */
describe('sign-in leaves no secret in the logs', () => {
  const logs: string[] = [];
  let server: TestServer;

  before(async () => {
    server = await startServer({ logs });
  });
  after(() => server.close());

  test('a whole sign-in, refresh, profile key and revocation', async () => {
    const issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    const { clientId } = await makeClient(server.deps, org);
    const browser = new FormBrowser();
    const signedIn = await signIn(issuer, clientId, 'ada@acme.test', browser);
    const device = browser.cookies(issuer).get('tessera_device') as string;
    assert.ok(device, 'the sign-in set a device cookie');
    // The device cookie presented again, with a wrong password (its own counter).
    const login = new URL('login', issuer).href;
    browser.cookies(issuer).delete('tessera_session');
    const wrong = await browser.submit(login, await (await browser.get(login)).text(), {
      email: 'ada@acme.test',
      password: 'not the password',
    });
    assert.equal(wrong.status, 400);
    const refreshed = await tokenRequest(issuer, {
      grant_type: 'refresh_token',
      refresh_token: signedIn.refreshToken,
      client_id: clientId,
    });
    const key = (await api(issuer, 'POST', 'profile/session', signedIn.accessToken)).body.key as string;
    await fetch(new URL(`profile?key=${key}`, issuer), { redirect: 'manual' });
    await fetch(new URL('oauth/revoke', issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: refreshed.body.refresh_token as string,
        client_id: clientId,
      }).toString(),
    });

    const text = logs.join('\n');
    assert.match(text, /"path":"\/oauth\/authorize"/, 'requests are logged');
    const code = new URL(signedIn.callback).searchParams.get('code') as string;
    for (const secret of [
      PASSWORD,
      code,
      signedIn.accessToken,
      signedIn.refreshToken,
      refreshed.body.access_token as string,
      refreshed.body.refresh_token as string,
      key,
      'tessera_session=',
      'tessera_device=',
      device,
      'csrf',
    ]) {
      assert.equal(text.includes(secret), false, `a log line holds ${secret.slice(0, 12)}…`);
    }
  });
});
