import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import { decodeJwt, exportJWK, generateKeyPair } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { clock } from '../../src/domain/clock.js';
import { updateOrgSettings } from '../../src/domain/directory/org-settings.js';
import { type Org, SYSTEM } from '../../src/domain/types.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { call, consoleOf, ownedOrg } from '../management/support/console.js';
import { databaseSkip, storageSuite, storageTestsOn } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, signInThroughPages } from './support/browser.js';
import { CALLBACK, makeClient, makeUser, PASSWORD, pkcePair } from './support/fixtures.js';

/**
 * Pushed authorization requests (RFC 9126): openid-client and oauth4webapi push with their
 * defaults and sign a person in; the request_uri is single use, short-lived, the pushing client's
 * and its org's only; an org or a client that requires pushing refuses any other request; the
 * endpoint authenticates clients as the token endpoint does.
 */

const REQUEST_URI = /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/;
const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** POST /oauth/par with a form (and an Authorization header); status, headers and JSON. */
async function push(issuer: string, fields: Record<string, string>, authorization?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (authorization) headers.authorization = authorization;
  const response = await fetch(new URL('oauth/par', issuer), {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  // biome-ignore lint/suspicious/noExplicitAny: asserted field by field
  const body = (await response.json()) as any;
  if (typeof body.request_uri === 'string') pushedUris.push(body.request_uri);
  return { status: response.status, headers: response.headers, body };
}

/** Every request_uri the helper above got: the logs must hold none of them. */
const pushedUris: string[] = [];

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** What a browser gets at /oauth/authorize for `query` (no redirect followed). */
async function authorizeWith(issuer: string, query: Record<string, string>, browser = new FormBrowser()) {
  const url = new URL('oauth/authorize', issuer);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return browser.get(url.href);
}

/** An authorization request's parameters with PKCE and a state. */
function codeRequest(clientId: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkcePair();
  const fields = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CALLBACK,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-1',
    ...extra,
  };
  return { fields, verifier };
}

/** The tests whose outcome rests on the database's single-use update: run on PostgreSQL too. */
const STORAGE_TESTS = [
  'a request_uri is used once: the replay is invalid_request_uri',
  'two /oauth/authorize with one request_uri at once: exactly one proceeds',
  'an expired request_uri is refused (60 s)',
  'another org’s issuer does not know the request_uri',
];

for (const database of storageSuite(
  'a request_uri is consumed by one conditional UPDATE … RETURNING (used_at, expires_at, org_id): concurrent uses, expiry and another org’s on each dialect',
))
  describe(`pushed authorization requests (RFC 9126), on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only STORAGE_TESTS run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, STORAGE_TESTS);
    const logs: string[] = [];
    let server: TestServer;
    let issuer: string;
    let acme: Org;
    let spa: string;
    let other: string;
    let web: { clientId: string; secret: string };

    before(async () => {
      if (skip) return;
      // Every answer of a declared operation is checked against its declaration (PAR's included).
      server = await startServer({ database, logs });
      acme = await ownedOrg(server, 'acme');
      issuer = server.issuer('acme');
      await makeUser(server.deps, acme, 'ada@acme.test');
      spa = (await makeClient(server.deps, acme, { name: 'SPA' })).clientId;
      other = (await makeClient(server.deps, acme, { name: 'Other SPA' })).clientId;
      const confidential = await makeClient(server.deps, acme, { name: 'Web', kind: 'confidential' });
      web = { clientId: confidential.clientId, secret: confidential.secret as string };
    });
    after(() => (skip ? undefined : server.close()));

    test('discovery names the endpoint and the org’s requirement', { skip }, async () => {
      const doc = await (await fetch(new URL('.well-known/openid-configuration', issuer))).json();
      assert.equal(doc.pushed_authorization_request_endpoint, `${issuer}oauth/par`);
      assert.equal(doc.require_pushed_authorization_requests, false);
      assert.equal(doc.request_uri_parameter_supported, false);
    });

    test('openid-client buildAuthorizationUrlWithPAR (client_secret_post, its default) signs in', {
      skip,
    }, async () => {
      const config = await oidc.discovery(new URL(issuer), web.clientId, web.secret, undefined, {
        execute: [oidc.allowInsecureRequests],
      });
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = await oidc.buildAuthorizationUrlWithPAR(config, {
        redirect_uri: CALLBACK,
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      // Only client_id and request_uri travel through the browser.
      assert.deepEqual([...url.searchParams.keys()].sort(), ['client_id', 'request_uri']);
      assert.match(url.searchParams.get('request_uri') ?? '', REQUEST_URI);
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      const claims = tokens.claims();
      assert.equal(claims?.iss, issuer);
      assert.equal(claims?.aud, web.clientId);
      assert.equal(claims?.email, 'ada@acme.test');
      assert.equal(decodeJwt(tokens.access_token).client_id, web.clientId);
    });

    test('oauth4webapi pushedAuthorizationRequest + processPushedAuthorizationResponse (public client) signs in', {
      skip,
    }, async () => {
      const as = await oauth.processDiscoveryResponse(
        new URL(issuer),
        await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oidc', ...insecure }),
      );
      const client: oauth.Client = { client_id: spa };
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const response = await oauth.pushedAuthorizationRequest(
        as,
        client,
        oauth.None(),
        {
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'openid',
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          state,
        },
        insecure,
      );
      assert.equal(response.status, 201);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const pushed = await oauth.processPushedAuthorizationResponse(as, client, response);
      assert.match(pushed.request_uri, REQUEST_URI);
      assert.equal(pushed.expires_in, 60);
      const url = new URL(as.authorization_endpoint as string);
      url.searchParams.set('client_id', spa);
      url.searchParams.set('request_uri', pushed.request_uri);
      const callback = await signInThroughPages(new FormBrowser(), url.href, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const params = oauth.validateAuthResponse(as, client, new URL(callback), state);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.None(),
          params,
          CALLBACK,
          verifier,
          insecure,
        ),
      );
      assert.equal(decodeJwt(tokens.access_token).aud, spa);
      assert.equal(decodeJwt(tokens.id_token as string).sub, decodeJwt(tokens.access_token).sub);
    });

    test('the pushed parameters are the request: the query’s others are ignored', { skip }, async () => {
      const { fields } = codeRequest(spa, { state: 'pushed-state' });
      const pushed = await push(issuer, fields);
      assert.equal(pushed.status, 201);
      // A signed-in browser is sent straight back: to the pushed redirect URI, with the pushed state.
      const browser = new FormBrowser();
      await signInThroughPages(browser, (await fetchAuthorizeUrl(spa)).url, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const answer = await authorizeWith(
        issuer,
        {
          client_id: spa,
          request_uri: pushed.body.request_uri,
          state: 'evil-state',
          redirect_uri: 'http://127.0.0.1:9999/evil',
          scope: 'openid email profile',
        },
        browser,
      );
      assert.equal(answer.status, 302);
      const back = new URL(locationOf(answer, issuer));
      assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
      assert.equal(back.searchParams.get('state'), 'pushed-state');
      assert.ok(back.searchParams.get('code'));
    });

    /** A plain authorization URL of `clientId` (for signing a browser in first). */
    async function fetchAuthorizeUrl(clientId: string) {
      const { fields } = codeRequest(clientId);
      const url = new URL('oauth/authorize', issuer);
      for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
      return { url: url.href };
    }

    /** Expects the authorization endpoint's error page naming `situation` (never a redirect). */
    async function refusedPage(response: Response, situation: string) {
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('location'), null);
      assert.equal(response.headers.get('tessera-error-code'), situation);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await response.text(), new RegExp(situation.replace(/\./g, '\\.')));
    }

    test('a signed request object (RFC 9101) may be pushed: its values are the request', {
      skip,
    }, async () => {
      const pair = await generateKeyPair('RS256');
      const stranger = (await generateKeyPair('RS256')).privateKey;
      const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
      const keyed = await makeClient(server.deps, acme, {
        name: 'Keyed web',
        kind: 'confidential',
        jwks: { keys: [jwk] },
      });
      const as = await oauth.processDiscoveryResponse(
        new URL(issuer),
        await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oidc', ...insecure }),
      );
      const client: oauth.Client = { client_id: keyed.clientId };
      const { fields } = codeRequest(keyed.clientId, { state: 'in-the-object' });
      const object = (key: CryptoKey) => oauth.issueRequestObject(as, client, fields, { key, kid: 'k1' });
      const pushedWith = async (key: CryptoKey) =>
        oauth.pushedAuthorizationRequest(
          as,
          client,
          oauth.ClientSecretBasic(keyed.secret as string),
          { request: await object(key) },
          insecure,
        );
      const pushed = await oauth.processPushedAuthorizationResponse(
        as,
        client,
        await pushedWith(pair.privateKey),
      );
      const browser = new FormBrowser();
      await signInThroughPages(browser, (await fetchAuthorizeUrl(spa)).url, {
        email: 'ada@acme.test',
        password: PASSWORD,
      });
      const answer = await authorizeWith(
        issuer,
        { client_id: keyed.clientId, request_uri: pushed.request_uri },
        browser,
      );
      const back = new URL(locationOf(answer, issuer));
      assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
      assert.equal(back.searchParams.get('state'), 'in-the-object');
      assert.ok(back.searchParams.get('code'));
      // private_key_jwt at the push (oauth4webapi's assertion: aud the issuer), with the same object.
      const byAssertion = await oauth.pushedAuthorizationRequest(
        as,
        client,
        oauth.PrivateKeyJwt({ key: pair.privateKey, kid: 'k1' }),
        { request: await object(pair.privateKey) },
        insecure,
      );
      assert.equal(byAssertion.status, 201);
      // Signed with a key the client did not register: refused at the push.
      const forged = await pushedWith(stranger);
      assert.equal(forged.status, 400);
      assert.equal((await forged.json()).error, 'invalid_request_object');
    });

    test('a request_uri is used once: the replay is invalid_request_uri', { skip }, async () => {
      const pushed = await push(issuer, codeRequest(spa).fields);
      const first = await authorizeWith(issuer, { client_id: spa, request_uri: pushed.body.request_uri });
      assert.equal(first.status, 302);
      assert.match(locationOf(first, issuer), /\/login\?/);
      const again = await authorizeWith(issuer, { client_id: spa, request_uri: pushed.body.request_uri });
      await refusedPage(again, 'authorize.request_uri.invalid');
      const [row] = await server.db
        .selectFrom('pushed_authorization_requests')
        .select(['client_id', 'used_at', 'parameters'])
        .where('client_id', '=', spa)
        .where('used_at', 'is not', null)
        .execute();
      assert.ok(row);
      // Only its hash is kept: the random part of the request_uri is nowhere in the row.
      const key = (pushed.body.request_uri as string).split(':').at(-1) as string;
      assert.ok(!JSON.stringify(row).includes(key));
    });

    test('two /oauth/authorize with one request_uri at once: exactly one proceeds', { skip }, async () => {
      for (let round = 0; round < 3; round++) {
        const pushed = await push(issuer, codeRequest(spa).fields);
        const answers = await Promise.all(
          Array.from({ length: 6 }, () =>
            authorizeWith(issuer, { client_id: spa, request_uri: pushed.body.request_uri }),
          ),
        );
        assert.deepEqual(answers.map((a) => a.status).sort(), [302, 400, 400, 400, 400, 400]);
        for (const a of answers) await a.body?.cancel();
      }
    });

    test('an expired request_uri is refused (60 s)', { skip }, async () => {
      const real = clock.now;
      const start = Date.now();
      try {
        clock.now = () => start;
        const pushed = await push(issuer, codeRequest(spa).fields);
        assert.equal(pushed.body.expires_in, 60);
        clock.now = () => start + 60_000;
        const late = await authorizeWith(issuer, { client_id: spa, request_uri: pushed.body.request_uri });
        await refusedPage(late, 'authorize.request_uri.invalid');
        // Just in time still works.
        clock.now = () => start;
        const timely = await push(issuer, codeRequest(spa).fields);
        clock.now = () => start + 59_999;
        const ok = await authorizeWith(issuer, { client_id: spa, request_uri: timely.body.request_uri });
        assert.equal(ok.status, 302);
      } finally {
        clock.now = real;
      }
    });

    test('another client’s request_uri is refused, and used up', { skip }, async () => {
      const pushed = await push(issuer, codeRequest(spa).fields);
      const stolen = await authorizeWith(issuer, { client_id: other, request_uri: pushed.body.request_uri });
      await refusedPage(stolen, 'authorize.request_uri.other_client');
      const after = await authorizeWith(issuer, { client_id: spa, request_uri: pushed.body.request_uri });
      await refusedPage(after, 'authorize.request_uri.invalid');
    });

    test('another org’s issuer does not know the request_uri', { skip }, async () => {
      const beta = await ownedOrg(server, 'beta');
      const betaIssuer = server.issuer('beta');
      const betaSpa = (await makeClient(server.deps, beta, { name: 'Beta SPA' })).clientId;
      const pushed = await push(issuer, codeRequest(spa).fields);
      // Beta's own client with acme's request_uri: unknown there (and acme's stays usable).
      const crossed = await authorizeWith(betaIssuer, {
        client_id: betaSpa,
        request_uri: pushed.body.request_uri,
      });
      await refusedPage(crossed, 'authorize.request_uri.invalid');
      // Acme's client id at beta: no such application there.
      const foreign = await authorizeWith(betaIssuer, {
        client_id: spa,
        request_uri: pushed.body.request_uri,
      });
      await refusedPage(foreign, 'authorize.client.unknown');
      const home = await authorizeWith(issuer, { client_id: spa, request_uri: pushed.body.request_uri });
      assert.equal(home.status, 302);
      // Pushing acme's client to beta's endpoint: unknown client.
      const wrongHost = await push(betaIssuer, codeRequest(spa).fields);
      assert.equal(wrongHost.status, 401);
      assert.equal(wrongHost.body.error, 'invalid_client');
    });

    test('guessed or foreign request_uris are refused', { skip }, async () => {
      const guesses = [
        'urn:ietf:params:oauth:request_uri:',
        `urn:ietf:params:oauth:request_uri:${'A'.repeat(43)}`,
        `urn:ietf:params:oauth:request_uri:${'x'.repeat(4000)}`,
      ];
      for (const request_uri of guesses) {
        await refusedPage(
          await authorizeWith(issuer, { client_id: spa, request_uri }),
          'authorize.request_uri.invalid',
        );
      }
      // Not one of ours: by reference, never fetched (sent back to the client as request_uri_not_supported).
      const byReference = await authorizeWith(issuer, {
        ...codeRequest(spa).fields,
        request_uri: 'https://127.0.0.1:9/request.jwt',
      });
      assert.equal(byReference.status, 302);
      assert.equal(
        new URL(locationOf(byReference, issuer)).searchParams.get('error'),
        'request_uri_not_supported',
      );
    });

    test('the pushed request is checked as /oauth/authorize checks it: 400 JSON, never a redirect', {
      skip,
    }, async () => {
      const cases: [Record<string, string>, string, string][] = [
        [
          { redirect_uri: 'http://127.0.0.1:9999/evil' },
          'invalid_request',
          'authorize.redirect_uri.unregistered',
        ],
        [{ code_challenge: '', code_challenge_method: '' }, 'invalid_request', 'authorize.pkce.required'],
        [{ response_type: 'token' }, 'unsupported_response_type', 'authorize.response_type.unsupported'],
        [{ request_uri: 'urn:ietf:params:oauth:request_uri:x' }, 'invalid_request', 'par.request_uri.given'],
        [{ prompt: 'none login' }, 'invalid_request', 'authorize.prompt.none_combined'],
        [{ request: 'not-a-jwt' }, 'invalid_request_object', 'authorize.request_object.not_jwt'],
      ];
      for (const [extra, error, situation] of cases) {
        const { fields } = codeRequest(spa, extra);
        const answer = await push(
          issuer,
          Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')),
        );
        assert.equal(answer.status, 400, situation);
        assert.equal(answer.headers.get('location'), null);
        assert.equal(answer.body.error, error, situation);
        assert.equal(answer.headers.get('tessera-error-code'), situation);
        assert.equal(typeof answer.body.error_description, 'string');
      }
      // A repeated parameter, as RFC 6749 §3.1 says.
      const body = new URLSearchParams(codeRequest(spa).fields);
      body.append('scope', 'openid');
      body.append('scope', 'email');
      const repeated = await fetch(new URL('oauth/par', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      assert.equal(repeated.status, 400);
      assert.equal((await repeated.json()).error, 'invalid_request');
    });

    test('client authentication is the token endpoint’s: a bad one is 401 invalid_client', {
      skip,
    }, async () => {
      const { fields } = codeRequest(web.clientId);
      const basicOk = await push(issuer, fields, basic(web.clientId, web.secret));
      assert.equal(basicOk.status, 201);
      const wrongBasic = await push(issuer, fields, basic(web.clientId, 'wrong'));
      assert.equal(wrongBasic.status, 401);
      assert.deepEqual(wrongBasic.body, {
        error: 'invalid_client',
        error_description: 'client authentication failed',
      });
      assert.equal(wrongBasic.headers.get('www-authenticate'), `Basic realm="${issuer}"`);
      const wrongPost = await push(issuer, { ...fields, client_secret: 'wrong' });
      assert.equal(wrongPost.status, 401);
      assert.equal(wrongPost.body.error, 'invalid_client');
      // A confidential client that sends no credentials is refused, like at the token endpoint.
      const none = await push(issuer, fields);
      assert.equal(none.status, 401);
      assert.equal(none.body.error, 'invalid_client');
      const unknown = await push(issuer, codeRequest('cli_unknown').fields);
      assert.equal(unknown.status, 401);
      assert.equal(unknown.body.error, 'invalid_client');
      // A public client cannot present a secret it does not have.
      const publicWithSecret = await push(issuer, { ...codeRequest(spa).fields, client_secret: 'x' });
      assert.equal(publicWithSecret.status, 401);
      // Credentials of one client, client_id of another.
      const mixed = await push(issuer, codeRequest(spa).fields, basic(web.clientId, web.secret));
      assert.equal(mixed.status, 400);
      assert.equal(mixed.body.error, 'invalid_request');
    });

    test('a body over 64 KiB is 413, in the OAuth error form', { skip }, async () => {
      const answer = await push(issuer, { ...codeRequest(spa).fields, state: 'x'.repeat(70 * 1024) });
      assert.equal(answer.status, 413);
      assert.equal(answer.body.error, 'invalid_request');
      // Under the limit but over what a state may hold: the authorize rule.
      const long = await push(issuer, { ...codeRequest(spa).fields, state: 'x'.repeat(3000) });
      assert.equal(long.status, 400);
      assert.equal(long.headers.get('tessera-error-code'), 'authorize.state.too_long');
    });

    test('required by a client (owner API), then by the org (settings): plain requests refused with invalid_request', {
      skip,
    }, async () => {
      const console_ = await consoleOf(server);
      const owner = await console_.token('owner@acme.test');
      const strict = await makeClient(server.deps, acme, { name: 'Strict SPA' });
      const set = await call(server, 'PATCH', `/organizations/acme/clients/${strict.clientId}`, owner, {
        require_pushed_authorization_requests: true,
      });
      assert.equal(set.status, 200);
      assert.equal(set.body.require_pushed_authorization_requests, true);

      const plain = codeRequest(strict.clientId, { state: 'plain' }).fields;
      const refused = await authorizeWith(issuer, plain);
      assert.equal(refused.status, 302);
      const back = new URL(locationOf(refused, issuer));
      assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
      assert.equal(back.searchParams.get('error'), 'invalid_request');
      assert.equal(back.searchParams.get('state'), 'plain');
      assert.equal(back.searchParams.get('iss'), issuer);
      assert.equal(refused.headers.get('tessera-error-code'), 'authorize.pushed_request.required');
      // Pushed, the same request goes through; other clients are not concerned.
      const pushed = await push(issuer, plain);
      const via = await authorizeWith(issuer, {
        client_id: strict.clientId,
        request_uri: pushed.body.request_uri,
      });
      assert.equal(via.status, 302);
      assert.match(locationOf(via, issuer), /\/login\?/);
      assert.match(locationOf(await authorizeWith(issuer, codeRequest(spa).fields), issuer), /\/login\?/);

      // The org's setting: every client, and discovery says so.
      const org = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
        require_pushed_authorization_requests: true,
      });
      assert.equal(org.status, 200);
      assert.equal(org.body.require_pushed_authorization_requests, true);
      try {
        const doc = await (await fetch(new URL('.well-known/openid-configuration', issuer))).json();
        assert.equal(doc.require_pushed_authorization_requests, true);
        const spaPlain = await authorizeWith(issuer, codeRequest(spa).fields);
        assert.equal(new URL(locationOf(spaPlain, issuer)).searchParams.get('error'), 'invalid_request');
        const spaPushed = await push(issuer, codeRequest(spa).fields);
        const spaVia = await authorizeWith(issuer, {
          client_id: spa,
          request_uri: spaPushed.body.request_uri,
        });
        assert.match(locationOf(spaVia, issuer), /\/login\?/);
      } finally {
        const off = await call(server, 'PATCH', '/organizations/acme/settings', owner, {
          require_pushed_authorization_requests: false,
        });
        assert.equal(off.body.require_pushed_authorization_requests, false);
      }
      // The console issuer's is not a setting (its own sign-in does not push); the API does not
      // manage the console org, so the refusal is the settings' own.
      const consoleOrg = (await findConsoleOrg(server.db)) ?? assert.fail('no console org');
      await assert.rejects(
        updateOrgSettings(server.deps, consoleOrg, { requirePushedRequests: true }, SYSTEM),
        { situation: 'org.settings.console_pushed_requests' },
      );
    });

    test('the logs hold no request_uri and no client secret', { skip }, async () => {
      assert.ok(pushedUris.length > 10);
      const text = logs.join('\n');
      assert.ok(text.includes('/oauth/par'));
      for (const uri of pushedUris) assert.ok(!text.includes(uri.split(':').at(-1) as string));
      assert.ok(!text.includes(web.secret));
    });
  });
