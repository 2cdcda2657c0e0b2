import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from 'jose';
import * as oauth from 'oauth4webapi';
import * as oidc from 'openid-client';
import { LONGEST_EQUIVALENT_GET } from '../../src/http/sign-in/post-as-get.js';
import { startServer, type TestServer } from '../support/server.js';
import { FormBrowser, locationOf, readForm, signInThroughPages } from './support/browser.js';
import {
  CALLBACK,
  makeClient,
  makeOrg,
  makeUser,
  PASSWORD,
  pkcePair,
  tokenRequest,
} from './support/fixtures.js';

const ADA = { email: 'ada@acme.test', password: PASSWORD };
const OTHER_CALLBACK = 'https://app.example/elsewhere';

/**
 * The OpenID Foundation's conformance modules for the authorization endpoint (OIDC Core §3.1.2.1
 * both methods, §6.1 request objects, Form Post Response Mode), re-stated as this project's own
 * tests and named after the modules, so a regression shows by the module's name. Then real relying
 * parties of other authors with their defaults: openid-client (a signed request object by GET) and
 * oauth4webapi (one POSTed), each through to tokens.
 */
describe('authorization endpoint conformance: POST, request objects, form_post', () => {
  let server: TestServer;
  let issuer: string;
  let publicId: string;
  let keyedId: string;
  let keyedSecret: string;
  // A public client that registered request_object_signing_alg none, and one pinned to ES256.
  let unsignedId: string;
  let pinnedId: string;
  let rsa: CryptoKey;
  let stranger: CryptoKey;
  let es: CryptoKey;

  before(async () => {
    server = await startServer();
    issuer = server.issuer('acme');
    const org = await makeOrg(server, 'acme');
    await makeUser(server.deps, org, ADA.email);
    ({ clientId: publicId } = await makeClient(server.deps, org, {
      name: 'Acme web',
      redirectUris: [CALLBACK, OTHER_CALLBACK],
    }));
    const rsaPair = await generateKeyPair('RS256');
    const esPair = await generateKeyPair('ES256');
    rsa = rsaPair.privateKey;
    es = esPair.privateKey;
    stranger = (await generateKeyPair('RS256')).privateKey;
    const keys: JWK[] = [
      { ...(await exportJWK(rsaPair.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(esPair.publicKey)), kid: 'es-1', alg: 'ES256', use: 'sig' },
    ];
    const keyed = await makeClient(server.deps, org, {
      name: 'Keyed web',
      kind: 'confidential',
      redirectUris: [CALLBACK, OTHER_CALLBACK],
      jwks: { keys },
    });
    keyedId = keyed.clientId;
    keyedSecret = keyed.secret ?? '';
    ({ clientId: unsignedId } = await makeClient(server.deps, org, {
      name: 'Unsigned web',
      redirectUris: [CALLBACK, OTHER_CALLBACK],
      requestObjectSigningAlg: 'none',
    }));
    ({ clientId: pinnedId } = await makeClient(server.deps, org, {
      name: 'Pinned web',
      kind: 'confidential',
      redirectUris: [CALLBACK],
      jwks: { keys },
      requestObjectSigningAlg: 'ES256',
    }));
  });
  after(() => server.close());

  const authorizeEndpoint = () => new URL('oauth/authorize', issuer).href;

  /** The endpoint with `params` in the query. */
  const withQuery = (params: Record<string, string>) =>
    `${authorizeEndpoint()}?${new URLSearchParams(params).toString()}`;

  /** A request's parameters: PKCE, state and nonce fresh each time. */
  function requestParams(clientId: string, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkcePair();
    const params: Record<string, string> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: randomBytes(8).toString('hex'),
      nonce: randomBytes(8).toString('hex'),
      ...extra,
    };
    return { params, verifier };
  }

  /** A request object signed by `key` as a relying party would: iss the client, aud the issuer. */
  function signed(claims: Record<string, unknown>, key: CryptoKey = rsa, kid = 'rsa-1', alg = 'RS256') {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg, kid, typ: 'oauth-authz-req+jwt' });
    if (claims.iss === undefined) jwt.setIssuer(keyedId);
    if (claims.aud === undefined) jwt.setAudience(issuer);
    return jwt.setIssuedAt().setExpirationTime('5m').sign(key);
  }

  /** An unsigned request object (alg none), as the suite's SerializeRequestObjectWithNullAlgorithm. */
  const unsigned = (claims: Record<string, unknown>) => new UnsecuredJWT(claims).encode();

  /** The answer in a redirect to CALLBACK: its query. */
  function redirectedTo(response: Response, callback = CALLBACK): URLSearchParams {
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get('location') ?? '');
    assert.equal(`${location.origin}${location.pathname}`, callback);
    assert.equal(location.searchParams.get('iss'), issuer, 'RFC 9207 iss');
    return location.searchParams;
  }

  /** The answer in a form_post page: the form's fields. */
  async function postedTo(response: Response, callback = CALLBACK): Promise<Record<string, string>> {
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('location'), null);
    const form = readForm(await response.text());
    assert.equal(form.action, callback);
    assert.equal(form.hidden.iss, issuer);
    return form.hidden;
  }

  /** An HTML error page, never a redirect; its text. */
  async function errorPage(response: Response): Promise<string> {
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('location'), null);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    return response.text();
  }

  /** Exchanges a code with the keyed client's secret; the token response. */
  async function exchange(code: string, verifier: string) {
    const { status, body } = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: keyedId,
      client_secret: keyedSecret,
    });
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  test('oidcc-ensure-post-request-succeeds: a form POST is the same request as a GET, through to tokens', async () => {
    const browser = new FormBrowser();
    const { params, verifier } = requestParams(keyedId);
    const posted = await browser.post(authorizeEndpoint(), { ...params, unknown_parameter: 'ignored' });
    assert.equal(posted.status, 303, 'the POST is answered with a GET of the same request');
    const get = locationOf(posted, authorizeEndpoint());
    assert.equal(new URL(get).origin, new URL(issuer).origin, 'on this host');
    assert.deepEqual(
      Object.fromEntries(new URL(get).searchParams),
      params,
      'every known parameter, nothing else',
    );
    const callback = new URL(await signInThroughPages(browser, get, ADA));
    assert.equal(callback.searchParams.get('state'), params.state);
    const tokens = await exchange(callback.searchParams.get('code') ?? '', verifier);
    assert.equal(decodeJwt(tokens.id_token as string).nonce, params.nonce);

    // Signed in now: prompt=none by POST gets a code without a page.
    const again = requestParams(keyedId, { prompt: 'none' });
    const second = await browser.post(authorizeEndpoint(), again.params);
    const answer = redirectedTo(await browser.get(locationOf(second, authorizeEndpoint())));
    assert.match(answer.get('code') ?? '', /^tac_/);
    assert.equal(answer.get('state'), again.params.state);
  });

  test('POST /oauth/authorize keeps the GET rules: repeated client_id, bad redirect_uri, not a form', async () => {
    const { params } = requestParams(publicId);
    const repeated = new URLSearchParams(params);
    repeated.append('client_id', keyedId);
    const posted = await fetch(authorizeEndpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: repeated.toString(),
      redirect: 'manual',
    });
    assert.equal(posted.status, 303);
    const get = locationOf(posted, authorizeEndpoint());
    assert.match(
      await errorPage(await fetch(get, { redirect: 'manual' })),
      /client_id is given more than once/,
    );

    const bad = await new FormBrowser().post(authorizeEndpoint(), {
      ...params,
      redirect_uri: 'https://evil.example/',
    });
    const page = await fetch(locationOf(bad, authorizeEndpoint()), { redirect: 'manual' });
    assert.match(await errorPage(page), /redirect_uri is not registered/);

    const json = await fetch(authorizeEndpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
      redirect: 'manual',
    });
    assert.equal(json.status, 400);
    assert.match(json.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('a POST too long for a URL is answered where it arrives (here: a large signed request object)', async () => {
    const { params } = requestParams(keyedId);
    const request = await signed({ ...params, padding: 'x'.repeat(LONGEST_EQUIVALENT_GET) });
    const posted = await new FormBrowser().post(authorizeEndpoint(), { client_id: keyedId, request });
    assert.equal(posted.status, 302);
    assert.equal(new URL(locationOf(posted, authorizeEndpoint())).pathname, '/login');
  });

  test('an object nesting a parameter thousands deep is invalid_request_object, never a 500', async () => {
    // Anyone may write an object for a client registered for none (its iss and aud are public): a
    // parameter given as an object is written back out as JSON, and one nested 8000 deep (40 kB,
    // inside the 64 kB a form may carry) overflowed the stack doing so.
    const depth = 8000;
    const deep = `${'{"":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    for (const name of ['claims', 'state']) {
      const { params } = requestParams(unsignedId);
      // Written by hand: jose would overflow the test's own stack writing it.
      const claims = JSON.stringify({ ...params, iss: unsignedId, aud: issuer, [name]: 0 });
      const payload = claims.replace(`"${name}":0`, `"${name}":${deep}`);
      const request = `${b64('{"alg":"none"}')}.${b64(payload)}.`;
      const form = { client_id: unsignedId, redirect_uri: CALLBACK, state: 'deep', request };
      const refused = redirectedTo(await new FormBrowser().post(authorizeEndpoint(), form));
      assert.equal(refused.get('error'), 'invalid_request_object', name);
      assert.equal(refused.get('error_description'), `${name} in the request object is nested too deeply`);
      assert.equal(refused.get('state'), 'deep');
    }
  });

  test('oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported: processed for a client registered for none', async () => {
    // The suite's shape: response_mode, state and nonce only inside the object, which has iss and aud.
    const { params, verifier } = requestParams(unsignedId, { response_mode: 'form_post' });
    const { state, nonce, response_mode, ...query } = params;
    const request = unsigned({ ...params, iss: unsignedId, aud: issuer });
    const browser = new FormBrowser();
    const url = withQuery({ ...query, request });
    const response = await browser.get(url);
    const login = locationOf(response, url);
    assert.equal(new URL(login).pathname, '/login');
    const fields = await postedTo(await browser.submit(login, await (await browser.get(login)).text(), ADA));
    assert.equal(fields.state, state, 'the object’s state, by form post');
    const { status, body } = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code: fields.code ?? '',
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: unsignedId,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(decodeJwt(body.id_token as string).nonce, nonce, 'the object’s nonce');

    // Its iss and aud are still checked.
    const wrongAud = unsigned({ ...params, iss: unsignedId, aud: 'https://elsewhere.example/' });
    const refused = redirectedTo(
      await fetch(withQuery({ ...query, state: 'q', request: wrongAud }), { redirect: 'manual' }),
    );
    assert.equal(refused.get('error'), 'invalid_request_object');
    assert.equal(refused.get('state'), 'q', 'an object that does not check out lends its refusal nothing');
  });

  test('oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported: refused by default, in the object’s response_mode with its state', async () => {
    // The suite's shape: response_mode, state and nonce only inside the object.
    const { params } = requestParams(publicId, { response_mode: 'form_post' });
    const { state, nonce, response_mode, ...query } = params;
    const request = unsigned({ ...params, iss: publicId, aud: issuer });
    const response = await fetch(withQuery({ ...query, request }), { redirect: 'manual' });
    const fields = await postedTo(response);
    assert.equal(fields.error, 'request_not_supported');
    assert.equal(fields.state, state, 'the object’s state');
    assert.match(fields.error_description ?? '', /unsigned request objects/);
    assert.equal(fields.code, undefined);

    // Without response_mode in it: back in the query, still with the object's state.
    const plain = requestParams(publicId);
    const { state: plainState, ...plainQuery } = plain.params;
    const refused = await fetch(withQuery({ ...plainQuery, request: unsigned(plain.params) }), {
      redirect: 'manual',
    });
    const answer = redirectedTo(refused);
    assert.equal(answer.get('error'), 'request_not_supported');
    assert.equal(answer.get('state'), plainState);
  });

  test('oidcc-ensure-request-object-with-redirect-uri: the object’s redirect_uri supersedes the query’s', async () => {
    const { params } = requestParams(keyedId, { redirect_uri: OTHER_CALLBACK });
    const query = { ...params, redirect_uri: 'https://evil.example/callback' };
    // Signed: its redirect URI (registered) is the request's.
    const accepted = await fetch(withQuery({ ...query, request: await signed(params) }), {
      redirect: 'manual',
    });
    assert.equal(accepted.status, 302);
    assert.equal(new URL(locationOf(accepted, authorizeEndpoint())).pathname, '/login');
    // Unsigned from a client that did not register none: refused, and not to the object's redirect
    // URI: the query's is not registered, so a page.
    const refused = await fetch(withQuery({ ...query, request: unsigned(params) }), { redirect: 'manual' });
    assert.match(await errorPage(refused), /redirect_uri is not registered/);
    // Unsigned from one that did: its redirect URI is the request's, through to the code.
    const own = requestParams(unsignedId, { redirect_uri: OTHER_CALLBACK }).params;
    const claims = { ...own, iss: unsignedId, aud: issuer };
    const url = withQuery({
      ...own,
      redirect_uri: 'https://evil.example/callback',
      request: unsigned(claims),
    });
    const callback = new URL(await signInThroughPages(new FormBrowser(), url, ADA));
    assert.equal(`${callback.origin}${callback.pathname}`, OTHER_CALLBACK);
    assert.match(callback.searchParams.get('code') ?? '', /^tac_/);
  });

  test('a registered request_object_signing_alg is the only one taken', async () => {
    const { params } = requestParams(pinnedId);
    const rs256 = redirectedTo(
      await fetch(withQuery({ ...params, request: await signed({ ...params, iss: pinnedId }) }), {
        redirect: 'manual',
      }),
    );
    assert.equal(rs256.get('error'), 'invalid_request_object');
    assert.equal(rs256.get('error_description'), 'request objects of this application must use ES256');
    const es256 = await signed({ ...params, iss: pinnedId }, es, 'es-1', 'ES256');
    const accepted = await fetch(withQuery({ ...params, request: es256 }), { redirect: 'manual' });
    assert.equal(new URL(locationOf(accepted, authorizeEndpoint())).pathname, '/login');
    // A client registered for none takes no signed object.
    const own = requestParams(unsignedId).params;
    const signedByNone = redirectedTo(
      await fetch(withQuery({ ...own, request: await signed({ ...own, iss: unsignedId }) }), {
        redirect: 'manual',
      }),
    );
    assert.equal(signedByNone.get('error_description'), 'request objects of this application must use none');
  });

  test('oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported: request_uri_not_supported', async () => {
    const { params } = requestParams(publicId);
    const response = await fetch(withQuery({ ...params, request_uri: 'https://app.example/request.jwt' }), {
      redirect: 'manual',
    });
    const answer = redirectedTo(response);
    assert.equal(answer.get('error'), 'request_uri_not_supported');
    assert.equal(answer.get('state'), params.state);
  });

  test('a signed request object (RS256, jwks): its values supersede the query’s, form_post inside it, through to tokens', async () => {
    const browser = new FormBrowser();
    const { params, verifier } = requestParams(keyedId, { response_mode: 'form_post', max_age: '3600' });
    const request = await signed({ ...params, max_age: 3600 });
    // The query carries only what OAuth requires, and a state the object overrides.
    const url = withQuery({
      client_id: keyedId,
      response_type: 'code',
      scope: 'openid',
      state: 'from-the-query',
      request,
    });
    let response = await browser.get(url);
    const login = locationOf(response, url);
    assert.equal(new URL(login).pathname, '/login');
    response = await browser.submit(login, await (await browser.get(login)).text(), ADA);
    const fields = await postedTo(response);
    assert.equal(fields.state, params.state, 'the object’s state');
    assert.match(fields.code ?? '', /^tac_/);
    const tokens = await exchange(fields.code ?? '', verifier);
    assert.equal(decodeJwt(tokens.id_token as string).nonce, params.nonce, 'the object’s nonce');
  });

  test('a request object that does not verify is invalid_request_object, sent where the query says with its state', async () => {
    const { params } = requestParams(keyedId, { response_mode: 'form_post' });
    const { response_mode, ...query } = params;
    const cases: [string, string | Promise<string>, RegExp][] = [
      ['another key', signed(params, stranger), /does not verify/],
      ['wrong aud', signed({ ...params, aud: `${issuer}other` }), /does not verify/],
      ['wrong iss', signed({ ...params, iss: publicId }), /does not verify/],
      [
        'HS256',
        new SignJWT(params)
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuer(keyedId)
          .setAudience(issuer)
          .sign(new Uint8Array(32)),
        /must use RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA$/,
      ],
      [
        'expired',
        new SignJWT(params)
          .setProtectedHeader({ alg: 'RS256', kid: 'rsa-1' })
          .setIssuer(keyedId)
          .setAudience(issuer)
          .setExpirationTime(Math.floor(Date.now() / 1000) - 120)
          .sign(rsa),
        /expired/,
      ],
      ['another client_id', signed({ ...params, client_id: publicId }), /another client_id/],
      ['another response_type', signed({ ...params, response_type: 'token' }), /another response_type/],
      [
        'request_uri inside',
        signed({ ...params, request_uri: 'https://app.example/r' }),
        /must not hold request/,
      ],
      ['a NUL inside', signed({ ...params, login_hint: 'a\u0000b' }), /NUL/],
      ['an array', signed({ ...params, prompt: ['login'] }), /prompt in the request object must be a string/],
      ['encrypted', 'a.b.c.d.e', /encrypted/],
      ['not a JWT', 'not-a-jwt', /not a JWT/],
    ];
    for (const [what, request, description] of cases) {
      const response = await fetch(withQuery({ ...query, request: await request }), { redirect: 'manual' });
      const answer = redirectedTo(response);
      assert.equal(answer.get('error'), 'invalid_request_object', what);
      assert.match(answer.get('error_description') ?? '', description, what);
      assert.equal(answer.get('state'), params.state, what);
      assert.equal(answer.get('code'), null, what);
    }
    // A client with no registered keys cannot send one; request with request_uri is invalid_request.
    const publicQuery = requestParams(publicId).params;
    const noKeys = redirectedTo(
      await fetch(withQuery({ ...publicQuery, request: await signed(publicQuery, rsa, 'rsa-1') }), {
        redirect: 'manual',
      }),
    );
    assert.equal(noKeys.get('error'), 'invalid_request_object');
    assert.match(noKeys.get('error_description') ?? '', /no registered keys/);
    const both = redirectedTo(
      await fetch(
        withQuery({ ...query, request: await signed(params), request_uri: 'https://app.example/r' }),
        {
          redirect: 'manual',
        },
      ),
    );
    assert.equal(both.get('error'), 'invalid_request');
  });

  test('errors of a verified object’s parameters travel in its response_mode (form_post) with its state', async () => {
    const { params } = requestParams(keyedId, { response_mode: 'form_post', prompt: 'sometimes' });
    const response = await fetch(withQuery({ client_id: keyedId, request: await signed(params) }), {
      redirect: 'manual',
    });
    const fields = await postedTo(response);
    assert.equal(fields.error, 'invalid_request');
    assert.equal(fields.state, params.state);
    assert.match(fields.error_description ?? '', /prompt sometimes/);
  });

  test('openid-client with its defaults: buildAuthorizationUrlWithJAR (ES256, private_key_jwt) through to tokens', async () => {
    const config = await oidc.discovery(
      new URL(issuer),
      keyedId,
      undefined,
      oidc.PrivateKeyJwt({ key: es, kid: 'es-1' }),
      { execute: [oidc.allowInsecureRequests] },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = await oidc.buildAuthorizationUrlWithJAR(
      config,
      {
        redirect_uri: CALLBACK,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      },
      { key: es, kid: 'es-1' },
    );
    assert.deepEqual(
      [...url.searchParams.keys()].sort(),
      ['client_id', 'request'],
      'everything in the object',
    );
    const callback = await signInThroughPages(new FormBrowser(), url.href, ADA);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    assert.equal(tokens.claims()?.nonce, nonce);
    assert.equal(typeof tokens.access_token, 'string');
  });

  test('oauth4webapi with its defaults: issueRequestObject POSTed to the authorization endpoint, through to tokens', async () => {
    const as = await oauth.processDiscoveryResponse(
      new URL(issuer),
      await oauth.discoveryRequest(new URL(issuer), { [oauth.allowInsecureRequests]: true }),
    );
    assert.equal(as.request_parameter_supported, true);
    const client: oauth.Client = { client_id: keyedId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const request = await oauth.issueRequestObject(
      as,
      client,
      new URLSearchParams({
        response_type: 'code',
        redirect_uri: CALLBACK,
        scope: 'openid',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        response_mode: 'form_post',
      }),
      { key: rsa, kid: 'rsa-1' },
    );
    const browser = new FormBrowser();
    const posted = await browser.post(as.authorization_endpoint ?? '', { client_id: keyedId, request });
    assert.equal(posted.status, 303);
    let url = locationOf(posted, as.authorization_endpoint ?? '');
    let response = await browser.get(url);
    url = locationOf(response, url);
    response = await browser.submit(url, await (await browser.get(url)).text(), ADA);
    const fields = await postedTo(response);
    const params = oauth.validateAuthResponse(as, client, new URLSearchParams(fields), state);
    const tokenResponse = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(keyedSecret),
      params,
      CALLBACK,
      verifier,
      { [oauth.allowInsecureRequests]: true },
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    assert.equal(typeof result.access_token, 'string');
    assert.equal(oauth.getValidatedIdTokenClaims(result)?.nonce, nonce);
  });
});
