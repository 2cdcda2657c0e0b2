import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { clock } from '../../src/domain/clock.js';
import { LOGIN_LIMITS, reserveLoginAttempt } from '../../src/domain/sign-in/login-throttle.js';
import type { Org } from '../../src/domain/types.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, readForm } from './support/browser.js';
import { freezeClock, makeOrg, makeUser, PASSWORD } from './support/fixtures.js';

const OWNER_PASSWORD = 'owner password 1';

/**
 * Device cookies (issue #25): 110 wrong passwords from 11 addresses lock strangers out of the
 * account, not the browser the user signed in with before; a stolen cookie is throttled on its
 * own; a cookie of another user, another org, or altered exempts nothing. The server trusts one
 * proxy hop, so each request's address is the X-Forwarded-For it sends. `attempt` uses a fresh
 * browser (a stranger) unless given one.
 */
for (const database of httpSuite()) {
  describe(`device cookies and the login throttle on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    const orgs = new Map<string, Org>();

    before(async () => {
      if (skip) return;
      server = await startServer({ database, env: { TESSERA_TRUST_PROXY: '1' } });
      for (const slug of ['device', 'stolen', 'forged', 'other']) {
        const org = await makeOrg(server, slug);
        orgs.set(slug, org);
        await makeUser(server.deps, org, `ada@${slug}.test`);
      }
      await makeUser(server.deps, orgs.get('forged') as Org, 'bob@forged.test');
      // The same person in another org: her device cookie there is no use here.
      await makeUser(server.deps, orgs.get('other') as Org, 'ada@forged.test');
    });
    after(async () => {
      if (!skip) await server.close();
    });
    afterEach(() => {
      clock.now = () => Date.now();
    });

    /** One submission of the login form at `base` (an org issuer or the console), from `ip`. */
    async function attempt(
      base: string,
      email: string,
      password: string,
      ip: string,
      browser = new FormBrowser(),
    ) {
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
        setCookies: response.headers.getSetCookie(),
        html: await response.text(),
      };
    }

    /** The device cookie `browser` holds for `base` (its name and value), failing when there is none. */
    function deviceCookie(browser: FormBrowser, base: string): [string, string] {
      const found = [...browser.cookies(base)].find(([name]) => name.endsWith('tessera_device'));
      assert.ok(found, 'a device cookie was set');
      return found;
    }

    /**
     * The browser's login cookie gone (its session over), its other cookies kept: a browser that
     * signed in before, back at the login page.
     */
    function sessionOver(browser: FormBrowser, base: string): FormBrowser {
      const jar = browser.cookies(base);
      for (const name of jar.keys()) if (name.endsWith('tessera_session')) jar.delete(name);
      return browser;
    }

    /**
     * The attack of issue #25 as written: 10 wrong passwords from each of 11 addresses, each from a
     * fresh browser. Returns the 110 statuses.
     */
    async function distributedGuessing(base: string, email: string, network: number) {
      const statuses: number[] = [];
      for (let i = 1; i <= 11; i++) {
        for (let j = 0; j < 10; j++) {
          statuses.push((await attempt(base, email, 'wrong password', `203.0.${network}.${i}`)).status);
        }
      }
      return statuses;
    }

    test('110 wrong passwords from 11 addresses lock strangers out, not the user’s own browser', {
      skip,
    }, async () => {
      const issuer = server.issuer('device');
      const time = freezeClock();
      const own = new FormBrowser();
      const signedIn = await attempt(issuer, 'ada@device.test', PASSWORD, '192.0.2.77', own);
      assert.equal(signedIn.status, 303);
      const [name, value] = deviceCookie(own, issuer);
      const line = signedIn.setCookies.find((c) => c.startsWith(`${name}=`));
      assert.equal(line, `${name}=${value}; Max-Age=31536000; Path=/; HttpOnly; SameSite=Lax`, 'a year');
      assert.equal(name, 'tessera_device', 'http: no __Host- prefix');
      assert.match(value, /^usr_[0-9a-z]+\.[0-9a-z]+\.[\w-]+\.[\w-]+$/);

      const statuses = await distributedGuessing(issuer, 'ada@device.test', 113);
      assert.deepEqual(statuses, [...Array(100).fill(400), ...Array(10).fill(429)], 'the ceiling at 100');

      // A stranger, even at the user's own address, meets the ceiling: an hour from the first failure.
      const stranger = await attempt(issuer, 'ada@device.test', PASSWORD, '192.0.2.77');
      assert.equal(stranger.status, 429);
      assert.equal(stranger.retryAfter, String(LOGIN_LIMITS.accountWindowMs / 1000));
      assert.match(stranger.html, /Too many sign-in attempts\. Try again in 60 minutes\./);

      // The browser that signed in before does not, at its address or another (any letter case).
      assert.equal(
        (await attempt(issuer, 'ada@device.test', PASSWORD, '192.0.2.77', sessionOver(own, issuer))).status,
        303,
      );
      assert.equal(
        (await attempt(issuer, 'ADA@device.test', PASSWORD, '198.51.100.77', sessionOver(own, issuer)))
          .status,
        303,
      );
      time.moveTo(LOGIN_LIMITS.windowMs);
      const later = await attempt(issuer, 'ada@device.test', PASSWORD, '198.51.100.78');
      assert.equal(later.status, 429, 'the own browser’s sign-ins gave the strangers nothing back');
      assert.equal(later.retryAfter, String((LOGIN_LIMITS.accountWindowMs - LOGIN_LIMITS.windowMs) / 1000));
    });

    test('the device counts its own failures: a stolen device cookie guesses ten times, then waits', {
      skip,
    }, async () => {
      const issuer = server.issuer('stolen');
      const time = freezeClock();
      const own = new FormBrowser();
      assert.equal((await attempt(issuer, 'ada@stolen.test', PASSWORD, '192.0.2.80', own)).status, 303);
      // The cookie, carried to another machine and other addresses.
      const thief = new FormBrowser();
      thief.cookies(issuer).set(...deviceCookie(own, issuer));
      for (let i = 1; i <= LOGIN_LIMITS.perDevice; i++) {
        const guess = await attempt(issuer, 'ada@stolen.test', 'a guess', `198.51.100.${i}`, thief);
        assert.equal(guess.status, 400);
      }
      const blocked = await attempt(issuer, 'ada@stolen.test', PASSWORD, '198.51.100.99', thief);
      assert.equal(blocked.status, 429, 'even the right password waits on that device');
      assert.equal(blocked.retryAfter, String(LOGIN_LIMITS.windowMs / 1000));
      assert.equal(
        (await attempt(issuer, 'ada@stolen.test', PASSWORD, '198.51.100.1')).status,
        303,
        'the device’s failures count against neither the account nor the addresses',
      );
      time.moveTo(LOGIN_LIMITS.windowMs);
      assert.equal((await attempt(issuer, 'ada@stolen.test', PASSWORD, '198.51.100.99', thief)).status, 303);
    });

    test('a device cookie of another user, of another org, or altered, is a stranger’s', {
      skip,
    }, async () => {
      const issuer = server.issuer('forged');
      const other = server.issuer('other');
      freezeClock();
      const bobs = new FormBrowser();
      assert.equal((await attempt(issuer, 'bob@forged.test', PASSWORD, '192.0.2.90', bobs)).status, 303);
      const adas = new FormBrowser();
      assert.equal((await attempt(issuer, 'ada@forged.test', PASSWORD, '192.0.2.91', adas)).status, 303);
      const elsewhere = new FormBrowser();
      assert.equal((await attempt(other, 'ada@forged.test', PASSWORD, '192.0.2.92', elsewhere)).status, 303);

      // The account's ceiling filled in its counter directly (the attack itself is the test above).
      const org = orgs.get('forged') as Org;
      for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
        await reserveLoginAttempt(server.db, org.id, 'ada@forged.test', `203.0.114.${i}`, clock.now());
      }
      assert.equal((await attempt(issuer, 'ada@forged.test', PASSWORD, '192.0.2.93')).status, 429);

      const [name, value] = deviceCookie(adas, issuer);
      const [userId, issuedAt, nonce, mac] = value.split('.') as [string, string, string, string];
      const bobsValue = deviceCookie(bobs, issuer)[1];
      const flip = (s: string) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`;
      const forgeries: Record<string, string> = {
        'bob’s own cookie': bobsValue,
        'ada’s cookie from another org': deviceCookie(elsewhere, other)[1],
        'an altered signature': [userId, issuedAt, nonce, flip(mac)].join('.'),
        'another nonce': [userId, issuedAt, flip(nonce), mac].join('.'),
        'another issue time': [userId, (Number.parseInt(issuedAt, 36) - 1).toString(36), nonce, mac].join(
          '.',
        ),
        'bob’s id in ada’s cookie': [bobsValue.split('.')[0], issuedAt, nonce, mac].join('.'),
        garbage: 'not.a.device.cookie',
      };
      for (const [what, forged] of Object.entries(forgeries)) {
        const browser = new FormBrowser();
        browser.cookies(issuer).set(name, forged);
        const answer = await attempt(issuer, 'ada@forged.test', PASSWORD, '192.0.2.91', browser);
        assert.equal(answer.status, 429, what);
        assert.equal(answer.retryAfter, String(LOGIN_LIMITS.accountWindowMs / 1000), what);
      }
      assert.equal(
        (await attempt(issuer, 'ada@forged.test', PASSWORD, '192.0.2.91', sessionOver(adas, issuer))).status,
        303,
        'ada’s own cookie still signs her in',
      );
    });

    test('console owners: the owner’s own browser signs in to the console after the same attack', {
      skip,
    }, async () => {
      const consoleUrl = `${server.base}/`;
      freezeClock();
      const own = new FormBrowser();
      const first = await attempt(consoleUrl, 'owner@device.test', OWNER_PASSWORD, '192.0.2.95', own);
      assert.equal(first.status, 303);
      deviceCookie(own, consoleUrl);
      const statuses = await distributedGuessing(consoleUrl, 'owner@device.test', 115);
      assert.deepEqual(statuses, [...Array(100).fill(400), ...Array(10).fill(429)], 'the ceiling at 100');
      const stranger = await attempt(consoleUrl, 'owner@device.test', OWNER_PASSWORD, '192.0.2.95');
      assert.equal(stranger.status, 429);
      assert.equal(stranger.retryAfter, String(LOGIN_LIMITS.accountWindowMs / 1000));
      const back = await attempt(
        consoleUrl,
        'owner@device.test',
        OWNER_PASSWORD,
        '192.0.2.95',
        sessionOver(own, consoleUrl),
      );
      assert.equal(back.status, 303);
    });
  });
}
