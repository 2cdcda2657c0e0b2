import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { clock } from '../../src/domain/clock.js';
import { LOGIN_LIMITS } from '../../src/domain/login-throttle.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, readForm } from './support/browser.js';
import { makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

/** The login page: a generic error on failure, and a throttle per account and per IP. */
describe('login throttle', () => {
  let server: TestServer;

  before(async () => {
    server = await startServer();
    for (const slug of ['acct', 'ipco', 'reset']) {
      const org = await makeOrg(server, slug);
      await makeUser(server.deps, org, `ada@${slug}.test`);
    }
  });
  after(() => server.close());
  afterEach(() => {
    clock.now = () => Date.now();
  });

  /** One submission of the login form of `slug`, as a browser would send it. */
  async function attempt(slug: string, email: string, password: string) {
    const browser = new FormBrowser();
    const url = new URL('login', server.issuer(slug)).href;
    const form = readForm(await (await browser.get(url)).text());
    const response = await browser.post(new URL(form.action, url).href, { ...form.hidden, email, password });
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      html: await response.text(),
    };
  }

  test('unknown account and wrong password get the same generic answer', async () => {
    const wrong = await attempt('acct', 'ada@acct.test', 'wrong password');
    const unknown = await attempt('acct', 'nobody@acct.test', 'wrong password');
    assert.equal(wrong.status, 400);
    assert.equal(unknown.status, 400);
    for (const page of [wrong.html, unknown.html]) assert.match(page, /Incorrect email or password\./);
  });

  test('after too many attempts on one account, even the right password waits, with Retry-After', async () => {
    for (let i = 1; i < LOGIN_LIMITS.perAccount; i++) {
      assert.equal((await attempt('acct', 'ADA@acct.test', 'wrong password')).status, 400);
    }
    const blocked = await attempt('acct', 'ada@acct.test', PASSWORD);
    assert.equal(blocked.status, 429);
    assert.match(blocked.html, /Too many sign-in attempts/);
    const retryAfter = Number(blocked.retryAfter);
    assert.ok(
      retryAfter > 0 && retryAfter <= LOGIN_LIMITS.windowMs / 1000,
      `Retry-After ${blocked.retryAfter}`,
    );
    assert.equal(
      (await attempt('acct', 'other@acct.test', 'x')).status,
      400,
      'other accounts are not affected',
    );

    const start = Date.now();
    clock.now = () => start + LOGIN_LIMITS.windowMs + 1000;
    assert.equal((await attempt('acct', 'ada@acct.test', PASSWORD)).status, 303, 'a new window starts over');
  });

  test('a successful sign-in clears the account’s count', async () => {
    for (let i = 1; i < LOGIN_LIMITS.perAccount; i++)
      await attempt('reset', 'ada@reset.test', 'wrong password');
    assert.equal((await attempt('reset', 'ada@reset.test', PASSWORD)).status, 303);
    assert.equal((await attempt('reset', 'ada@reset.test', 'wrong password')).status, 400);
  });

  test('one IP trying many accounts is throttled too', async () => {
    for (let i = 0; i < LOGIN_LIMITS.perIp; i++) {
      assert.equal((await attempt('ipco', `guess${i}@ipco.test`, 'x')).status, 400);
    }
    const blocked = await attempt('ipco', 'ada@ipco.test', PASSWORD);
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.retryAfter) > 0);
  });
});
