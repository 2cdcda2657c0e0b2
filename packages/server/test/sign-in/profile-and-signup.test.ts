import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { clock } from '../../src/domain/clock.js';
import { PROFILE_KEY_TTL_MS } from '../../src/domain/tokens-policy.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, readForm, signInThroughPages } from './support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  signIn,
  tokenRequest,
} from './support/fixtures.js';

describe('profile page and sign-up', () => {
  let server: TestServer;
  let issuer: string;
  let clientId: string;
  let token: string;

  before(async () => {
    server = await startServer();
    issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, 'ada@acme.test');
    ({ clientId } = await makeClient(server.deps, org));
    token = (await signIn(issuer, clientId, 'ada@acme.test')).accessToken;
  });
  after(() => server.close());
  afterEach(() => {
    clock.now = () => Date.now();
  });

  const profileKey = async () => {
    const r = await api(issuer, 'POST', 'profile/session', token);
    assert.equal(r.status, 201);
    assert.deepEqual(Object.keys(r.body), ['key']);
    return r.body.key as string;
  };

  test('the profile key opens the page once; first and last name are saved and audited', async () => {
    const browser = new FormBrowser();
    const key = await profileKey();
    const opened = await browser.get(new URL(`profile?key=${key}`, issuer).href);
    assert.equal(opened.status, 303, 'the key leaves the address bar at once');
    const pageUrl = locationOf(opened, issuer);
    assert.equal(new URL(pageUrl).search, '');
    const page = await (await browser.get(pageUrl)).text();
    assert.match(page, /value="Ada"/);

    const saved = await browser.submit(pageUrl, page, { first_name: 'Augusta Ada', last_name: 'King' });
    assert.equal(saved.status, 200);
    assert.match(await saved.text(), /Saved\./);
    const me = await api(issuer, 'GET', 'users/me', token);
    assert.deepEqual([me.body.firstName, me.body.lastName], ['Augusta Ada', 'King']);

    const updated = await server.db
      .selectFrom('audit_events')
      .selectAll()
      .where('key', '=', 'user.updated')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(updated.changes ?? '{}'), { firstName: 'Augusta Ada', lastName: 'King' });
    assert.equal(JSON.parse(updated.previous ?? '{}').firstName, 'Ada');

    const reused = await new FormBrowser().get(new URL(`profile?key=${key}`, issuer).href);
    assert.equal(reused.status, 400, 'single use');
  });

  test('the profile page edits the person’s own OIDC claims, each by its rule; a new number is unverified', async () => {
    const browser = new FormBrowser();
    const pageUrl = locationOf(
      await browser.get(new URL(`profile?key=${await profileKey()}`, issuer).href),
      issuer,
    );
    const page = await (await browser.get(pageUrl)).text();
    for (const [name, autocomplete] of [
      ['nickname', 'nickname'],
      ['birthdate', 'bday'],
      ['phone_number', 'tel'],
      ['locality', 'address-level2'],
    ]) {
      assert.match(page, new RegExp(`<input id="${name}" name="${name}" autocomplete="${autocomplete}"`));
    }
    // A browser sends every field of the form: the names as they are, and the details.
    const details = {
      first_name: 'Augusta Ada',
      last_name: 'King',
      nickname: 'Countess',
      website: 'https://ada.example/',
      birthdate: '1815-12-10',
      zoneinfo: 'Europe/London',
      locale: 'en-gb',
      phone_number: '+442079460000',
      street_address: '12 St James’s Square\r\nFlat 2',
      locality: 'London',
      country: 'UK',
    };
    const refused = await browser.submit(pageUrl, page, { ...details, birthdate: '1815-13-01' });
    assert.equal(refused.status, 400);
    const again = await refused.text();
    assert.match(again, /Please check the form: birthdate must be YYYY or YYYY-MM-DD, a real date\./);
    assert.match(
      again,
      /id="birthdate" name="birthdate" autocomplete="bday" value="1815-13-01"/,
      'what was typed',
    );
    assert.match(again, /value="Countess"/);

    // An owner had vouched for an earlier number: the person's new one is unverified.
    const user = await server.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'ada@acme.test')
      .executeTakeFirstOrThrow();
    await server.db
      .updateTable('users')
      .set({ phone_number: '+14155550100', phone_number_verified: 1 })
      .where('id', '=', user.id)
      .execute();
    const saved = await browser.submit(pageUrl, again, details);
    assert.equal(saved.status, 200);
    assert.match(await saved.text(), /Saved\./);
    const row = await server.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [
        row.nickname,
        row.website,
        row.birthdate,
        row.zoneinfo,
        row.locale,
        row.phone_number,
        row.phone_number_verified,
      ],
      ['Countess', 'https://ada.example/', '1815-12-10', 'Europe/London', 'en-GB', '+442079460000', 0],
    );
    assert.deepEqual(JSON.parse(row.address ?? 'null'), {
      street_address: '12 St James’s Square\nFlat 2',
      locality: 'London',
      country: 'UK',
    });

    // Emptied fields clear the claim.
    const cleared = await (await browser.get(pageUrl)).text();
    const emptied = { ...details, nickname: '', locality: '', street_address: '' };
    assert.equal((await browser.submit(pageUrl, cleared, emptied)).status, 200);
    const after = await server.db
      .selectFrom('users')
      .select(['nickname', 'address', 'website'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(after, {
      nickname: null,
      address: JSON.stringify({ country: 'UK' }),
      website: 'https://ada.example/',
    });

    // A form from before the fields existed sends only the names: the claims are kept.
    const older = await (await browser.get(pageUrl)).text();
    const namesOnly = await browser.submit(pageUrl, older, { first_name: 'Ada', last_name: 'King' });
    assert.equal(namesOnly.status, 200);
    const kept = await server.db
      .selectFrom('users')
      .select(['first_name', 'website', 'phone_number'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(kept, {
      first_name: 'Ada',
      website: 'https://ada.example/',
      phone_number: '+442079460000',
    });
  });

  test('an expired key, no cookie, or a missing CSRF token get nowhere', async () => {
    const key = await profileKey();
    const start = Date.now();
    clock.now = () => start + PROFILE_KEY_TTL_MS + 1000;
    assert.equal((await new FormBrowser().get(new URL(`profile?key=${key}`, issuer).href)).status, 400);
    clock.now = () => Date.now();

    assert.equal((await new FormBrowser().get(new URL('profile', issuer).href)).status, 401);
    const browser = new FormBrowser();
    const pageUrl = locationOf(
      await browser.get(new URL(`profile?key=${await profileKey()}`, issuer).href),
      issuer,
    );
    const r = await browser.post(pageUrl, { first_name: 'Mallory', last_name: '' });
    assert.equal(r.status, 403);
    assert.equal((await api(issuer, 'GET', 'users/me', token)).body.firstName === 'Mallory', false);
  });

  test('sign-up from the login page creates the user and a personal tenant, and signs in', async () => {
    const browser = new FormBrowser();
    const a = authorizeUrl(issuer, clientId);
    const loginUrl = locationOf(await browser.get(a.url), issuer);
    const login = await (await browser.get(loginUrl)).text();
    const signupHref = /href="(\/signup\?req=[^"]+)"/.exec(login)?.[1];
    assert.ok(signupHref, 'the login page links to sign-up');
    const signupUrl = new URL(signupHref, issuer).href;
    const form = await (await browser.get(signupUrl)).text();

    const created = await browser.submit(signupUrl, form, {
      email: 'grace@acme.test',
      password: 'a long enough password',
      first_name: 'Grace',
      last_name: 'Hopper',
    });
    assert.equal(created.status, 303);
    // An org's own client asks no consent to the identity scopes: straight back with a code.
    const callback = locationOf(created, signupUrl);
    assert.ok(callback.startsWith(CALLBACK), 'a first-party client asks no consent');
    const code = new URL(callback).searchParams.get('code') as string;
    const tokens = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: a.verifier,
      client_id: clientId,
    });
    const tenants = await api(issuer, 'GET', 'tenants', tokens.body.access_token as string);
    assert.deepEqual(tenants.body, [
      { id: decodeJwt(tokens.body.access_token as string).tnt, name: 'Personal', role: 'owner', logo: null },
    ]);

    // Signed in now: the next authorization goes straight back with a code.
    const again = await signInThroughPages(browser, authorizeUrl(issuer, clientId).url, {
      email: '',
      password: '',
    });
    assert.match(again, /code=tac_/);
  });

  test('sign-up refuses a taken email and a short password, and is closed on the console', async () => {
    const browser = new FormBrowser();
    const url = new URL('signup', issuer).href;
    const form = await (await browser.get(url)).text();
    let r = await browser.submit(url, form, { email: 'ADA@acme.test', password: 'long enough 123' });
    assert.equal(r.status, 409);
    assert.match(await r.text(), /already exists/);
    r = await browser.post(new URL(readForm(form).action, url).href, {
      ...readForm(form).hidden,
      email: 'new@acme.test',
      password: 'short',
    });
    assert.equal(r.status, 400);
    assert.match(await r.text(), /at least 8 characters/);
    const closed = await fetch(`${server.base}/signup`);
    assert.equal(closed.status, 404);
    assert.doesNotMatch(await (await fetch(`${server.base}/login`)).text(), /Create an account/);
  });
});
