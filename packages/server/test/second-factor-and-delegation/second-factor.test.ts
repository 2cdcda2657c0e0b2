import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { clock } from '../../src/domain/clock.js';
import { SECOND_FACTOR_LIMITS } from '../../src/domain/sign-in/login-throttle.js';
import type { Org } from '../../src/domain/types.js';
import { FormBrowser } from '../sign-in/support/browser.js';
import {
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  signIn,
} from '../sign-in/support/fixtures.js';
import { cliEnv, tessera } from '../support/cli.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import {
  enrolOnProfile,
  formWithStep,
  openProfile,
  recoveryCodesOnPage,
  secretOnPage,
  signInWith,
  submitForm,
  totpCode,
  walk,
} from './support.js';

const MFA = 'urn:tessera:acr:mfa';
const PWD = 'urn:tessera:acr:pwd';
const STEP_MS = 30_000;

/** Moves the service's clock `steps` TOTP steps ahead of real time (a code is good once per step). */
const advance = (steps: number) => {
  const offset = steps * STEP_MS;
  clock.now = () => Date.now() + offset;
};

for (const database of httpSuite()) {
  describe(`TOTP second factor on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let issuer: string;
    let org: Org;
    let clientId: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      org = await makeOrg(server, 'acme');
      for (const name of ['ada', 'bob', 'cy', 'dee', 'eve'])
        await makeUser(server.deps, org, `${name}@acme.test`);
      ({ clientId } = await makeClient(server.deps, org));
    });
    after(async () => {
      clock.now = () => Date.now();
      if (!skip) await server.close();
    });
    afterEach(() => {
      clock.now = () => Date.now();
    });

    const verify = async (token: string) => {
      const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
      return (await jwtVerify(token, jwks, { issuer, audience: clientId, algorithms: ['RS256'] })).payload;
    };
    const audit = (key: string) =>
      server.db.selectFrom('audit_events').selectAll().where('key', '=', key).orderBy('id').execute();

    test('enrol on the profile page, then sign in with a code: amr pwd+otp and the higher acr', {
      skip,
    }, async () => {
      const first = await signIn(issuer, clientId, 'ada@acme.test');
      const before = await verify(first.accessToken);
      assert.deepEqual([before.amr, before.acr], [['pwd'], PWD]);

      const { secret } = await enrolOnProfile(issuer, first.accessToken);
      const created = await audit('second_factor.created');
      assert.equal(created.length, 1);
      assert.ok(!JSON.stringify(created).includes(secret), 'the audit entry holds no secret');
      const stored = await server.db.selectFrom('totp_factors').selectAll().executeTakeFirstOrThrow();
      assert.ok(!stored.secret.includes(secret), 'the secret is sealed at rest');

      advance(1); // the enrolment used this step's code
      const tokens = await signInWith(issuer, clientId, 'ada@acme.test', { code: () => totpCode(secret) });
      const claims = await verify(tokens.access_token);
      assert.deepEqual(claims.amr, ['pwd', 'otp']);
      assert.equal(claims.acr, MFA);
      const logins = await audit('user.login');
      const last = JSON.parse(logins.at(-1)?.data ?? '{}');
      assert.deepEqual([last.amr, last.acr], [['pwd', 'otp'], MFA]);

      // The refresh keeps what the sign-in reached.
      const refreshed = await fetch(new URL('oauth/token', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: clientId,
        }),
      });
      const again = await verify(((await refreshed.json()) as { access_token: string }).access_token);
      assert.deepEqual([again.amr, again.acr], [['pwd', 'otp'], MFA]);
    });

    test('a wrong code is refused; a code is accepted once; a recovery code works once', {
      skip,
    }, async () => {
      const { accessToken } = await signIn(issuer, clientId, 'bob@acme.test');
      const { secret, recoveryCodes } = await enrolOnProfile(issuer, accessToken);
      advance(1);
      const near = [-1, 0, 1].map((s) => totpCode(secret, clock.now() + s * STEP_MS));
      const wrong = ['000000', '111111', '123456', '999999'].find((c) => !near.includes(c)) as string;

      const refused = await walk(authorizeUrl(issuer, clientId).url, 'bob@acme.test', { code: () => wrong });
      assert.equal(refused.status, 400);
      assert.equal(new URL(refused.url).pathname, '/login/second-factor');
      assert.match(refused.html, /That code is not right/);

      const code = totpCode(secret);
      await signInWith(issuer, clientId, 'bob@acme.test', { code: () => code });
      const replayed = await walk(authorizeUrl(issuer, clientId).url, 'bob@acme.test', { code: () => code });
      assert.equal(replayed.status, 400, 'the same code a second time is refused');
      assert.match(replayed.html, /That code is not right/);
      // An older step's code is refused too, once a later one was accepted.
      advance(2);
      const older = totpCode(secret, clock.now() - 2 * STEP_MS);
      assert.equal(
        (await walk(authorizeUrl(issuer, clientId).url, 'bob@acme.test', { code: () => older })).status,
        400,
      );

      const recovery = recoveryCodesOnPage(`<li><code>${recoveryCodes[3]}</code></li>`)[0] as string;
      const viaRecovery = await signInWith(issuer, clientId, 'bob@acme.test', {
        code: () => recovery.toUpperCase().replace(/-/g, ' '),
      });
      const claims = await verify(viaRecovery.access_token);
      assert.deepEqual([claims.amr, claims.acr], [['pwd', 'otp'], MFA]);
      const reused = await walk(authorizeUrl(issuer, clientId).url, 'bob@acme.test', {
        code: () => recovery,
      });
      assert.equal(reused.status, 400, 'a recovery code works once');
    });

    test('codes are throttled per user, apart from the password count', { skip }, async () => {
      const { accessToken } = await signIn(issuer, clientId, 'cy@acme.test');
      const { secret } = await enrolOnProfile(issuer, accessToken);
      advance(1);
      const near = [-1, 0, 1].map((s) => totpCode(secret, clock.now() + s * STEP_MS));
      const wrong = ['000000', '111111', '222222'].find((c) => !near.includes(c)) as string;
      // One browser, one password: every further guess is a POST of the code form.
      const stopped = await walk(authorizeUrl(issuer, clientId).url, 'cy@acme.test', { code: () => wrong });
      assert.equal(stopped.status, 400);
      const form = formWithStep(stopped.html);
      let last = { status: 0, retryAfter: null as string | null, html: '' };
      for (let i = 1; i < SECOND_FACTOR_LIMITS.perUser + 1; i++) {
        const r = await submitForm(stopped.browser, stopped.url, form, { code: wrong });
        last = { status: r.status, retryAfter: r.headers.get('retry-after'), html: await r.text() };
      }
      assert.equal(last.status, 429);
      assert.ok(Number(last.retryAfter) > 0);
      assert.match(last.html, /Too many attempts/);
      // A fresh password does not reset the code count: even the right code waits.
      const blocked = await walk(authorizeUrl(issuer, clientId).url, 'cy@acme.test', {
        code: () => totpCode(secret),
      });
      assert.equal(blocked.status, 429);
      // After the window, the right code works.
      clock.now = () => Date.now() + SECOND_FACTOR_LIMITS.windowMs + STEP_MS;
      await signInWith(issuer, clientId, 'cy@acme.test', { code: () => totpCode(secret) });
    });

    test('the challenge needs the password first and keeps CSRF protection', { skip }, async () => {
      const browser = new FormBrowser();
      const alone = await browser.get(new URL('login/second-factor', issuer).href);
      assert.equal(alone.status, 303);
      assert.equal(new URL(alone.headers.get('location') ?? '', issuer).pathname, '/login');

      const stopped = await walk(authorizeUrl(issuer, clientId).url, 'ada@acme.test', { code: () => 'x' });
      const form = formWithStep(stopped.html);
      const forged = await submitForm(stopped.browser, stopped.url, form, { csrf: 'forged', code: '123456' });
      assert.equal(forged.status, 403);
      const elsewhere = await submitForm(new FormBrowser(), stopped.url, form, { code: '123456' });
      assert.equal(elsewhere.status, 401, 'another browser has no password step behind it');
    });

    test('an org that requires the second factor sends users without one to enrol', { skip }, async () => {
      const env = cliEnv(server);
      // A browser signed in with the password before the org required a second factor.
      const browser = new FormBrowser();
      const earlier = authorizeUrl(issuer, clientId);
      const before = await walk(earlier.url, 'dee@acme.test', {}, browser);
      assert.ok(before.url.startsWith(CALLBACK));

      const updated = await tessera(['org', 'update', '--org', 'acme', '--require-mfa', 'true'], env);
      assert.equal(updated.code, 0, updated.stderr);
      assert.deepEqual(updated.json, {
        id: org.id,
        slug: 'acme',
        requireMfa: true,
        dynamicRegistration: false,
        metadataDocuments: false,
        signUp: 'open',
        signUpDomains: [],
        idTokenSigningAlg: 'RS256',
      });
      const bad = await tessera(['org', 'update', '--org', 'acme', '--require-mfa', 'yes'], env);
      assert.equal(bad.code, 2, bad.stderr);
      const entry = (await audit('organization.updated')).at(-1);
      assert.deepEqual(JSON.parse(entry?.changes ?? '{}'), { requireMfa: true });

      // The password-only browser session no longer counts: the flow starts at the password again.
      let secret = '';
      let codes: string[] = [];
      const done = await walk(
        authorizeUrl(issuer, clientId).url,
        'dee@acme.test',
        {
          enrol: (page) => {
            assert.match(page, /<svg [^>]*role="img"/, 'the QR code is inline SVG, drawn on the server');
            assert.doesNotMatch(page, /<script|<img/);
            secret = secretOnPage(page);
            return totpCode(secret);
          },
        },
        browser,
      );
      const paths = done.pages.map((p) => p.path);
      assert.deepEqual(paths.slice(0, 3), ['/login', '/login/enrol', '/login/enrol']);
      codes = recoveryCodesOnPage(done.pages[2]?.html ?? '');
      assert.equal(codes.length, 10);
      assert.ok(done.url.startsWith(CALLBACK), `ended at ${done.url}`);

      // Enrolled now: the next sign-in asks for the code; the profile cannot turn it off.
      advance(1);
      const tokens = await signInWith(issuer, clientId, 'dee@acme.test', { code: () => totpCode(secret) });
      const claims = await verify(tokens.access_token);
      assert.deepEqual([claims.amr, claims.acr], [['pwd', 'otp'], MFA]);
      const profile = await openProfile(issuer, tokens.access_token);
      const manage = await profile.browser.get(new URL('profile/second-factor', issuer).href);
      const status = await manage.text();
      assert.match(status, /cannot be turned off/);
      assert.match(status, /10 of your recovery codes are left/);

      const off = await tessera(['org', 'update', '--org', 'acme', '--require-mfa', 'false'], env);
      assert.equal(off.code, 0, off.stderr);
      assert.deepEqual(off.json, {
        id: org.id,
        slug: 'acme',
        requireMfa: false,
        dynamicRegistration: false,
        metadataDocuments: false,
        signUp: 'open',
        signUpDomains: [],
        idTokenSigningAlg: 'RS256',
      });
    });

    test('turning the factor off on the profile needs a current code', { skip }, async () => {
      const { accessToken } = await signIn(issuer, clientId, 'eve@acme.test');
      const { secret, browser, url } = await enrolOnProfile(issuer, accessToken);
      const manageUrl = new URL('profile/second-factor', url).href;
      const status = await (await browser.get(manageUrl)).text();
      assert.match(status, /10 of your recovery codes are left/);
      advance(1);
      const near = [-1, 0, 1].map((s) => totpCode(secret, clock.now() + s * STEP_MS));
      const wrong = ['000000', '111111', '222222'].find((c) => !near.includes(c)) as string;
      const refused = await submitForm(browser, manageUrl, formWithStep(status, 'remove'), { code: wrong });
      assert.equal(refused.status, 400);
      const removed = await submitForm(browser, manageUrl, formWithStep(status, 'remove'), {
        code: totpCode(secret),
      });
      assert.equal(removed.status, 200);
      assert.match(await removed.text(), /Two-step verification is off\./);
      assert.equal((await audit('second_factor.deleted')).length, 1);
      const plain = await signIn(issuer, clientId, 'eve@acme.test');
      assert.deepEqual((await verify(plain.accessToken)).amr, ['pwd']);
    });
  });
}
