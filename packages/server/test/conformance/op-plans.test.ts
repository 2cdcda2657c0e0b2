import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import {
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { clock } from '../../src/domain/clock.js';
import { insertUserWithTenant, prepareUser } from '../../src/domain/directory/users.js';
import { SYSTEM } from '../../src/domain/types.js';
import { FormBrowser, locationOf, readForm } from '../sign-in/support/browser.js';
import { CALLBACK, makeClient, makeOrg, PASSWORD } from '../sign-in/support/fixtures.js';
import { freePort, startServer, type TestServer } from '../support/server.js';

/**
 * The OpenID Foundation's OP certification plans — Basic, Config, Form Post (Basic with
 * `response_mode=form_post`) and RP-Initiated Logout — for the code flow with a static client
 * (client_secret_basic, and client_secret_post where the plan switches), re-stated as this project's
 * own checks, one test per module, named after it, so a regression shows by the module's name. What
 * each test asserts is what the module's conditions assert; where the suite skips a module, the test
 * checks the reason the suite gives. It runs over https: one Tessera behind a TLS terminator on
 * 127.0.0.1 with a certificate made for this run. See packages/server/docs/conformance.md.
 */

const SLUG = 'acme';
const POST_LOGOUT = 'http://127.0.0.1:8765/post_logout_redirect';
const ADA = {
  email: 'ada@acme.test',
  password: PASSWORD,
  firstName: 'Ada',
  lastName: 'Lovelace',
  picture: 'https://people.example/ada.png',
  claims: {
    middleName: 'Augusta',
    nickname: 'Ada',
    preferredUsername: 'ada.l',
    profile: 'https://people.example/ada',
    website: 'https://ada.example/',
    gender: 'female',
    birthdate: '1815-12-10',
    zoneinfo: 'Europe/London',
    locale: 'en-GB',
    phoneNumber: '+442079460000',
    phoneNumberVerified: true,
    address: {
      street_address: '12 St James’s Square',
      locality: 'London',
      postal_code: 'SW1Y 4JH',
      country: 'UK',
    },
  },
};
const CREDENTIALS = { email: ADA.email, password: PASSWORD };
const PROFILE_CLAIMS = [
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'updated_at',
];
const SCOPE_CLAIMS: Record<string, string[]> = {
  profile: PROFILE_CLAIMS,
  email: ['email', 'email_verified'],
  address: ['address'],
  phone: ['phone_number', 'phone_number_verified'],
};

/** A CA and a certificate for localhost and the org's host, made with openssl for this run. */
function makeCertificate(names: string[]): { ca: string; key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-op-plans-'));
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  try {
    run(
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat([
        '-keyout',
        'ca.key',
        '-out',
        'ca.pem',
        '-days',
        '2',
        '-subj',
        '/CN=tessera op-plans test CA',
      ]),
    );
    run(
      ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat([
        '-keyout',
        'site.key',
        '-out',
        'site.csr',
        '-subj',
        '/CN=localhost',
      ]),
    );
    const san = [...names.map((n) => `DNS:${n}`), 'IP:127.0.0.1'].join(',');
    execFileSync('sh', ['-c', `printf 'subjectAltName=${san}\\n' > ext.cnf`], { cwd: dir });
    run(
      ['x509', '-req', '-in', 'site.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'].concat([
        '-out',
        'site.pem',
        '-days',
        '2',
        '-extfile',
        'ext.cnf',
      ]),
    );
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return { ca: read('ca.pem'), key: read('site.key'), cert: read('site.pem') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A TLS terminator: takes https on `port` and pipes the plain bytes to the server's port. */
async function startTerminator(port: number, upstream: number, key: string, cert: string) {
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key, cert }, (socket) => {
    const plain = net.connect(upstream, '127.0.0.1');
    sockets.add(socket).add(plain);
    const drop = () => {
      socket.destroy();
      plain.destroy();
    };
    socket.on('error', drop).on('close', drop);
    plain.on('error', drop).on('close', drop);
    socket.pipe(plain).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** fetch over node:https trusting only the test CA (global fetch cannot take a CA in this Node). */
function httpsFetcher(agent: https.Agent): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    return new Promise<Response>((resolve, reject) => {
      const request = https.request(url, { method: init.method ?? 'GET', headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const out = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : [value ?? '']) out.append(name, v);
          }
          const status = res.statusCode ?? 0;
          const empty = status === 204 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
        });
      });
      request.on('error', reject);
      request.end(body);
    });
  }) as typeof fetch;
}

/** An answer the authorization endpoint sent back to the client, however it travelled. */
interface Answer {
  /** `query` (a 302/303 Location), or `form_post` (an auto-submitting page posting to the redirect URI). */
  via: 'query' | 'form_post';
  to: string;
  params: Record<string, string>;
  loginShown: boolean;
  consentShown: boolean;
}

/** What the browser ended on when the request never went back to the client: an error page. */
interface Page {
  status: number;
  text: string;
}

describe('OpenID Foundation OP plans over https: Basic, Config, Form Post, RP-Initiated Logout', () => {
  let server: TestServer;
  let proxy: { close(): Promise<void> };
  let agent: https.Agent;
  let fetcher: typeof fetch;
  let issuer: string;
  let discovery: Record<string, unknown>;
  let jwks: JSONWebKeySet;
  let clientId: string;
  let secret: string;
  let otherId: string;
  let otherSecret: string;

  before(async () => {
    const tlsPort = await freePort();
    const certificate = makeCertificate(['localhost', `${SLUG}.localhost`]);
    // The public origin comes from TESSERA_URL alone (issuers, endpoints, cookies); the terminator
    // adds no X-Forwarded-* header, so TESSERA_TRUST_PROXY stays 0 (it only picks the client address).
    server = await startServer({ env: { TESSERA_URL: `https://localhost:${tlsPort}` } });
    proxy = await startTerminator(tlsPort, server.port, certificate.key, certificate.cert);
    agent = new https.Agent({ keepAlive: true, ca: certificate.ca });
    fetcher = httpsFetcher(agent);
    issuer = `https://${SLUG}.localhost:${tlsPort}/`;
    const org = await makeOrg(server, SLUG);
    await server.db
      .transaction()
      .execute(async (trx) => insertUserWithTenant(trx, org.id, await prepareUser(ADA), SYSTEM));
    // The suite's static client, as an org owner registers it (the API, the CLI or the console: the
    // org's own, so no consent page for identity scopes, which prompt=none needs): confidential,
    // registered for unsigned request objects and a post-logout redirect URI.
    const made = await makeClient(server.deps, org, {
      name: 'Conformance RP',
      kind: 'confidential',
      redirectUris: [CALLBACK],
      postLogoutRedirectUris: [POST_LOGOUT],
      requestObjectSigningAlg: 'none',
    });
    clientId = made.clientId;
    secret = made.secret ?? '';
    const other = await makeClient(server.deps, org, {
      name: 'Another RP',
      kind: 'confidential',
      firstParty: false,
      redirectUris: [CALLBACK],
    });
    otherId = other.clientId;
    otherSecret = other.secret ?? '';
    discovery = (await (await fetcher(new URL('.well-known/openid-configuration', issuer))).json()) as Record<
      string,
      unknown
    >;
    jwks = (await (await fetcher(String(discovery.jwks_uri))).json()) as JSONWebKeySet;
  });
  after(async () => {
    clock.now = () => Date.now();
    agent?.destroy();
    await proxy?.close();
    await server?.close();
  });

  const browser = () => new FormBrowser(fetcher);
  const endpoint = (name: string) => String(discovery[name]);
  const basic = (id = clientId, key = secret) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(key)}`).toString('base64')}`;

  /** A fresh authorization request of the plan's client: state and nonce new each time. */
  function request(mode: Mode, extra: Record<string, string | null> = {}): Record<string, string> {
    const params: Record<string, string | null> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CALLBACK,
      scope: 'openid',
      state: randomBytes(16).toString('base64url'),
      nonce: randomBytes(16).toString('base64url'),
      ...(mode === 'form_post' ? { response_mode: 'form_post' } : {}),
      ...extra,
    };
    return Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== null));
  }

  const authorizeUrl = (params: Record<string, string>) =>
    `${endpoint('authorization_endpoint')}?${new URLSearchParams(params).toString()}`;

  /**
   * Follows a request through the hosted pages as a browser would: signs in with `who` when the
   * login page comes (or stops there when `who` is null), allows on the consent page, and returns
   * the answer sent back to the client — or the page it ended on.
   */
  async function authorize(
    b: FormBrowser,
    params: Record<string, string>,
    who: { email: string; password: string } | null = CREDENTIALS,
    method: 'GET' | 'POST' = 'GET',
  ): Promise<Answer | Page> {
    let url = authorizeUrl(params);
    let response =
      method === 'POST' ? await b.post(endpoint('authorization_endpoint'), params) : await b.get(url);
    if (method === 'POST') url = endpoint('authorization_endpoint');
    let loginShown = false;
    let consentShown = false;
    for (let step = 0; step < 10; step++) {
      if (response.status === 302 || response.status === 303) {
        const next = locationOf(response, url);
        const at = new URL(next);
        if (next.startsWith(`${new URL(CALLBACK).origin}/`)) {
          const params = Object.fromEntries(at.searchParams);
          return { via: 'query', to: `${at.origin}${at.pathname}`, params, loginShown, consentShown };
        }
        url = next;
        if (at.pathname === '/login' || at.pathname === '/consent') {
          const page = await b.get(url);
          assert.equal(page.status, 200, `${at.pathname} page`);
          const text = await page.text();
          if (at.pathname === '/login') {
            loginShown = true;
            if (who === null) return { status: 200, text };
            response = await b.submit(url, text, who);
          } else {
            consentShown = true;
            response = await b.submit(url, text, { decision: 'allow' });
          }
        } else {
          response = await b.get(url);
        }
        continue;
      }
      const text = await response.text();
      if (response.status === 200 && text.includes('document.forms[0].submit()')) {
        // Form Post Response Mode §2: a page that POSTs (urlencoded: no enctype) to the redirect
        // URI at once, which its CSP lets it do.
        const form = readForm(text);
        assert.doesNotMatch(text, /enctype=/);
        const csp = response.headers.get('content-security-policy') ?? '';
        assert.ok(csp.includes(new URL(form.action).origin), `form-action allows the redirect URI: ${csp}`);
        return { via: 'form_post', to: form.action, params: form.hidden, loginShown, consentShown };
      }
      return { status: response.status, text };
    }
    throw new Error('too many steps');
  }

  /** The answer of a request that must go back to the client, in the mode the plan uses. */
  async function answered(mode: Mode, b: FormBrowser, params: Record<string, string>, who = CREDENTIALS) {
    const answer = await authorize(b, params, who);
    assert.ok('via' in answer, `expected an answer to the client, got ${JSON.stringify(answer)}`);
    assert.equal(answer.via, mode === 'form_post' ? 'form_post' : 'query', 'the response mode');
    assert.equal(answer.to, CALLBACK, 'the registered redirect URI');
    assert.equal(answer.params.iss, issuer, 'RFC 9207 iss');
    assert.equal(answer.params.state, params.state, 'the state, unchanged');
    return answer;
  }

  /** A code answer: no error, a code. */
  async function code(mode: Mode, b: FormBrowser, params: Record<string, string>, who = CREDENTIALS) {
    const answer = await answered(mode, b, params, who);
    assert.equal(answer.params.error, undefined, JSON.stringify(answer.params));
    assert.match(answer.params.code ?? '', /./);
    return answer;
  }

  /** POST /oauth/token, client_secret_basic by default. */
  async function token(
    fields: Record<string, string>,
    auth: 'basic' | 'post' = 'basic',
    id = clientId,
    key = secret,
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams(fields);
    if (auth === 'basic') headers.authorization = basic(id, key);
    else {
      body.set('client_id', id);
      body.set('client_secret', key);
    }
    const response = await fetcher(endpoint('token_endpoint'), {
      method: 'POST',
      headers,
      body: body.toString(),
    });
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  /** A token error as the suite checks it (RFC 6749 §5.2): 400, that error, a description of its characters. */
  function tokenRefused(result: { status: number; body: Record<string, unknown> }, error = 'invalid_grant') {
    assert.equal(result.status, 400, JSON.stringify(result.body));
    assert.equal(result.body.error, error);
    assert.match(String(result.body.error_description ?? 'x'), /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/);
  }

  /** Exchanges a code, checks the token response (OIDC Core §3.1.3.3) and its ID token; both. */
  async function exchange(answer: Answer, params: Record<string, string>, auth: 'basic' | 'post' = 'basic') {
    const { status, body } = await token(
      { grant_type: 'authorization_code', code: answer.params.code ?? '', redirect_uri: CALLBACK },
      auth,
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.match(String(body.token_type), /^bearer$/i);
    assert.equal(typeof body.access_token, 'string');
    assert.equal(typeof body.expires_in, 'number');
    const claims = await verifyIdToken(
      String(body.id_token),
      body.access_token as string,
      params.nonce ?? null,
    );
    return { body, claims };
  }

  /**
   * An ID token as the suite checks it: signed with a key of jwks_uri (kid, RS256), iss, aud
   * (a string or holding the client), sub, exp after iat, iat now, auth_time, nonce as sent,
   * at_hash of the access token (§3.1.3.6); no c_hash from the token endpoint of the code flow.
   */
  async function verifyIdToken(idToken: string, accessToken: string | null, nonce: string | null) {
    const header = decodeProtectedHeader(idToken);
    assert.equal(header.alg, 'RS256');
    assert.ok(
      jwks.keys.some((k) => k.kid === header.kid),
      'kid names a key of jwks_uri',
    );
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), { issuer, audience: clientId });
    assert.equal(typeof payload.sub, 'string');
    assert.ok(
      typeof payload.exp === 'number' && typeof payload.iat === 'number' && payload.exp > payload.iat,
    );
    assert.ok(Math.abs(payload.iat - clock.now() / 1000) < 300, 'iat is now');
    assert.equal(typeof payload.auth_time, 'number');
    if (Array.isArray(payload.aud)) assert.ok(payload.aud.includes(clientId));
    if (nonce === null) assert.equal(payload.nonce, undefined);
    else assert.equal(payload.nonce, nonce);
    if (accessToken !== null) {
      const half = createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
      assert.equal(payload.at_hash, half);
    }
    assert.equal(payload.c_hash, undefined);
    return payload;
  }

  /** Userinfo with the token in a header (GET or POST) or a form body; status and JSON. */
  async function userinfo(accessToken: string, how: 'get' | 'post-header' | 'post-body' = 'get') {
    const init: RequestInit =
      how === 'get'
        ? { headers: { authorization: `Bearer ${accessToken}` } }
        : how === 'post-header'
          ? { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } }
          : {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ access_token: accessToken }).toString(),
            };
    const response = await fetcher(endpoint('userinfo_endpoint'), init);
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: (text ? JSON.parse(text) : null) as Record<string, unknown>,
    };
  }

  /** The happy flow of oidcc-server: request, sign-in, code, exchange; everything it returns. */
  async function signIn(mode: Mode, extra: Record<string, string | null> = {}, b = browser()) {
    const params = request(mode, extra);
    const answer = await code(mode, b, params);
    const { body, claims } = await exchange(answer, params);
    return { b, params, answer, body, claims, accessToken: body.access_token as string };
  }

  /** A code flow of another client of the org (the suite's second client); its token response. */
  async function signInAs(id: string, key: string, mode: Mode, extra: Record<string, string> = {}) {
    const params = request(mode, { client_id: id, ...extra });
    const answer = await code(mode, browser(), params);
    const { status, body } = await token(
      { grant_type: 'authorization_code', code: answer.params.code ?? '', redirect_uri: CALLBACK },
      'basic',
      id,
      key,
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  /**
   * An authorization answer with an error, as the suite's generic error checks take it: that error,
   * no code, no parameter but error, error_description, error_uri, state, session_state and iss,
   * and an error_description of RFC 6749 §4.1.2.1's characters only.
   */
  async function refused(mode: Mode, b: FormBrowser, params: Record<string, string>, error: string) {
    const answer = await answered(mode, b, params);
    assert.equal(answer.params.error, error, JSON.stringify(answer.params));
    assert.equal(answer.params.code, undefined);
    const expected = ['error', 'error_description', 'error_uri', 'state', 'session_state', 'iss'];
    assert.deepEqual(
      Object.keys(answer.params).filter((k) => !expected.includes(k)),
      [],
    );
    assert.match(answer.params.error_description ?? 'x', /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/);
    return answer;
  }

  /** The scopes' claims, present in userinfo (what oidcc-scope-* checks; absence is a warning there). */
  async function scopeModule(mode: Mode, scopes: string[]) {
    const { accessToken, claims } = await signIn(mode, { scope: `openid ${scopes.join(' ')}` });
    const info = await userinfo(accessToken);
    assert.equal(info.status, 200);
    assert.equal(info.body.sub, claims.sub);
    for (const scope of scopes) {
      for (const claim of SCOPE_CLAIMS[scope] ?? [])
        assert.notEqual(info.body[claim], undefined, `${scope}: ${claim}`);
    }
    // The same types in userinfo and the ID token (ValidateIdTokenStandardClaims), updated_at not ahead.
    checkClaimTypes(info.body);
    checkClaimTypes(claims);
    if (claims.updated_at !== undefined) assert.ok(Number(claims.updated_at) <= clock.now() / 1000);
    return info.body;
  }

  type Module = (mode: Mode) => Promise<void>;

  /** The Basic plan's modules (OIDCCBasicTestPlan), in its order; Form Post runs them all again in form_post. */
  const BASIC: [string, Module][] = [
    [
      'oidcc-server',
      async (mode) => {
        const { claims, answer } = await signIn(mode);
        assert.ok(answer.loginShown);
        assert.ok(!answer.consentShown, 'the org’s own client');
        assert.equal(claims.iss, issuer);
      },
    ],
    [
      'oidcc-response-type-missing',
      async (mode) => {
        // The suite takes an error to the redirect URI (invalid_request or unsupported_response_type) or an error page.
        const answer = await refused(
          mode,
          browser(),
          request(mode, { response_type: null }),
          'invalid_request',
        );
        assert.match(answer.params.error_description ?? '', /response_type/);
      },
    ],
    [
      'oidcc-idtoken-signature: not applicable to a static client (the suite runs it after dynamic registration); the ID token is signed, RS256, a kid of jwks_uri',
      async (mode) => {
        const { body } = await signIn(mode);
        const header = decodeProtectedHeader(String(body.id_token));
        assert.notEqual(header.alg, 'none');
        assert.ok((discovery.id_token_signing_alg_values_supported as string[]).includes(String(header.alg)));
      },
    ],
    [
      'oidcc-idtoken-unsigned: not applicable to a static client (the suite runs it after dynamic registration), and skipped anyway: discovery offers no none',
      async (mode) => {
        assert.ok(!(discovery.id_token_signing_alg_values_supported as string[]).includes('none'));
        const { body } = await signIn(mode);
        assert.equal(decodeProtectedHeader(String(body.id_token)).alg, 'RS256');
      },
    ],
    [
      'oidcc-userinfo-get',
      async (mode) => {
        const { accessToken, claims } = await signIn(mode);
        const info = await userinfo(accessToken, 'get');
        assert.equal(info.status, 200);
        assert.match(info.type, /^application\/json/);
        assert.equal(info.body.sub, claims.sub, 'the ID token’s sub');
      },
    ],
    [
      'oidcc-userinfo-post-header',
      async (mode) => {
        const { accessToken, claims } = await signIn(mode);
        const info = await userinfo(accessToken, 'post-header');
        assert.equal(info.status, 200);
        assert.equal(info.body.sub, claims.sub);
      },
    ],
    [
      'oidcc-userinfo-post-body',
      async (mode) => {
        const { accessToken, claims } = await signIn(mode);
        const info = await userinfo(accessToken, 'post-body');
        assert.equal(info.status, 200);
        assert.equal(info.body.sub, claims.sub);
      },
    ],
    [
      'oidcc-ensure-request-without-nonce-succeeds-for-code-flow',
      async (mode) => {
        const { claims } = await signIn(mode, { nonce: null });
        assert.equal(claims.nonce, undefined);
      },
    ],
    ['oidcc-scope-profile', async (mode) => void (await scopeModule(mode, ['profile']))],
    ['oidcc-scope-email', async (mode) => void (await scopeModule(mode, ['email']))],
    [
      'oidcc-scope-address',
      async (mode) => {
        const body = await scopeModule(mode, ['address']);
        assert.equal((body.address as Record<string, string>).locality, 'London');
      },
    ],
    [
      'oidcc-scope-phone',
      async (mode) => {
        const body = await scopeModule(mode, ['phone']);
        assert.equal(body.phone_number, '+442079460000');
        assert.equal(body.phone_number_verified, true);
      },
    ],
    [
      'oidcc-scope-all',
      async (mode) => void (await scopeModule(mode, ['profile', 'email', 'address', 'phone'])),
    ],
    [
      'oidcc-alternate-happy-flow (formerly oidcc-ensure-other-scope-order-succeeds)',
      async (mode) => {
        // oidcc-scope-email with the scopes reversed and the query's parameters in another order.
        const params = Object.fromEntries(Object.entries(request(mode, { scope: 'email openid' })).reverse());
        const answer = await code(mode, browser(), params);
        const { body } = await exchange(answer, params);
        const info = await userinfo(String(body.access_token));
        assert.equal(info.body.email, ADA.email);
        assert.equal(typeof info.body.email_verified, 'boolean');
      },
    ],
    ['oidcc-display-page', async (mode) => void (await signIn(mode, { display: 'page' }))],
    ['oidcc-display-popup', async (mode) => void (await signIn(mode, { display: 'popup' }))],
    [
      'oidcc-prompt-login',
      async (mode) => {
        const first = await signIn(mode);
        moveClock(2_000);
        const params = request(mode, { prompt: 'login' });
        const answer = await code(mode, first.b, params);
        assert.ok(answer.loginShown, 'the login page again, with a signed-in browser');
        const { claims } = await exchange(answer, params);
        assert.equal(claims.sub, first.claims.sub);
        assert.ok(Number(claims.auth_time) > Number(first.claims.auth_time), 'a new auth_time');
      },
    ],
    [
      'oidcc-prompt-none-not-logged-in',
      async (mode) => {
        const answer = await refused(mode, browser(), request(mode, { prompt: 'none' }), 'login_required');
        assert.ok(!answer.loginShown);
      },
    ],
    [
      'oidcc-prompt-none-logged-in',
      async (mode) => {
        const first = await signIn(mode);
        const params = request(mode, { prompt: 'none' });
        const answer = await code(mode, first.b, params);
        assert.ok(!answer.loginShown && !answer.consentShown, 'no page');
        const { claims } = await exchange(answer, params);
        assert.equal(claims.sub, first.claims.sub);
        assert.equal(claims.auth_time, first.claims.auth_time);
      },
    ],
    [
      'oidcc-max-age-1',
      async (mode) => {
        const first = await signIn(mode);
        moveClock(2_000);
        const params = request(mode, { max_age: '1' });
        const answer = await code(mode, first.b, params);
        assert.ok(answer.loginShown, 'a sign-in older than max_age is signed in again');
        const { claims } = await exchange(answer, params);
        assert.ok(Number(claims.auth_time) > Number(first.claims.auth_time));
        assert.ok(
          Number(claims.auth_time) >= Math.floor(clock.now() / 1000) - 1,
          'auth_time is the new sign-in',
        );
      },
    ],
    [
      'oidcc-max-age-10000',
      async (mode) => {
        const first = await signIn(mode);
        moveClock(2_000);
        const params = request(mode, { max_age: '10000' });
        const answer = await code(mode, first.b, params);
        assert.ok(!answer.loginShown);
        const { claims } = await exchange(answer, params);
        assert.equal(claims.auth_time, first.claims.auth_time);
      },
    ],
    [
      'oidcc-ensure-request-with-unknown-parameter-succeeds',
      async (mode) =>
        void (await signIn(mode, { extra: 'foobar', [`x_${randomBytes(4).toString('hex')}`]: 'y' })),
    ],
    [
      'oidcc-id-token-hint',
      async (mode) => {
        const first = await signIn(mode);
        const params = request(mode, { prompt: 'none', id_token_hint: String(first.body.id_token) });
        const answer = await code(mode, first.b, params);
        const { claims } = await exchange(answer, params);
        assert.equal(claims.sub, first.claims.sub);
      },
    ],
    [
      'oidcc-login-hint',
      async (mode) => {
        const b = browser();
        const page = await authorize(b, request(mode, { login_hint: ADA.email }), null);
        assert.ok(
          'text' in page && page.text.includes(`value="${ADA.email}"`),
          'the hint fills the email field',
        );
        await signIn(mode, { login_hint: ADA.email });
      },
    ],
    ['oidcc-ui-locales', async (mode) => void (await signIn(mode, { ui_locales: 'se' }))],
    [
      'oidcc-claims-locales',
      async (mode) => void (await signIn(mode, { claims_locales: 'se', scope: 'openid profile' })),
    ],
    [
      'oidcc-ensure-request-with-acr-values-succeeds',
      async (mode) => {
        // The suite asks for every value of acr_values_supported (else '1 2'); the acr reached is one of them.
        const supported = discovery.acr_values_supported as string[];
        assert.ok(Array.isArray(supported) && supported.length > 0);
        const { claims } = await signIn(mode, { acr_values: supported.join(' ') });
        assert.ok(supported.includes(String(claims.acr)), String(claims.acr));
        await signIn(mode, { acr_values: '1 2' });
      },
    ],
    [
      'oidcc-codereuse',
      async (mode) => {
        const params = request(mode);
        const answer = await code(mode, browser(), params);
        await exchange(answer, params);
        const again = await token({
          grant_type: 'authorization_code',
          code: answer.params.code ?? '',
          redirect_uri: CALLBACK,
        });
        tokenRefused(again);
      },
    ],
    [
      'oidcc-codereuse-30seconds',
      async (mode) => {
        const params = request(mode);
        const answer = await code(mode, browser(), params);
        const { body } = await exchange(answer, params);
        assert.equal((await userinfo(String(body.access_token))).status, 200);
        moveClock(30_000);
        const again = await token({
          grant_type: 'authorization_code',
          code: answer.params.code ?? '',
          redirect_uri: CALLBACK,
        });
        tokenRefused(again);
        // OP-OAuth-2nd-Revokes: what the code gave stops working.
        const after = await userinfo(String(body.access_token));
        assert.equal(after.status, 401);
        const refresh = await token({
          grant_type: 'refresh_token',
          refresh_token: String(body.refresh_token),
        });
        tokenRefused(refresh);
      },
    ],
    [
      'oidcc-ensure-registered-redirect-uri',
      async (mode) => {
        const page = await authorize(
          browser(),
          request(mode, { redirect_uri: 'https://unregistered.example/callback' }),
        );
        assert.ok('status' in page, 'never sent to the unregistered URI');
        assert.equal(page.status, 400);
        assert.match(page.text, /redirect_uri is not registered/);
      },
    ],
    [
      'oidcc-ensure-post-request-succeeds',
      async (mode) => {
        const params = request(mode);
        const answer = await authorize(browser(), params, CREDENTIALS, 'POST');
        assert.ok('via' in answer && answer.params.state === params.state && answer.params.code);
        await exchange(answer, params);
      },
    ],
    [
      'oidcc-server-client-secret-post',
      async (mode) => {
        const params = request(mode);
        const answer = await code(mode, browser(), params);
        await exchange(answer, params, 'post');
      },
    ],
    [
      'oidcc-request-uri-unsigned-supported-correctly-or-rejected-as-unsupported: not applicable to a static client; request_uri_not_supported, as discovery says',
      async (mode) => {
        assert.equal(discovery.request_uri_parameter_supported, false);
        const params = request(mode, { request_uri: 'https://rp.example/request.jwt' });
        await refused(mode, browser(), params, 'request_uri_not_supported');
      },
    ],
    [
      'oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported',
      async (mode) => {
        assert.ok((discovery.request_object_signing_alg_values_supported as string[]).includes('none'));
        // The suite's shape: state, nonce and response_mode only inside the object.
        const params = request(mode);
        const { state, nonce, response_mode, ...query } = params;
        const object = new UnsecuredJWT({ ...params, iss: clientId, aud: issuer }).encode();
        const answer = await authorize(browser(), { ...query, request: object });
        assert.ok('via' in answer);
        assert.equal(answer.via, mode === 'form_post' ? 'form_post' : 'query');
        assert.equal(answer.params.state, state);
        const { claims } = await exchange(answer, params);
        assert.equal(claims.nonce, nonce, 'the object’s nonce');
        // The suite's other outcome, for a client not registered for unsigned objects:
        // request_not_supported, in the object's response mode with its state.
        const theirs = request(mode, { client_id: otherId });
        const { state: theirState, response_mode: _, ...theirQuery } = theirs;
        const unsupported = await authorize(browser(), {
          ...theirQuery,
          request: new UnsecuredJWT({ ...theirs, iss: otherId, aud: issuer }).encode(),
        });
        assert.ok('via' in unsupported);
        assert.equal(unsupported.via, mode === 'form_post' ? 'form_post' : 'query');
        assert.equal(unsupported.params.error, 'request_not_supported');
        assert.equal(unsupported.params.state, theirState);
      },
    ],
    [
      'oidcc-claims-essential',
      async (mode) => {
        const claims = JSON.stringify({ userinfo: { name: { essential: true } } });
        const { accessToken } = await signIn(mode, { claims });
        const info = await userinfo(accessToken);
        assert.equal(info.body.name, 'Ada Augusta Lovelace');
      },
    ],
    [
      'oidcc-ensure-request-object-with-redirect-uri',
      async (mode) => {
        // The registered redirect URI inside the object, an unregistered one in the query: the
        // object's is the request's (OIDC Core §6.1), never the query's.
        const params = request(mode);
        const object = new UnsecuredJWT({ ...params, iss: clientId, aud: issuer }).encode();
        const query = { ...params, redirect_uri: 'https://unregistered.example/callback', request: object };
        const answer = await answered(mode, browser(), query);
        assert.equal(answer.to, CALLBACK);
        assert.match(answer.params.code ?? '', /./);
        await exchange(answer, params);
      },
    ],
    [
      'oidcc-refresh-token',
      async (mode) => {
        // openid offline_access (discovery lists it), with prompt=consent as OIDC Core §11 asks.
        assert.ok((discovery.scopes_supported as string[]).includes('offline_access'));
        const scope = 'openid offline_access';
        const first = await signIn(mode, { scope, prompt: 'consent' });
        assert.ok(first.answer.consentShown, 'prompt=consent shows the consent page');
        const refreshToken = String(first.body.refresh_token);
        // RFC 6749 A.17 characters, and at least 128 bits.
        assert.match(refreshToken, /^[\x20-\x7E]+$/);
        assert.ok(Buffer.byteLength(refreshToken) * 8 >= 128);
        // The suite's second client: its refresh token is refused to the first client (and the reverse).
        const other = await signInAs(otherId, otherSecret, mode, { scope, prompt: 'consent' });
        const crossed = await token({
          grant_type: 'refresh_token',
          refresh_token: String(other.refresh_token),
          scope,
        });
        tokenRefused(crossed);
        const stolen = await token(
          { grant_type: 'refresh_token', refresh_token: refreshToken, scope },
          'basic',
          otherId,
          otherSecret,
        );
        tokenRefused(stolen);
        moveClock(2_000);
        const { status, body } = await token({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          scope,
        });
        assert.equal(status, 200, JSON.stringify(body));
        assert.match(String(body.token_type), /^bearer$/i);
        assert.ok(Number(body.expires_in) > 0);
        assert.notEqual(body.access_token, first.accessToken);
        const claims = await verifyIdToken(String(body.id_token), String(body.access_token), null);
        // CompareIdTokenClaims (OIDC Core §12.2): same iss, sub, aud, auth_time, azp; a later iat.
        for (const name of ['iss', 'sub', 'aud', 'auth_time', 'azp']) {
          assert.deepEqual(claims[name], first.claims[name], name);
        }
        assert.ok(Number(claims.iat) > Number(first.claims.iat));
        assert.equal((await userinfo(String(body.access_token))).status, 200);
      },
    ],
    [
      'oidcc-ensure-request-with-valid-pkce-succeeds',
      async (mode) => {
        const verifier = randomBytes(32).toString('base64url');
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        const params = request(mode, { code_challenge: challenge, code_challenge_method: 'S256' });
        const answer = await code(mode, browser(), params);
        const wrong = await token({
          grant_type: 'authorization_code',
          code: answer.params.code ?? '',
          redirect_uri: CALLBACK,
          code_verifier: 'x'.repeat(43),
        });
        tokenRefused(wrong);
        const again = await code(mode, browser(), params);
        const { status, body } = await token({
          grant_type: 'authorization_code',
          code: again.params.code ?? '',
          redirect_uri: CALLBACK,
          code_verifier: verifier,
        });
        assert.equal(status, 200, JSON.stringify(body));
      },
    ],
  ];

  let offset = 0;
  /** Moves the sign-in clock forward instead of sleeping (max_age, auth_time, 30 seconds). */
  function moveClock(ms: number) {
    offset += ms;
    clock.now = () => Date.now() + offset;
  }

  describe('Basic OP (oidcc-basic-certification-test-plan: code, client_secret_basic, default response mode)', () => {
    for (const [name, run] of BASIC) test(name, () => run('default'));
  });

  describe('Form Post OP (oidcc-formpost-basic-certification-test-plan: the Basic modules, response_mode=form_post)', () => {
    for (const [name, run] of BASIC) test(name, () => run('form_post'));
  });

  describe('Config OP (oidcc-config-certification-test-plan: discovery, static client)', () => {
    test('oidcc-discovery-endpoint-verification', async () => {
      const response = await fetcher(new URL('.well-known/openid-configuration', issuer));
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const metadata = (await response.json()) as Record<string, unknown>;
      // The discovery URL is the issuer's; the issuer an https URL without query or fragment.
      assert.equal(metadata.issuer, issuer);
      const parsed = new URL(issuer);
      assert.equal(parsed.protocol, 'https:');
      assert.equal(parsed.search + parsed.hash, '');
      // Nothing the suite would warn about as unexpected: every name is registered metadata, and of
      // its type in the suite's schema (flags boolean, lists arrays of strings, the rest URLs).
      assert.deepEqual(
        Object.keys(metadata).filter((k) => !REGISTERED_METADATA.has(k) && !DRAFT_METADATA.has(k)),
        [],
      );
      for (const [name, value] of Object.entries(metadata)) {
        if (BOOLEAN_METADATA.has(name)) assert.equal(typeof value, 'boolean', name);
        else if (name.endsWith('_supported')) {
          assert.ok(Array.isArray(value) && value.every((v) => typeof v === 'string'), name);
        } else assert.ok(URL.canParse(String(value)) && typeof value === 'string', name);
      }
      const list = (name: string) => {
        assert.ok(Array.isArray(metadata[name]), `${name} is an array`);
        return metadata[name] as string[];
      };
      assert.ok(list('response_types_supported').includes('code'));
      assert.ok(list('subject_types_supported').includes('public'));
      assert.ok(list('id_token_signing_alg_values_supported').includes('RS256'));
      assert.ok(list('userinfo_signing_alg_values_supported').length > 0);
      // Every endpoint https (authorization, token, userinfo, and the rest).
      const endpoints = Object.keys(metadata).filter((k) => k.endsWith('_endpoint'));
      for (const name of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint']) {
        assert.ok(endpoints.includes(name), name);
      }
      for (const name of [...endpoints, 'jwks_uri']) {
        assert.equal(new URL(String(metadata[name])).protocol, 'https:', name);
      }
      // jwks_uri: public signing keys only, each with a distinct kid, base64url without padding.
      const keys = (await (await fetcher(String(metadata.jwks_uri))).json()) as JSONWebKeySet;
      assert.ok(keys.keys.length > 0);
      assert.equal(new Set(keys.keys.map((k) => k.kid)).size, keys.keys.length, 'distinct kid');
      for (const key of keys.keys) {
        assert.ok(key.kid && key.kty, 'kid and kty');
        assert.ok(key.use === undefined || key.use === 'sig');
        for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'])
          assert.equal(key[secret as 'd'], undefined, secret);
        for (const member of ['n', 'e', 'x', 'y']) {
          const value = key[member as 'n'];
          if (value !== undefined) assert.match(value, /^[A-Za-z0-9_-]+$/, member);
        }
      }
      // Request objects: by value yes, by reference no; RS256 among their algorithms.
      assert.equal(metadata.request_parameter_supported, true);
      assert.equal(metadata.request_uri_parameter_supported, false);
      assert.ok(list('request_object_signing_alg_values_supported').includes('RS256'));
      assert.equal(metadata.claims_parameter_supported, true);
      const claims = list('claims_supported');
      for (const claim of ['sub', 'iss', 'auth_time', 'acr', ...Object.values(SCOPE_CLAIMS).flat()]) {
        assert.ok(claims.includes(claim), claim);
      }
      const grants = list('grant_types_supported');
      assert.ok(grants.includes('authorization_code') && grants.includes('refresh_token'));
      const scopes = list('scopes_supported');
      for (const scope of ['openid', 'profile', 'email', 'address', 'phone', 'offline_access']) {
        assert.ok(scopes.includes(scope), scope);
      }
      for (const scope of scopes)
        assert.match(scope, /^[\x21\x23-\x5B\x5D-\x7E]+$/, 'an RFC 6749 §3.3 scope-token');
      for (const name of ['ui_locales_supported', 'claims_locales_supported']) {
        if (metadata[name] !== undefined)
          for (const tag of list(name)) assert.match(tag, /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/);
      }
      assert.ok(list('code_challenge_methods_supported').includes('S256'));
      assert.ok(list('token_endpoint_auth_methods_supported').includes('client_secret_basic'));
      assert.ok(list('token_endpoint_auth_methods_supported').includes('client_secret_post'));
      assert.ok(list('response_modes_supported').includes('form_post'));
    });
  });

  describe('RP-Initiated Logout OP (oidcc-rp-initiated-logout-certification-test-plan)', () => {
    /** A signed-in browser of the plan's client and its ID token (the suite's first authorization). */
    async function signedIn() {
      const { b, body } = await signIn('default');
      return { b, idToken: String(body.id_token) };
    }

    /** The end-session endpoint with `params`, in `b`. */
    const logout = (b: FormBrowser, params: Record<string, string>) =>
      b.get(`${endpoint('end_session_endpoint')}?${new URLSearchParams(params).toString()}`);

    /** After a logout, prompt=none must answer an error that needs a user interface (login_required). */
    async function loggedOut(b: FormBrowser) {
      await refused('default', b, request('default', { prompt: 'none' }), 'login_required');
    }

    /** Still signed in: prompt=none gives a code. */
    async function stillSignedIn(b: FormBrowser) {
      await code('default', b, request('default', { prompt: 'none' }));
    }

    /** An error page: 400, HTML, no redirect; its text. */
    async function errorPage(response: Response) {
      assert.equal(response.status, 400);
      assert.equal(response.headers.get('location'), null, 'never a redirect');
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      return response.text();
    }

    /** The "Sign out?" page pressed: the "You have signed out" page. */
    async function confirm(b: FormBrowser, response: Response) {
      assert.equal(response.status, 200);
      const page = await response.text();
      assert.match(page, /Sign out\?/);
      const done = await b.submit(endpoint('end_session_endpoint'), page, { confirm: 'yes' });
      if (done.status !== 303) return done;
      // Post, then get: the page is on the issuer's host, never the client's.
      const next = locationOf(done, endpoint('end_session_endpoint'));
      assert.equal(new URL(next).origin, new URL(issuer).origin);
      return b.get(next);
    }

    /** The state the suite makes: 128 characters, to see the OP keeps it whole. */
    const longState = () => randomBytes(96).toString('base64url');

    test('oidcc-rp-initiated-logout-discovery-endpoint-verification', () => {
      assert.equal(new URL(endpoint('end_session_endpoint')).protocol, 'https:');
      assert.equal(new URL(endpoint('end_session_endpoint')).origin, new URL(issuer).origin);
    });

    test('oidcc-rp-initiated-logout', async () => {
      const { b, idToken } = await signedIn();
      const state = longState();
      const response = await logout(b, {
        id_token_hint: idToken,
        post_logout_redirect_uri: POST_LOGOUT,
        state,
      });
      assert.equal(response.status, 303);
      const back = new URL(locationOf(response, endpoint('end_session_endpoint')));
      assert.equal(`${back.origin}${back.pathname}`, POST_LOGOUT);
      assert.deepEqual(
        Object.fromEntries(back.searchParams),
        { state },
        'state, whole, and nothing unexpected',
      );
      await loggedOut(b);
    });

    test('oidcc-rp-initiated-logout-bad-logout-redirect-uri', async () => {
      const { b, idToken } = await signedIn();
      const response = await logout(b, {
        id_token_hint: idToken,
        post_logout_redirect_uri: 'https://unregistered.example/post_logout_redirect',
        state: longState(),
      });
      assert.match(await errorPage(response), /post_logout_redirect_uri/);
      await stillSignedIn(b);
    });

    test('oidcc-rp-initiated-logout-modified-id-token-hint', async () => {
      const { b, idToken } = await signedIn();
      // The suite's ChangeIdTokenToAlgNone: the same claims under alg none, no signature.
      const [, payload] = idToken.split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      const response = await logout(b, {
        id_token_hint: `${header}.${payload}.`,
        post_logout_redirect_uri: POST_LOGOUT,
        state: longState(),
      });
      assert.match(await errorPage(response), /id_token_hint/);
      await stillSignedIn(b);
    });

    test('oidcc-rp-initiated-logout-bad-id-token-hint', async () => {
      const { b, idToken } = await signedIn();
      // The suite's own ID token: the same claims, signed with a key that is not the issuer's.
      const { privateKey } = await generateKeyPair('RS256');
      const fake = await new SignJWT(decodeJwt(idToken) as JWTPayload)
        .setProtectedHeader({ alg: 'RS256', kid: 'fake', typ: 'JWT' })
        .sign(privateKey);
      const response = await logout(b, {
        id_token_hint: fake,
        post_logout_redirect_uri: POST_LOGOUT,
        state: longState(),
      });
      assert.match(await errorPage(response), /id_token_hint/);
      await stillSignedIn(b);
    });

    test('oidcc-rp-initiated-logout-no-id-token-hint', async () => {
      const { b } = await signedIn();
      // post_logout_redirect_uri and state without a hint (and without client_id, as the suite sends it).
      const response = await logout(b, { post_logout_redirect_uri: POST_LOGOUT, state: longState() });
      assert.match(await errorPage(response), /post_logout_redirect_uri/);
      await stillSignedIn(b);
    });

    test('oidcc-rp-initiated-logout-no-params', async () => {
      const { b } = await signedIn();
      const done = await confirm(b, await logout(b, {}));
      assert.equal(done.status, 200);
      assert.match(await done.text(), /You have signed out/);
      await loggedOut(b);
    });

    test('oidcc-rp-initiated-logout-no-post-logout-redirect-uri', async () => {
      const { b, idToken } = await signedIn();
      const response = await logout(b, { id_token_hint: idToken, state: longState() });
      assert.equal(response.status, 200, 'a page, no redirect');
      assert.equal(response.headers.get('location'), null);
      assert.match(await response.text(), /You have signed out/);
      await loggedOut(b);
    });

    test('oidcc-rp-initiated-logout-no-state', async () => {
      const { b, idToken } = await signedIn();
      const response = await logout(b, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT });
      assert.equal(response.status, 303);
      const back = new URL(locationOf(response, endpoint('end_session_endpoint')));
      assert.equal(`${back.origin}${back.pathname}`, POST_LOGOUT);
      assert.deepEqual(Object.fromEntries(back.searchParams), {}, 'no state, nothing unexpected');
      await loggedOut(b);
    });

    test('oidcc-rp-initiated-logout-only-state', async () => {
      const { b } = await signedIn();
      const done = await confirm(b, await logout(b, { state: longState() }));
      assert.equal(done.status, 200);
      assert.equal(done.headers.get('location'), null);
      assert.match(await done.text(), /You have signed out/);
      await loggedOut(b);
    });

    test('oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri', async () => {
      const { b, idToken } = await signedIn();
      const response = await logout(b, {
        id_token_hint: idToken,
        post_logout_redirect_uri: `${POST_LOGOUT}?foo=bar`,
        state: longState(),
      });
      assert.match(await errorPage(response), /post_logout_redirect_uri/);
      await stillSignedIn(b);
    });
  });
});

type Mode = 'default' | 'form_post';

/**
 * The metadata names the suite knows (IANA's OAuth Authorization Server Metadata registry, as the
 * suite's schema lists them); any other name is a warning there.
 */
const REGISTERED_METADATA = new Set(
  (
    'acr_values_supported authorization_endpoint authorization_response_iss_parameter_supported ' +
    'backchannel_logout_session_supported backchannel_logout_supported check_session_iframe ' +
    'claim_types_supported claims_locales_supported claims_parameter_supported claims_supported ' +
    'client_id_metadata_document_supported code_challenge_methods_supported device_authorization_endpoint ' +
    'display_values_supported dpop_signing_alg_values_supported end_session_endpoint ' +
    'frontchannel_logout_session_supported frontchannel_logout_supported grant_types_supported ' +
    'id_token_encryption_alg_values_supported id_token_encryption_enc_values_supported ' +
    'id_token_signing_alg_values_supported introspection_endpoint introspection_endpoint_auth_methods_supported ' +
    'introspection_endpoint_auth_signing_alg_values_supported issuer jwks_uri op_policy_uri op_tos_uri ' +
    'prompt_values_supported pushed_authorization_request_endpoint registration_endpoint ' +
    'request_object_encryption_alg_values_supported request_object_encryption_enc_values_supported ' +
    'request_object_signing_alg_values_supported request_parameter_supported request_uri_parameter_supported ' +
    'require_pushed_authorization_requests require_request_uri_registration require_signed_request_object ' +
    'response_modes_supported response_types_supported revocation_endpoint revocation_endpoint_auth_methods_supported ' +
    'revocation_endpoint_auth_signing_alg_values_supported scopes_supported service_documentation ' +
    'signed_metadata subject_types_supported tls_client_certificate_bound_access_tokens token_endpoint ' +
    'token_endpoint_auth_methods_supported token_endpoint_auth_signing_alg_values_supported ui_locales_supported ' +
    'userinfo_encryption_alg_values_supported userinfo_encryption_enc_values_supported userinfo_endpoint ' +
    'userinfo_signing_alg_values_supported'
  ).split(' '),
);

/**
 * Metadata names not yet in the registry, each defined by an OAuth working group draft that says to
 * advertise it: Enterprise-Managed Authorization's (draft-ietf-oauth-identity-assertion-authz-grant
 * §7, and draft-ietf-oauth-identity-chaining which it cites). The suite warns of them as unknown;
 * they are lists of strings.
 */
const DRAFT_METADATA = new Set([
  'identity_chaining_requested_token_types_supported',
  'authorization_grant_profiles_supported',
]);

/** The registered metadata whose values are booleans; every other `_supported` is a list. */
const BOOLEAN_METADATA = new Set([
  'authorization_response_iss_parameter_supported',
  'backchannel_logout_session_supported',
  'backchannel_logout_supported',
  'claims_parameter_supported',
  'client_id_metadata_document_supported',
  'frontchannel_logout_session_supported',
  'frontchannel_logout_supported',
  'request_parameter_supported',
  'request_uri_parameter_supported',
  'require_pushed_authorization_requests',
  'require_request_uri_registration',
  'require_signed_request_object',
  'tls_client_certificate_bound_access_tokens',
]);

/** OIDC Core §5.1's types, as the suite's ValidateIdTokenStandardClaims and userinfo checks read them. */
function checkClaimTypes(claims: Record<string, unknown>) {
  for (const [name, value] of Object.entries(claims)) {
    if (name === 'email_verified' || name === 'phone_number_verified')
      assert.equal(typeof value, 'boolean', name);
    else if (name === 'updated_at') assert.ok(Number.isInteger(value), name);
    else if (name === 'address') {
      assert.equal(typeof value, 'object', name);
      for (const part of Object.values(value as object)) assert.equal(typeof part, 'string', name);
    } else if (PROFILE_CLAIMS.includes(name) || ['sub', 'email', 'phone_number'].includes(name)) {
      assert.equal(typeof value, 'string', name);
    }
  }
  for (const url of ['profile', 'picture', 'website']) {
    if (claims[url] !== undefined) assert.match(String(claims[url]), /^https?:\/\//, url);
  }
  if (claims.birthdate !== undefined) assert.match(String(claims.birthdate), /^\d{4}(-\d{2}-\d{2})?$/);
}
