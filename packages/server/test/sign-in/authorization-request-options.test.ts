import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import * as oauth from 'oauth4webapi';
import { clock } from '../../src/domain/clock.js';
import type { Org } from '../../src/domain/types.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, readForm, signInThroughPages } from './support/browser.js';
import { authorizeUrl, CALLBACK, makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

const ADA = { email: 'ada@acme.test', password: PASSWORD };

/**
 * The authorization request of OIDC Core §3.1.2.1 (DESIGN §14): `prompt`, `max_age` and `auth_time`,
 * `login_hint`, `id_token_hint`, `response_mode`, request objects refused, and consent skipped for
 * an org's own clients. ID tokens are checked by oauth4webapi, as a strict relying party would.
 */
describe('authorization request: prompt, max_age, hints, response modes, consent', () => {
  let server: TestServer;
  let issuer: string;
  let org: Org;
  let ownId: string;
  let registeredId: string;
  let adaId: string;
  let as: oauth.AuthorizationServer;

  before(async () => {
    server = await startServer();
    issuer = server.issuer('acme');
    org = await makeOrg(server, 'acme');
    adaId = (await makeUser(server.deps, org, ADA.email)).user.id;
    await makeUser(server.deps, org, 'grace@acme.test');
    ({ clientId: ownId } = await makeClient(server.deps, org, { name: 'Acme web' }));
    ({ clientId: registeredId } = await makeClient(server.deps, org, {
      name: 'Elsewhere',
      firstParty: false,
    }));
    const response = await oauth.discoveryRequest(new URL(issuer), { [oauth.allowInsecureRequests]: true });
    as = await oauth.processDiscoveryResponse(new URL(issuer), response);
  });
  after(async () => {
    clock.now = () => Date.now();
    await server.close();
  });

  /** GET /oauth/authorize without following: the response. */
  const authorize = (browser: FormBrowser, extra: Record<string, string | null>, clientId = ownId) => {
    const a = authorizeUrl(issuer, clientId, extra);
    return browser.get(a.url).then((response) => ({ ...a, response }));
  };

  /** The answer in a redirect's query (or fragment): its parameters. */
  function answerOf(response: Response, mode: 'query' | 'fragment' = 'query'): URLSearchParams {
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    return mode === 'query' ? location.searchParams : new URLSearchParams(location.hash.slice(1));
  }

  /** A browser signed in as Ada (through the whole flow once), and the callback it landed on. */
  async function signedInBrowser(): Promise<FormBrowser> {
    const browser = new FormBrowser();
    const callback = await signInThroughPages(browser, authorizeUrl(issuer, ownId).url, ADA);
    assert.match(callback, /code=tac_/);
    return browser;
  }

  /** The code exchanged through oauth4webapi, its ID token checked with `maxAge` when given. */
  async function exchange(callback: URLSearchParams, verifier: string, maxAge?: number) {
    const client: oauth.Client = { client_id: ownId };
    const params = oauth.validateAuthResponse(as, client, callback, oauth.skipStateCheck);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      CALLBACK,
      verifier,
      {
        [oauth.allowInsecureRequests]: true,
      },
    );
    return oauth.processAuthorizationCodeResponse(as, client, response, {
      requireIdToken: true,
      ...(maxAge === undefined ? {} : { maxAge }),
    });
  }

  test('discovery states the response modes, prompt values, auth_time and signed request objects by value only', async () => {
    assert.deepEqual(as.response_modes_supported, ['query', 'fragment', 'form_post']);
    assert.deepEqual(as.prompt_values_supported, ['none', 'login', 'consent', 'select_account']);
    assert.equal(as.request_parameter_supported, true);
    assert.equal(as.request_uri_parameter_supported, false);
    // Signed ones, and none for a client that registered it (request_object_signing_alg).
    assert.ok(as.request_object_signing_alg_values_supported?.includes('RS256'));
    assert.ok(as.request_object_signing_alg_values_supported?.includes('none'));
    assert.ok(as.claims_supported?.includes('auth_time'));
  });

  test('prompt=none without a session: login_required by redirect with state and iss', async () => {
    const { response, state } = await authorize(new FormBrowser(), { prompt: 'none', scope: 'openid' });
    const answer = answerOf(response);
    assert.equal(answer.get('error'), 'login_required');
    assert.equal(response.headers.get('tessera-error-code'), 'authorize.login_required.signed_out');
    assert.equal(answer.get('state'), state);
    assert.equal(answer.get('iss'), issuer);
    assert.equal(answer.get('code'), null);
    // The same error in the fragment, when that is the mode asked for.
    const fragment = await authorize(new FormBrowser(), { prompt: 'none', response_mode: 'fragment' });
    const inFragment = answerOf(fragment.response, 'fragment');
    assert.equal(inFragment.get('error'), 'login_required');
    assert.equal(inFragment.get('state'), fragment.state);
    assert.equal(inFragment.get('iss'), issuer);
  });

  test('prompt=none with a session: a code from an own client, consent_required from a registered one', async () => {
    const browser = await signedInBrowser();
    const own = await authorize(browser, { prompt: 'none', scope: 'openid' });
    const code = answerOf(own.response);
    assert.match(code.get('code') ?? '', /^tac_/);
    assert.equal(code.get('state'), own.state);
    const registered = await authorize(browser, { prompt: 'none', scope: 'openid' }, registeredId);
    const refused = answerOf(registered.response);
    assert.equal(refused.get('error'), 'consent_required');
    assert.equal(refused.get('state'), registered.state);
    assert.equal(refused.get('iss'), issuer);
  });

  test('prompt=none with id_token_hint: the signed-in person gets a code, anyone else login_required', async () => {
    const browser = await signedInBrowser();
    const first = await authorize(browser, { scope: 'openid' });
    const tokens = await exchange(answerOf(first.response), first.verifier);
    const adaHint = tokens.id_token as string;
    assert.equal(decodeJwt(adaHint).sub, adaId);
    const same = await authorize(browser, { prompt: 'none', scope: 'openid', id_token_hint: adaHint });
    assert.match(answerOf(same.response).get('code') ?? '', /^tac_/);

    const grace = new FormBrowser();
    await signInThroughPages(grace, authorizeUrl(issuer, ownId).url, {
      email: 'grace@acme.test',
      password: PASSWORD,
    });
    const other = await authorize(grace, { prompt: 'none', scope: 'openid', id_token_hint: adaHint });
    assert.equal(answerOf(other.response).get('error'), 'login_required');
    assert.equal(other.response.headers.get('tessera-error-code'), 'authorize.login_required.hint_mismatch');
    const forged = await authorize(grace, { prompt: 'none', id_token_hint: 'not.a.token' });
    assert.equal(answerOf(forged.response).get('error'), 'invalid_request');
  });

  test('prompt: none with another value, or an unknown value, is invalid_request', async () => {
    for (const prompt of ['none login', 'consent none', 'sometimes']) {
      const { response, state } = await authorize(new FormBrowser(), { prompt });
      const answer = answerOf(response);
      assert.equal(answer.get('error'), 'invalid_request', prompt);
      assert.equal(answer.get('state'), state);
    }
    for (const maxAge of ['-1', 'soon', '1.5']) {
      const { response } = await authorize(new FormBrowser(), { max_age: maxAge });
      assert.equal(answerOf(response).get('error'), 'invalid_request', maxAge);
    }
  });

  for (const [name, extra] of [
    ['prompt=login', { prompt: 'login' }],
    ['max_age=0', { max_age: '0' }],
    ['prompt=select_account', { prompt: 'select_account' }],
  ] as const) {
    test(`${name} asks for the password again even with a session; auth_time is the new sign-in`, async () => {
      const browser = await signedInBrowser();
      const before = await authorize(browser, { scope: 'openid' });
      const oldAuthTime = (await exchange(answerOf(before.response), before.verifier)).id_token;
      const oldTime = decodeJwt(oldAuthTime as string).auth_time as number;
      // A second later, so the new sign-in's auth_time can be told apart (auth_time is in seconds).
      const real = Date.now;
      clock.now = () => real() + 1500;
      try {
        const a = await authorize(browser, { scope: 'openid', ...extra });
        assert.equal(a.response.status, 302);
        const login = locationOf(a.response, a.url);
        assert.equal(new URL(login).pathname, '/login');
        const page = await browser.get(login);
        assert.equal(page.status, 200, 'the login form, not a redirect');
        const html = await page.text();
        assert.match(html, /value="ada@acme\.test"/, 'the signed-in address is filled in');
        // The consent page does not let the old sign-in through either.
        const consent = await browser.get(login.replace('/login?', '/consent?'));
        assert.equal(consent.status, 303);
        assert.equal(new URL(locationOf(consent, login)).pathname, '/login');

        const signed = await browser.submit(login, html, ADA);
        assert.equal(signed.status, 303);
        const callback = new URL(locationOf(signed, login));
        const result = await exchange(callback.searchParams, a.verifier, 'max_age' in extra ? 0 : undefined);
        const claims = decodeJwt(result.id_token as string);
        assert.ok((claims.auth_time as number) > oldTime, 'a new auth_time');
      } finally {
        clock.now = () => Date.now();
      }
    });
  }

  test('max_age: an older sign-in signs in again; the ID token passes oauth4webapi maxAge checks', async () => {
    // Ada signed in ten minutes ago.
    const browser = new FormBrowser();
    clock.now = () => Date.now() - 10 * 60_000;
    try {
      await signInThroughPages(browser, authorizeUrl(issuer, ownId).url, ADA);
    } finally {
      clock.now = () => Date.now();
    }
    // Within max_age=3600: no login page, and the ten-minute-old auth_time passes maxAge 3600…
    const within = await authorize(browser, { scope: 'openid', max_age: '3600' });
    const withinTokens = await exchange(answerOf(within.response), within.verifier, 3600);
    const oldAuthTime = decodeJwt(withinTokens.id_token as string).auth_time as number;
    assert.ok(
      Math.abs(oldAuthTime - (Date.now() / 1000 - 600)) < 5,
      'auth_time is the sign-in, ten minutes ago',
    );
    // …but oauth4webapi refuses it for max_age=300, so the server must not issue it for such a request.
    const stale = await authorize(browser, { scope: 'openid' });
    await assert.rejects(
      exchange(answerOf(stale.response), stale.verifier, 300),
      /too much time has elapsed/,
    );

    // max_age=300 with prompt=none: login_required; without: the login page, then a fresh auth_time.
    const silent = await authorize(browser, { scope: 'openid', max_age: '300', prompt: 'none' });
    assert.equal(answerOf(silent.response).get('error'), 'login_required');
    const a = authorizeUrl(issuer, ownId, { scope: 'openid', max_age: '300' });
    const callback = await signInThroughPages(browser, a.url, ADA);
    const tokens = await exchange(new URL(callback).searchParams, a.verifier, 300);
    const authTime = decodeJwt(tokens.id_token as string).auth_time as number;
    assert.ok(Math.abs(authTime - Date.now() / 1000) < 5, 'auth_time is now');
  });

  test('login_hint fills the email field, escaped', async () => {
    const hint = '"><script>alert(1)</script>@acme.test';
    const a = await authorize(new FormBrowser(), { login_hint: hint });
    const login = locationOf(a.response, a.url);
    const html = await (await fetch(login)).text();
    assert.ok(
      html.includes('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@acme.test"'),
      'the hint, escaped, in the email field',
    );
    assert.ok(!html.includes('<script>alert(1)'));
  });

  test('response_mode=fragment delivers the code in the fragment', async () => {
    const browser = await signedInBrowser();
    const a = await authorize(browser, { response_mode: 'fragment', scope: 'openid' });
    const answer = answerOf(a.response, 'fragment');
    assert.match(answer.get('code') ?? '', /^tac_/);
    assert.equal(answer.get('state'), a.state);
    assert.equal(answer.get('iss'), issuer);
    assert.equal(new URL(a.response.headers.get('location') ?? '').search, '', 'nothing in the query');
    await exchange(answer, a.verifier);
  });

  test('response_mode=form_post: a self-submitting form to the redirect URI, allowed by the CSP', async () => {
    const browser = await signedInBrowser();
    const a = await authorize(browser, { response_mode: 'form_post', scope: 'openid' });
    assert.equal(a.response.status, 200);
    const csp = a.response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+';/);
    assert.match(csp, /form-action 'self' http:\/\/127\.0\.0\.1:8765;/);
    const html = await a.response.text();
    const form = readForm(html);
    assert.equal(form.action, CALLBACK);
    assert.deepEqual(Object.keys(form.hidden), ['code', 'state', 'iss']);
    assert.equal(form.hidden.state, a.state);
    assert.equal(form.hidden.iss, issuer);
    assert.match(html, /<noscript><button type="submit">Continue<\/button><\/noscript>/);
    await exchange(new URLSearchParams(form.hidden), a.verifier);

    // Errors travel the same way; a response_mode that does not exist is refused in the query.
    const bad = await authorize(browser, { response_mode: 'form_post', scope: 'admin' });
    assert.equal(bad.response.status, 200);
    const error = readForm(await bad.response.text());
    assert.equal(error.hidden.error, 'invalid_scope');
    assert.equal(error.hidden.state, bad.state);
    const unknown = await authorize(browser, { response_mode: 'web_message' });
    assert.equal(answerOf(unknown.response).get('error'), 'invalid_request');
  });

  test('form_post after the login and consent pages: the consent form answers with the post page', async () => {
    const a = await authorize(new FormBrowser(), { response_mode: 'form_post' }, registeredId);
    const browser = new FormBrowser();
    let url = a.url;
    let response = await browser.get(url);
    url = locationOf(response, url);
    response = await browser.submit(url, await (await browser.get(url)).text(), ADA);
    url = locationOf(response, url);
    assert.equal(new URL(url).pathname, '/consent');
    response = await browser.submit(url, await (await browser.get(url)).text(), { decision: 'allow' });
    assert.equal(response.status, 200);
    const form = readForm(await response.text());
    assert.equal(form.action, CALLBACK);
    assert.match(form.hidden.code ?? '', /^tac_/);
  });

  test('an unsigned request object and request_uri are refused by redirect', async () => {
    const byValue = await authorize(new FormBrowser(), { request: 'eyJhbGciOiJub25lIn0.e30.' });
    const one = answerOf(byValue.response);
    assert.equal(one.get('error'), 'request_not_supported');
    assert.equal(one.get('state'), byValue.state);
    assert.equal(one.get('iss'), issuer);
    const byReference = await authorize(new FormBrowser(), {
      request_uri: 'https://app.example/request.jwt',
    });
    assert.equal(answerOf(byReference.response).get('error'), 'request_uri_not_supported');
  });

  test('an own client asks no consent; a registered one is asked every time; prompt=consent asks', async () => {
    const browser = new FormBrowser();
    const own = await signInThroughPages(
      browser,
      authorizeUrl(issuer, ownId, { scope: 'openid profile email offline_access' }).url,
      {
        ...ADA,
        consent: 'deny',
      },
    );
    assert.match(own, /code=tac_/, 'no consent page to deny');
    for (let i = 0; i < 2; i++) {
      const a = await authorize(browser, { scope: 'openid' }, registeredId);
      assert.equal(
        new URL(locationOf(a.response, a.url)).pathname,
        '/consent',
        `registered, request ${i + 1}`,
      );
    }
    const asked = await authorize(browser, { scope: 'openid', prompt: 'consent' });
    assert.equal(new URL(locationOf(asked.response, asked.url)).pathname, '/consent');
  });
});
