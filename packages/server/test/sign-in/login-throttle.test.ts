import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { clock } from '../../src/domain/clock.js';
import { LOGIN_LIMITS } from '../../src/domain/sign-in/login-throttle.js';
import { databaseSkip, storageSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, readForm } from './support/browser.js';
import { freezeClock, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

const OWNER_PASSWORD = 'owner password 1';

/**
 * The login page: a generic error on failure, and a throttle per account and address, per
 * address, and a high ceiling per account. The server trusts one proxy hop, so each request's
 * address is the X-Forwarded-For it sends.
 */
for (const database of storageSuite(
  'the counts are one multi-row upsert (login-attempts.ts countAttempts: ON CONFLICT with excluded and per-key windows) and one settling update',
)) {
  describe(`login throttle on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, env: { TESSERA_TRUST_PROXY: '1' } });
      for (const slug of ['acct', 'spread', 'ipco', 'ceiling', 'reset']) {
        const org = await makeOrg(server, slug);
        await makeUser(server.deps, org, `ada@${slug}.test`);
      }
    });
    after(async () => {
      if (!skip) await server.close();
    });
    afterEach(() => {
      clock.now = () => Date.now();
    });

    /** One submission of the login form at `base` (an org issuer or the console), from `ip`. */
    async function attempt(base: string, email: string, password: string, ip: string) {
      const browser = new FormBrowser();
      const from = { 'x-forwarded-for': ip };
      const url = new URL('login', base).href;
      const form = readForm(await (await browser.request(url, { headers: from })).text());
      const response = await browser.request(new URL(form.action, url).href, {
        method: 'POST',
        headers: { ...from, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form.hidden, email, password }).toString(),
      });
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        html: await response.text(),
      };
    }

    /** `count` wrong passwords for `email` from `ip`, each answered with the generic 400. */
    async function fail(base: string, email: string, ip: string, count: number) {
      for (let i = 0; i < count; i++) {
        assert.equal((await attempt(base, email, 'wrong password', ip)).status, 400, `${email} from ${ip}`);
      }
    }

    test('unknown account and wrong password get the same generic answer', { skip }, async () => {
      const issuer = server.issuer('acct');
      const wrong = await attempt(issuer, 'ada@acct.test', 'wrong password', '192.0.2.100');
      const unknown = await attempt(issuer, 'nobody@acct.test', 'wrong password', '192.0.2.100');
      assert.equal(wrong.status, 400);
      assert.equal(unknown.status, 400);
      for (const page of [wrong.html, unknown.html]) assert.match(page, /Incorrect email or password\./);
    });

    test('ten failures from one address: the right password waits there, and works from another', {
      skip,
    }, async () => {
      const issuer = server.issuer('acct');
      const time = freezeClock();
      // The email is matched case-insensitively.
      await fail(issuer, 'ADA@acct.test', '192.0.2.1', LOGIN_LIMITS.perAccountAndIp);
      const blocked = await attempt(issuer, 'ada@acct.test', PASSWORD, '192.0.2.1');
      assert.equal(blocked.status, 429);
      assert.match(blocked.html, /Too many sign-in attempts\. Try again in 15 minutes\./);
      assert.equal(blocked.retryAfter, String(LOGIN_LIMITS.windowMs / 1000));

      assert.equal((await attempt(issuer, 'ada@acct.test', PASSWORD, '198.51.100.7')).status, 303);
      assert.equal(
        (await attempt(issuer, 'other@acct.test', 'x', '192.0.2.1')).status,
        400,
        'other accounts from that address are not affected',
      );

      time.moveTo(LOGIN_LIMITS.windowMs);
      assert.equal(
        (await attempt(issuer, 'ada@acct.test', PASSWORD, '192.0.2.1')).status,
        303,
        'a new window',
      );
    });

    test('failures spread over ten addresses do not lock the user out of an eleventh', { skip }, async () => {
      const issuer = server.issuer('spread');
      for (let i = 1; i <= 10; i++) await fail(issuer, 'ada@spread.test', `203.0.113.${i}`, 1);
      assert.equal((await attempt(issuer, 'ada@spread.test', PASSWORD, '203.0.113.11')).status, 303);

      // Nor when each of those addresses has used up its own attempts at the account.
      for (let i = 1; i <= 9; i++) {
        await fail(issuer, 'ada@spread.test', `203.0.113.${i}`, LOGIN_LIMITS.perAccountAndIp - 1);
        assert.equal((await attempt(issuer, 'ada@spread.test', PASSWORD, `203.0.113.${i}`)).status, 429);
      }
      assert.equal((await attempt(issuer, 'ada@spread.test', PASSWORD, '203.0.113.12')).status, 303);
    });

    test('console owners: failures from ten addresses do not lock the owner out', { skip }, async () => {
      const consoleUrl = `${server.base}/`;
      for (let i = 1; i <= 10; i++) await fail(consoleUrl, 'owner@acct.test', `203.0.113.${i}`, 1);
      const signedIn = await attempt(consoleUrl, 'owner@acct.test', OWNER_PASSWORD, '203.0.113.11');
      assert.equal(signedIn.status, 303);
    });

    test('one address trying many accounts waits after 100 failures; other addresses do not', {
      skip,
    }, async () => {
      const issuer = server.issuer('ipco');
      freezeClock();
      for (let i = 0; i < LOGIN_LIMITS.perIp; i++) {
        assert.equal((await attempt(issuer, `guess${i}@ipco.test`, 'x', '192.0.2.50')).status, 400);
      }
      const blocked = await attempt(issuer, 'ada@ipco.test', PASSWORD, '192.0.2.50');
      assert.equal(blocked.status, 429);
      assert.match(blocked.html, /Too many sign-in attempts\. Try again in 15 minutes\./);
      assert.equal(blocked.retryAfter, String(LOGIN_LIMITS.windowMs / 1000));
      assert.equal((await attempt(issuer, 'ada@ipco.test', PASSWORD, '192.0.2.51')).status, 303);
    });

    test('the account’s ceiling: 100 failures from anywhere make even a fresh address wait an hour', {
      skip,
    }, async () => {
      const issuer = server.issuer('ceiling');
      const time = freezeClock();
      const perAddress = LOGIN_LIMITS.perAccountAndIp;
      for (let i = 1; i <= LOGIN_LIMITS.perAccount / perAddress; i++) {
        await fail(issuer, 'ada@ceiling.test', `198.51.100.${i}`, perAddress);
      }
      const blocked = await attempt(issuer, 'ada@ceiling.test', PASSWORD, '198.51.100.200');
      assert.equal(blocked.status, 429);
      assert.match(blocked.html, /Too many sign-in attempts\. Try again in 60 minutes\./);
      assert.equal(blocked.retryAfter, String(LOGIN_LIMITS.accountWindowMs / 1000));

      time.moveTo(LOGIN_LIMITS.windowMs);
      const later = await attempt(issuer, 'ada@ceiling.test', PASSWORD, '198.51.100.201');
      assert.equal(later.status, 429, 'the ceiling outlasts the 15-minute windows');
      assert.equal(later.retryAfter, String((LOGIN_LIMITS.accountWindowMs - LOGIN_LIMITS.windowMs) / 1000));

      time.moveTo(LOGIN_LIMITS.accountWindowMs);
      assert.equal((await attempt(issuer, 'ada@ceiling.test', PASSWORD, '198.51.100.201')).status, 303);
    });

    test('a successful sign-in clears the count at its address', { skip }, async () => {
      const issuer = server.issuer('reset');
      await fail(issuer, 'ada@reset.test', '192.0.2.9', LOGIN_LIMITS.perAccountAndIp - 1);
      assert.equal((await attempt(issuer, 'ada@reset.test', PASSWORD, '192.0.2.9')).status, 303);
      await fail(issuer, 'ada@reset.test', '192.0.2.9', LOGIN_LIMITS.perAccountAndIp);
      assert.equal((await attempt(issuer, 'ada@reset.test', PASSWORD, '192.0.2.9')).status, 429);
    });
  });
}
