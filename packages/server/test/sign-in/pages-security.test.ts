import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config/config.js';
import { PageCookies } from '../../src/http/sign-in/cookies.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, readForm } from './support/browser.js';
import { authorizeUrl, makeClient, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

/** The hosted pages resist CSRF and XSS, and send the headers and cookies they promise. */
describe('hosted pages: CSRF, escaping, headers, cookies', () => {
  let server: TestServer;
  let issuer: string;
  let evilClientId: string;

  before(async () => {
    server = await startServer();
    issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    ({ clientId: evilClientId } = await makeClient(server.deps, org, {
      name: '<script>alert("x")</script><img src=x onerror=alert(1)>',
      firstParty: false,
    }));
  });
  after(() => server.close());

  /** Opens the login page of a fresh authorization request in `browser`. */
  async function loginPage(browser: FormBrowser) {
    const start = await browser.get(authorizeUrl(issuer, evilClientId).url);
    const url = locationOf(start, issuer);
    const page = await browser.get(url);
    return { url, response: page, html: await page.text() };
  }

  test('a login form without its CSRF token, or with another browser’s, is refused', async () => {
    const browser = new FormBrowser();
    const { url, html } = await loginPage(browser);
    const form = readForm(html);
    const action = new URL(form.action, url).href;
    const credentials = { email: 'ada@acme.test', password: PASSWORD };

    let r = await browser.post(action, credentials);
    assert.equal(r.status, 403);
    assert.match(await r.text(), /This form has expired/);

    const attacker = new FormBrowser();
    await loginPage(attacker);
    r = await attacker.post(action, { ...form.hidden, ...credentials });
    assert.equal(r.status, 403, 'a token is bound to the cookie of the browser it was made for');

    r = await new FormBrowser().post(action, { ...form.hidden, ...credentials });
    assert.equal(r.status, 403, 'no cookie at all');
    assert.equal(browser.cookies(url).has('tessera_session'), false);

    r = await browser.post(action, { ...form.hidden, ...credentials });
    assert.equal(r.status, 303, 'the genuine form still works');
  });

  test('a consent token is bound to the browser session and the request', async () => {
    const browser = new FormBrowser();
    const { url, html } = await loginPage(browser);
    const signedIn = await browser.submit(url, html, { email: 'ada@acme.test', password: PASSWORD });
    const consentUrl = locationOf(signedIn, url);
    const consent = readForm(await (await browser.get(consentUrl)).text());

    // The same person, a second request: the first page's token does not fit it.
    const second = locationOf(await browser.get(authorizeUrl(issuer, evilClientId).url), issuer);
    let r = await browser.post(
      new URL(readForm(await (await browser.get(second)).text()).action, second).href,
      {
        csrf: consent.hidden.csrf as string,
        decision: 'allow',
      },
    );
    assert.equal(r.status, 403);

    r = await browser.post(new URL(consent.action, consentUrl).href, { decision: 'allow' });
    assert.equal(r.status, 403);
    r = await browser.post(new URL(consent.action, consentUrl).href, {
      ...consent.hidden,
      decision: 'allow',
    });
    assert.equal(r.status, 303);
    assert.match(r.headers.get('location') ?? '', /code=tac_/);
  });

  test('a client name like <script> is shown as text', async () => {
    const browser = new FormBrowser();
    const { url, html } = await loginPage(browser);
    const consentUrl = locationOf(
      await browser.submit(url, html, { email: 'ada@acme.test', password: PASSWORD }),
      url,
    );
    const page = await (await browser.get(consentUrl)).text();
    assert.ok(
      page.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;'),
    );
    assert.equal(/<script|<img/i.test(page), false);
  });

  test('what a person typed is escaped when the login page is shown again', async () => {
    const browser = new FormBrowser();
    const { url, html } = await loginPage(browser);
    const r = await browser.submit(url, html, { email: '"><script>alert(1)</script>', password: 'x' });
    assert.equal(r.status, 400);
    const page = await r.text();
    assert.ok(page.includes('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'));
    assert.equal(page.includes('<script>'), false);
  });

  test('pages send CSP, frame denial, no-store, viewport; cookies are HttpOnly and SameSite=Lax', async () => {
    const { response, html } = await loginPage(new FormBrowser());
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.match(
      csp,
      /form-action 'self' http:\/\/127\.0\.0\.1:8765(;|$)/,
      'the consent redirect may land on the client',
    );
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('tessera_csrf=')) ?? '';
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.doesNotMatch(cookie, /; Secure/, 'plain http in development');
  });

  test('on https the cookies are Secure and __Host- prefixed', async () => {
    const config = loadConfig({ TESSERA_URL: 'https://auth.example.com', TESSERA_SECRET: 'x'.repeat(32) });
    const cookies = new PageCookies(config);
    const app = Fastify();
    await app.register(fastifyCookie, { secret: 'test cookie secret' });
    app.get('/', (_request, reply) => {
      cookies.set(reply, cookies.session, 'value');
      return reply.send('ok');
    });
    const response = await app.inject({ url: '/' });
    const set = String(response.headers['set-cookie']);
    assert.match(set, /^__Host-tessera_session=/);
    assert.match(set, /; Path=\/; HttpOnly; Secure; SameSite=Lax/);
    await app.close();
  });

  test('on https the device cookie is __Host- prefixed, Secure, and carries its value as given', async () => {
    const config = loadConfig({ TESSERA_URL: 'https://auth.example.com', TESSERA_SECRET: 'x'.repeat(32) });
    const cookies = new PageCookies(config);
    const app = Fastify();
    await app.register(fastifyCookie, { secret: 'test cookie secret' });
    app.get('/', (_request, reply) => {
      cookies.set(reply, cookies.device, 'usr_1.2.3.4', { maxAgeMs: 365 * 86_400_000, signed: false });
      return reply.send('ok');
    });
    const response = await app.inject({ url: '/' });
    assert.equal(
      String(response.headers['set-cookie']),
      '__Host-tessera_device=usr_1.2.3.4; Max-Age=31536000; Path=/; HttpOnly; Secure; SameSite=Lax',
    );
    await app.close();
  });
});
