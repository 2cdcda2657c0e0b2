import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { clock } from '../../src/domain/clock.js';
import { PASSKEY_CHALLENGE_TTL_MS } from '../../src/domain/tokens-policy.js';
import type { Org } from '../../src/domain/types.js';
import { FormBrowser, locationOf } from '../sign-in/support/browser.js';
import {
  api,
  authorizeUrl,
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  signIn,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { SoftAuthenticator, type SoftCredential } from './support/soft-authenticator.js';

const attribute = (page: string, id: string, name: string) => {
  const tag = new RegExp(`<div id="${id}"[^>]*>`).exec(page)?.[0] ?? '';
  const value = new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  if (value === undefined) throw new Error(`no ${name} on #${id}`);
  return value.replace(/&amp;/g, '&');
};

/** The JSON endpoints of a page's passkey box (`#passkey-sign-in` or `#passkey-register`). */
function boxOf(page: string, id: string, pageUrl: string) {
  return {
    options: new URL(attribute(page, id, 'data-options'), pageUrl).href,
    verify: new URL(attribute(page, id, 'data-verify'), pageUrl).href,
    csrf: attribute(page, id, 'data-csrf'),
  };
}

async function postJson(browser: FormBrowser, url: string, body: unknown) {
  const response = await browser.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    headers: response.headers,
    // biome-ignore lint/suspicious/noExplicitAny: the endpoints' JSON, read field by field in assertions
    body: (await response.json()) as Record<string, any>,
  };
}

for (const database of httpSuite()) {
  describe(`passkey endpoints on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let acme: Org;
    let issuer: string;
    let clientId: string;
    let accessToken: string;
    const authenticator = new SoftAuthenticator();
    let credential: SoftCredential;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      acme = await makeOrg(server, 'acme');
      const beta = await makeOrg(server, 'beta');
      issuer = server.issuer('acme');
      await makeUser(server.deps, acme, 'ada@acme.test');
      await makeUser(server.deps, beta, 'ada@acme.test');
      ({ clientId } = await makeClient(server.deps, acme, { firstParty: true }));
      ({ accessToken } = await signIn(issuer, clientId, 'ada@acme.test'));
    });
    after(async () => {
      if (skip) return;
      await server?.close();
    });

    const origin = (slug: string) => new URL(server.issuer(slug)).origin;

    async function openProfile(browser: FormBrowser) {
      const key = (await api(issuer, 'POST', 'profile/session', accessToken)).body.key as string;
      const url = new URL(`profile?key=${encodeURIComponent(key)}`, issuer).href;
      const profileUrl = locationOf(await browser.get(url), url);
      const page = await (await browser.get(profileUrl)).text();
      return { profileUrl, page, box: boxOf(page, 'passkey-register', profileUrl) };
    }

    async function loginBox(
      browser: FormBrowser,
      slug = 'acme',
      url = new URL('login', server.issuer(slug)).href,
    ) {
      const page = await (await browser.get(url)).text();
      return boxOf(page, 'passkey-sign-in', url);
    }

    async function audit(key: string) {
      const rows = await server.db
        .selectFrom('audit_events')
        .select(['data'])
        .where('org_id', '=', acme.id)
        .where('key', '=', key)
        .orderBy('id')
        .execute();
      return rows.map((r) => r.data);
    }

    test('registration: CSRF token required, one use per challenge, expiry, then stored and audited', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const { box } = await openProfile(browser);
      assert.equal((await postJson(browser, box.options, {})).status, 400);
      assert.equal((await postJson(browser, box.options, { csrf: 'forged' })).status, 403);
      const elsewhere = new FormBrowser();
      assert.equal(
        (await postJson(elsewhere, box.options, { csrf: box.csrf })).status,
        401,
        'no profile cookie',
      );

      // An expired challenge.
      const stale = await postJson(browser, box.options, { csrf: box.csrf });
      assert.equal(stale.status, 200);
      assert.equal(stale.headers.get('cache-control'), 'no-store');
      const staleAnswer = authenticator.create(stale.body.options, origin('acme')).json;
      authenticator.credentials.pop();
      const realNow = clock.now;
      clock.now = () => realNow() + PASSKEY_CHALLENGE_TTL_MS + 1000;
      try {
        const late = await postJson(browser, box.verify, {
          csrf: box.csrf,
          name: 'Late',
          credential: staleAnswer,
        });
        assert.equal(late.status, 400);
        assert.match(late.body.error_detail, /expired/);
      } finally {
        clock.now = realNow;
      }

      const { body } = await postJson(browser, box.options, { csrf: box.csrf });
      const options = body.options;
      assert.equal(options.rp.id, 'acme.localhost');
      assert.deepEqual(options.authenticatorSelection, {
        residentKey: 'required',
        userVerification: 'required',
        requireResidentKey: true,
      });
      const made = authenticator.create(options, origin('acme'));
      credential = made.credential;
      assert.equal(
        (await postJson(browser, box.verify, { csrf: 'forged', name: 'Key', credential: made.json })).status,
        403,
      );
      const added = await postJson(browser, box.verify, {
        csrf: box.csrf,
        name: '  Soft  key ',
        credential: made.json,
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.match(added.body.redirect, /^\/profile\/passkeys\?added=psk_/);
      const replay = await postJson(browser, box.verify, {
        csrf: box.csrf,
        name: 'Again',
        credential: made.json,
      });
      assert.equal(replay.status, 400, 'the challenge was used');

      const page = await (await browser.get(new URL(added.body.redirect, issuer).href)).text();
      assert.match(page, /Passkey “Soft key” added\./);
      const [entry] = await audit('passkey.created');
      assert.ok(entry);
      assert.equal(JSON.parse(entry).name, 'Soft key');
      assert.ok(
        !entry.includes(credential.id) && !/public/i.test(entry),
        'no key material in the audit entry',
      );

      // Excluded from the next registration options (one passkey per authenticator).
      const next = await postJson(browser, box.options, { csrf: box.csrf });
      assert.deepEqual(
        next.body.options.excludeCredentials.map((c: { id: string }) => c.id),
        [credential.id],
      );
    });

    test('sign-in: CSRF, replay, expiry and another org refused; a good answer signs in with hwk/user/mfa', {
      skip,
    }, async () => {
      const browser = new FormBrowser();
      const { url, verifier } = authorizeUrl(issuer, clientId, { scope: 'openid' });
      const loginUrl = locationOf(await browser.get(url), url);
      const box = await loginBox(browser, 'acme', loginUrl);
      assert.equal((await postJson(browser, box.options, { csrf: 'forged' })).status, 403);
      assert.equal(
        (await postJson(new FormBrowser(), box.options, { csrf: box.csrf })).status,
        403,
        'no cookie',
      );

      // Expired.
      const stale = await postJson(browser, box.options, { csrf: box.csrf });
      assert.equal(stale.status, 200, JSON.stringify(stale.body));
      const staleAnswer = authenticator.get(stale.body.options, origin('acme'), credential);
      const realNow = clock.now;
      clock.now = () => realNow() + PASSKEY_CHALLENGE_TTL_MS + 1000;
      try {
        assert.equal(
          (await postJson(browser, box.verify, { csrf: box.csrf, credential: staleAnswer })).status,
          400,
        );
      } finally {
        clock.now = realNow;
      }

      // The challenge is bound to the browser that asked for it.
      const options = (await postJson(browser, box.options, { csrf: box.csrf })).body.options;
      assert.equal(options.rpId, 'acme.localhost');
      assert.equal(options.userVerification, 'required');
      assert.equal(options.allowCredentials, undefined, 'discoverable: no credentials listed');
      const answer = authenticator.get(options, origin('acme'), credential);
      const other = new FormBrowser();
      const otherBox = await loginBox(other);
      const stolen = await postJson(other, otherBox.verify, { csrf: otherBox.csrf, credential: answer });
      assert.equal(stolen.status, 400, 'another browser cannot answer this challenge');
      assert.equal((await postJson(browser, box.verify, { csrf: '', credential: answer })).status, 403);

      const done = await postJson(browser, box.verify, { csrf: box.csrf, credential: answer });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      const replay = await postJson(browser, box.verify, { csrf: box.csrf, credential: answer });
      assert.equal(replay.status, 400);
      // An own client asks no consent, so the first answer already completed the authorization
      // request: the replay is refused for that ("expired or was already used") before the challenge.
      // In these endpoints' own body, which the page's script reads (not OAuth's `error_description`).
      assert.deepEqual(replay.body, {
        error: 'invalid_request',
        error_detail: 'This sign-in link has expired or was already used.',
      });

      // The redirect goes on with the authorization request (consent to openid first, if asked).
      let next = new URL(done.body.redirect, loginUrl).href;
      if (new URL(next).pathname === '/consent') {
        const consent = await (await browser.get(next)).text();
        const csrf = /name="csrf" value="([^"]*)"/.exec(consent)?.[1] ?? '';
        next = locationOf(await browser.post(next, { csrf, decision: 'allow' }), next);
      }
      assert.ok(next.startsWith(CALLBACK), next);
      const tokens = await tokenRequest(issuer, {
        grant_type: 'authorization_code',
        code: new URL(next).searchParams.get('code') ?? '',
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: clientId,
      });
      assert.equal(tokens.status, 200);
      for (const token of [tokens.body.access_token, tokens.body.id_token]) {
        const claims = decodeJwt(token as string);
        assert.deepEqual(claims.amr, ['hwk', 'user', 'mfa']);
        assert.equal(claims.acr, 'urn:tessera:acr:mfa');
      }
      const logins = (await audit('user.login')).filter((d) => d.includes('"hwk"'));
      assert.equal(logins.length, 1);
      assert.equal(JSON.parse(logins[0] ?? '{}').passkeyName, 'Soft key');
      assert.ok(!logins[0]?.includes(credential.id));

      // acme's passkey at beta's host: beta knows no such credential (and its RP id is another).
      const betaBrowser = new FormBrowser();
      const betaBox = await loginBox(betaBrowser, 'beta');
      const betaOptions = (await postJson(betaBrowser, betaBox.options, { csrf: betaBox.csrf })).body.options;
      assert.equal(betaOptions.rpId, 'beta.localhost');
      const foreign = authenticator.get(betaOptions, origin('beta'), credential);
      const refused = await postJson(betaBrowser, betaBox.verify, {
        csrf: betaBox.csrf,
        credential: foreign,
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.unknown_credential, true);
      // Nor does acme take an answer made for beta's relying party or at beta's origin.
      const fresh = new FormBrowser();
      const plain = await loginBox(fresh);
      const ask = async () => {
        const r = await postJson(fresh, plain.options, { csrf: plain.csrf });
        assert.equal(r.status, 200);
        return r.body.options;
      };
      const wrongRp = authenticator.get(
        { ...(await ask()), rpId: 'beta.localhost' },
        origin('acme'),
        credential,
      );
      assert.equal(
        (await postJson(fresh, plain.verify, { csrf: plain.csrf, credential: wrongRp })).status,
        400,
      );
      const wrongOrigin = authenticator.get(await ask(), origin('beta'), credential);
      assert.equal(
        (await postJson(fresh, plain.verify, { csrf: plain.csrf, credential: wrongOrigin })).status,
        400,
      );
      // Still good after those refusals (the counter did not move backwards on a refusal).
      const good = authenticator.get(await ask(), origin('acme'), credential);
      assert.equal((await postJson(fresh, plain.verify, { csrf: plain.csrf, credential: good })).status, 200);
      // The sign-in request was completed: its passkey endpoints now say so.
      assert.equal((await postJson(browser, box.options, { csrf: box.csrf })).status, 400);
    });

    test('removal: audited, and the passkey no longer signs in', { skip }, async () => {
      const browser = new FormBrowser();
      const { page, profileUrl } = await openProfile(browser);
      const form =
        /<form method="post" action="([^"]*passkeys\/remove[^"]*)">\s*<input type="hidden" name="csrf" value="([^"]*)">\s*<input type="hidden" name="passkey" value="([^"]*)">/.exec(
          page,
        );
      assert.ok(form, 'a remove form');
      const [, action = '', csrf = '', id = ''] = form;
      const action_ = new URL(action.replace(/&amp;/g, '&'), profileUrl).href;
      assert.equal((await browser.post(action_, { csrf: 'forged', passkey: id })).status, 403);
      const removed = await browser.post(action_, { csrf, passkey: id });
      assert.equal(removed.status, 200);
      assert.match(await removed.text(), /Passkey “Soft key” removed\./);
      assert.equal((await browser.post(action_, { csrf, passkey: id })).status, 404);
      const [entry] = await audit('passkey.deleted');
      assert.ok(entry && JSON.parse(entry).id === id && !entry.includes(credential.id));

      const login = new FormBrowser();
      const box = await loginBox(login);
      const options = (await postJson(login, box.options, { csrf: box.csrf })).body.options;
      const answer = authenticator.get(options, origin('acme'), credential);
      const refused = await postJson(login, box.verify, { csrf: box.csrf, credential: answer });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.unknown_credential, true);
    });

    test('the script and the pages that load it', { skip }, async () => {
      const browser = new FormBrowser();
      const login = await browser.get(new URL('login', issuer).href);
      const csp = login.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'; connect-src 'self';/);
      const src = /<script src="([^"]+)" defer><\/script>/.exec(await login.text())?.[1] ?? '';
      const script = await fetch(new URL(src, issuer));
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
      assert.match(script.headers.get('cache-control') ?? '', /max-age=86400/);
      // Pages without passkeys run no script.
      const forgot = await browser.get(new URL('password/forgot', issuer).href);
      assert.doesNotMatch(forgot.headers.get('content-security-policy') ?? '', /script-src/);
      // Malformed bodies are refused in words, not with a 500.
      const box = await loginBox(browser);
      for (const body of ['not json', JSON.stringify({ csrf: box.csrf, credential: { id: 'x' } })]) {
        const r = await browser.request(box.verify, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        assert.equal(r.status, 400);
      }
      const form = await browser.post(box.verify, { csrf: box.csrf });
      assert.equal(form.status, 400);
    });
  });
}
