import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { clock } from '../src/domain/clock.js';
import { JWT_BEARER_ASSERTION } from '../src/domain/tokens/client-assertions.js';
import { call, consoleOf, ownedOrg } from './management/support/console.js';
import { FormBrowser, signInThroughPages } from './sign-in/support/browser.js';
import { authorizeUrl, CALLBACK, makeClient, makeUser, PASSWORD } from './sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from './support/databases.js';
import { orgWithMachineClient } from './support/fixtures.js';
import { startServer, type TestServer } from './support/server.js';

type Body = Record<string, unknown>;

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/**
 * Client authentication at /oauth/token, /oauth/revoke and /oauth/introspect (DESIGN §14):
 * client_secret_basic, client_secret_post, private_key_jwt with keys registered through the
 * management API, none; and RFC 7662 introspection. On both databases: the keys and the used
 * assertion ids are stored.
 */
for (const database of httpSuite()) {
  describe(`client authentication and introspection on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let issuer: string;
    let machine: Awaited<ReturnType<typeof orgWithMachineClient>>;
    let beta: Awaited<ReturnType<typeof orgWithMachineClient>>;
    let ownerToken: string;
    let keyClientId: string;
    let privateKey: CryptoKey;
    let publicJwk: JWK;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      const org = await ownedOrg(server, 'acme');
      issuer = server.issuer('acme');
      machine = { ...(await orgWithMachineClientIn(server, org)), org, issuer };
      beta = await orgWithMachineClient(server.deps, 'beta');
      ownerToken = await (await consoleOf(server)).token('owner@acme.test');
      const pair = await generateKeyPair('ES256');
      privateKey = pair.privateKey;
      publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1' };
      const created = await call(server, 'POST', '/organizations/acme/clients', ownerToken, {
        client_name: 'Keyed service',
        type: 'confidential',
        jwks: { keys: [publicJwk] },
      });
      assert.equal(created.status, 201, created.text);
      keyClientId = created.body.client_id;
    });
    after(async () => {
      clock.now = () => Date.now();
      if (!skip) await server.close();
    });

    async function post(path: string, form: string | Record<string, string>, headers: Body = {}) {
      const res = await fetch(new URL(path, issuer), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          ...(headers as Record<string, string>),
        },
        body: typeof form === 'string' ? form : new URLSearchParams(form),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Body };
    }

    /** A client assertion of the keyed client; `claims` replace the defaults (aud the issuer, 5 minutes). */
    const assertion = (claims: Body = {}, key: CryptoKey = privateKey) => {
      const iat = Math.floor(Date.now() / 1000);
      return new SignJWT({
        jti: randomUUID(),
        iss: keyClientId,
        sub: keyClientId,
        aud: issuer,
        iat,
        exp: iat + 300,
        ...claims,
      })
        .setProtectedHeader({ alg: 'ES256' })
        .sign(key);
    };

    const withAssertion = (jwt: string, extra: Record<string, string> = {}) => ({
      client_assertion_type: JWT_BEARER_ASSERTION,
      client_assertion: jwt,
      ...extra,
    });

    const invalidClient = { error: 'invalid_client', error_description: 'client authentication failed' };
    /** The refusal of an assertion whose signature held: the generic words, then why. */
    const refusedBecause = (why: string) => ({
      error: 'invalid_client',
      error_description: `client authentication failed: ${why}`,
    });
    const ALREADY_USED = 'the client assertion was already used (its jti is single use)';

    test('client_secret_basic: id and secret form-urlencoded before base64 (RFC 6749 §2.3.1)', {
      skip,
    }, async () => {
      const ok = await post(
        'oauth/token',
        { grant_type: 'client_credentials' },
        {
          authorization: basic(machine.clientId, machine.clientSecret),
        },
      );
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(decodeJwt(ok.body.access_token as string).client_id, machine.clientId);
      // The same secret with one character percent-encoded, as a form encoder may: decoded first.
      const encoded = `%${machine.clientSecret.charCodeAt(0).toString(16)}${machine.clientSecret.slice(1)}`;
      const header = `Basic ${Buffer.from(`${machine.clientId}:${encoded}`).toString('base64')}`;
      const decoded = await post(
        'oauth/token',
        { grant_type: 'client_credentials' },
        { authorization: header },
      );
      assert.equal(decoded.status, 200);
      // A client_id in the body beside Basic is fine when it is the same client.
      const both = await post(
        'oauth/token',
        { grant_type: 'client_credentials', client_id: machine.clientId },
        { authorization: basic(machine.clientId, machine.clientSecret) },
      );
      assert.equal(both.status, 200);
    });

    test('a failed Basic authentication is 401 invalid_client with a Basic challenge naming the issuer', {
      skip,
    }, async () => {
      const headers = [
        basic(machine.clientId, `${machine.clientSecret}x`),
        basic('cli_unknown', machine.clientSecret),
        `Basic ${Buffer.from(machine.clientId).toString('base64')}`,
        'Basic !!!',
        'Bearer abc',
      ];
      for (const authorization of headers) {
        for (const path of ['oauth/token', 'oauth/revoke', 'oauth/introspect']) {
          const res = await post(path, { grant_type: 'client_credentials', token: 'x' }, { authorization });
          assert.equal(res.status, 401, `${path} ${authorization}`);
          assert.equal(res.headers.get('www-authenticate'), `Basic realm="${issuer}"`);
          assert.equal(res.headers.get('cache-control'), 'no-store');
          assert.deepEqual(res.body, invalidClient);
        }
      }
      // A wrong secret in the body is 401 too, without a challenge: nothing was tried in the header.
      const posted = await post('oauth/token', {
        grant_type: 'client_credentials',
        client_id: machine.clientId,
        client_secret: 'tcs_wrong',
      });
      assert.equal(posted.status, 401);
      assert.equal(posted.headers.get('www-authenticate'), null);
    });

    test('more than one authentication method is invalid_request', { skip }, async () => {
      const jwt = await assertion();
      const cases: [Record<string, string>, Body][] = [
        [
          {
            grant_type: 'client_credentials',
            client_id: machine.clientId,
            client_secret: machine.clientSecret,
          },
          { authorization: basic(machine.clientId, machine.clientSecret) },
        ],
        [
          { grant_type: 'client_credentials', ...withAssertion(jwt) },
          { authorization: basic(keyClientId, 'x') },
        ],
        [{ grant_type: 'client_credentials', client_secret: 'tcs_x', ...withAssertion(jwt) }, {}],
      ];
      for (const [form, headers] of cases) {
        const res = await post('oauth/token', form, headers);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, {
          error: 'invalid_request',
          error_description: 'use one client authentication method per request',
        });
      }
      const otherId = await post(
        'oauth/token',
        { grant_type: 'client_credentials', client_id: keyClientId },
        { authorization: basic(machine.clientId, machine.clientSecret) },
      );
      assert.equal(otherId.status, 400);
      assert.equal(otherId.body.error, 'invalid_request');
    });

    test('private_key_jwt: a jose-signed assertion gets a token once; its jti is stored until it expires', {
      skip,
    }, async () => {
      const jwt = await assertion();
      const first = await post('oauth/token', { grant_type: 'client_credentials', ...withAssertion(jwt) });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const claims = decodeJwt(first.body.access_token as string);
      assert.equal(claims.sub, keyClientId);
      assert.equal(claims.client_id, keyClientId);
      const replay = await post('oauth/token', { grant_type: 'client_credentials', ...withAssertion(jwt) });
      assert.equal(replay.status, 401);
      assert.deepEqual(replay.body, refusedBecause(ALREADY_USED));
      assert.equal(replay.headers.get('www-authenticate'), null);
      const stored = await server.db
        .selectFrom('client_assertion_jtis')
        .selectAll()
        .where('client_id', '=', keyClientId)
        .execute();
      assert.equal(stored.length, 1);
      assert.equal(stored[0]?.org_id, machine.org.id);
      assert.match(stored[0]?.jti_hash ?? '', /^[0-9a-f]{64}$|^[\w-]{43}$/, 'the jti is stored hashed');
      assert.ok(Math.abs(Number(stored[0]?.expires_at) - ((claims.iat as number) + 300) * 1000) < 10_000);

      // `aud` may also be the token endpoint's URL, and client_id may name the same client.
      const toEndpoint = await post('oauth/token', {
        grant_type: 'client_credentials',
        client_id: keyClientId,
        ...withAssertion(await assertion({ aud: `${issuer}oauth/token` })),
      });
      assert.equal(toEndpoint.status, 200, JSON.stringify(toEndpoint.body));
    });

    test("private_key_jwt: an assertion signed for an hour (Authlib's default) is accepted, its jti kept until its exp", {
      skip,
    }, async () => {
      try {
        const now = Math.floor(Date.now() / 1000);
        // An hour, and an hour with a client clock 50 s ahead (within the 60 s of skew on that bound).
        for (const exp of [now + 3600, now + 3650]) {
          const jwt = await assertion({ exp });
          const first = await post('oauth/token', {
            grant_type: 'client_credentials',
            ...withAssertion(jwt),
          });
          assert.equal(first.status, 200, JSON.stringify(first.body));
          const [row] = await server.db
            .selectFrom('client_assertion_jtis')
            .select('expires_at')
            .where('client_id', '=', keyClientId)
            .orderBy('expires_at', 'desc')
            .limit(1)
            .execute();
          assert.equal(Number(row?.expires_at), (exp + 5) * 1000, 'kept until exp and its 5 s of skew');
          // 55 minutes on, the assertion would still be accepted: so its jti is still refused.
          clock.now = () => Date.now() + 55 * 60_000;
          const replay = await post('oauth/token', {
            grant_type: 'client_credentials',
            ...withAssertion(jwt),
          });
          assert.equal(replay.status, 401);
          assert.deepEqual(replay.body, refusedBecause(ALREADY_USED));
          // Once past its exp it is refused as expired, and its jti may go.
          clock.now = () => (exp + 6) * 1000;
          const late = await post('oauth/token', { grant_type: 'client_credentials', ...withAssertion(jwt) });
          assert.deepEqual(late.body, refusedBecause('the client assertion has expired'));
          clock.now = () => Date.now();
        }
      } finally {
        clock.now = () => Date.now();
      }
    });

    test('private_key_jwt refusals say why once the signature holds: audience, lifetime over 60 minutes, expired, no jti; wrong key, subject or a request object stay generic', {
      skip,
    }, async () => {
      const other = await generateKeyPair('ES256');
      const now = Math.floor(Date.now() / 1000);
      const bad: [string, typeof invalidClient][] = [
        // Nothing is said to a sender that has not proved it holds the client's key.
        [await assertion({}, other.privateKey), invalidClient],
        // The machine client (named by sub) has no keys.
        [await assertion({ sub: machine.clientId }), invalidClient],
        [
          await assertion({ aud: 'https://elsewhere.example/' }),
          refusedBecause(
            "the client assertion's aud is neither the issuer nor the URL of the token endpoint or of the endpoint called",
          ),
        ],
        [
          await assertion({ exp: now + 3600 + 120 }),
          refusedBecause(
            "the client assertion's exp is more than 60 minutes ahead; sign it for at most 60 minutes",
          ),
        ],
        [
          await assertion({ exp: now - 60, iat: now - 120 }),
          refusedBecause('the client assertion has expired'),
        ],
        [
          await assertion({ nbf: now + 600 }),
          refusedBecause("the client assertion's nbf claim is not valid"),
        ],
        [
          await new SignJWT({})
            .setProtectedHeader({ alg: 'ES256' })
            .setIssuer(keyClientId)
            .setSubject(keyClientId)
            .setAudience(issuer)
            .setExpirationTime('1m')
            .sign(privateKey),
          refusedBecause('the client assertion has no jti claim'),
        ],
        [await assertion({ jti: '' }), refusedBecause('the client assertion has no jti claim')],
        // A request object (RFC 9101) is no client assertion, even signed with the client's key and
        // carrying sub and jti: it travels through the browser (cross-JWT confusion).
        [await assertion({ response_type: 'code', client_id: keyClientId }), invalidClient],
        [
          await new SignJWT({ jti: randomUUID() })
            .setProtectedHeader({ alg: 'ES256', typ: 'oauth-authz-req+jwt' })
            .setIssuer(keyClientId)
            .setSubject(keyClientId)
            .setAudience(issuer)
            .setExpirationTime('1m')
            .sign(privateKey),
          invalidClient,
        ],
      ];
      for (const [jwt, answer] of bad) {
        const res = await post('oauth/token', { grant_type: 'client_credentials', ...withAssertion(jwt) });
        assert.equal(res.status, 401, JSON.stringify(decodeJwt(jwt)));
        assert.deepEqual(res.body, answer);
        // RFC 6749 §5.2: error_description is printable ASCII without a double quote or backslash.
        assert.match(res.body.error_description as string, /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
      }
      // A client with no registered keys cannot use private_key_jwt.
      const noKeys = await new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256' })
        .setIssuer(machine.clientId)
        .setSubject(machine.clientId)
        .setAudience(issuer)
        .setExpirationTime('1m')
        .sign(privateKey);
      const res = await post('oauth/token', { grant_type: 'client_credentials', ...withAssertion(noKeys) });
      assert.equal(res.status, 401);
      const wrongType = await post('oauth/token', {
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:example:saml',
        client_assertion: await assertion(),
      });
      assert.equal(wrongType.status, 400);
      assert.equal(wrongType.body.error, 'invalid_request');
    });

    test('management API: jwks stored and shown; refused when private, on a public client; null removes', {
      skip,
    }, async () => {
      const shown = await call(server, 'GET', `/organizations/acme/clients/${keyClientId}`, ownerToken);
      assert.deepEqual(shown.body.jwks, { keys: [publicJwk] });
      const row = await server.db
        .selectFrom('clients')
        .select('jwks')
        .where('id', '=', keyClientId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.jwks ?? 'null'), { keys: [publicJwk] });
      const machineView = await call(
        server,
        'GET',
        `/organizations/acme/clients/${machine.clientId}`,
        ownerToken,
      );
      assert.equal('jwks' in machineView.body, false, 'no jwks field for a client without keys');

      const { privateKey: priv } = await generateKeyPair('ES256', { extractable: true });
      const refused = [
        { client_name: 'x', type: 'confidential', jwks: { keys: [await exportJWK(priv)] } },
        { client_name: 'x', type: 'public', redirect_uris: [CALLBACK], jwks: { keys: [publicJwk] } },
        { client_name: 'x', type: 'confidential', jwks: { keys: [] } },
        { client_name: 'x', type: 'confidential', jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } },
      ];
      for (const body of refused) {
        const res = await call(server, 'POST', '/organizations/acme/clients', ownerToken, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, 'invalid_request');
        assert.match(res.body.error_detail, /jwks/);
      }

      const second = await generateKeyPair('ES256');
      const secondJwk = { ...(await exportJWK(second.publicKey)), kid: 'k2' };
      const patched = await call(server, 'PATCH', `/organizations/acme/clients/${keyClientId}`, ownerToken, {
        jwks: { keys: [secondJwk] },
      });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.body.jwks, { keys: [secondJwk] });
      const withNew = await post('oauth/token', {
        grant_type: 'client_credentials',
        ...withAssertion(await assertion({}, second.privateKey)),
      });
      assert.equal(withNew.status, 200, 'the new key works at once');
      const withOld = await post('oauth/token', {
        grant_type: 'client_credentials',
        ...withAssertion(await assertion()),
      });
      assert.equal(withOld.status, 401, 'the replaced key no longer does');

      const removed = await call(server, 'PATCH', `/organizations/acme/clients/${keyClientId}`, ownerToken, {
        jwks: null,
      });
      assert.equal(removed.status, 200);
      assert.equal('jwks' in removed.body, false);
      const none = await post('oauth/token', {
        grant_type: 'client_credentials',
        ...withAssertion(await assertion({}, second.privateKey)),
      });
      assert.equal(none.status, 401);
      const restored = await call(server, 'PATCH', `/organizations/acme/clients/${keyClientId}`, ownerToken, {
        jwks: { keys: [publicJwk] },
      });
      assert.equal(restored.status, 200);
    });

    test('introspection: active machine and user tokens with their claims; a refresh token to its holder', {
      skip,
    }, async () => {
      const { user, web } = await signedInUser();
      const asMachine = { client_id: machine.clientId, client_secret: machine.clientSecret };
      const machineToken = (await post('oauth/token', { grant_type: 'client_credentials', ...asMachine }))
        .body.access_token as string;

      const m = await post('oauth/introspect', { token: machineToken, ...asMachine });
      assert.equal(m.status, 200);
      assert.equal(m.headers.get('cache-control'), 'no-store');
      const expected: Body = { active: true, ...decodeJwt(machineToken), token_type: 'Bearer' };
      assert.deepEqual(m.body, expected);
      assert.equal(expected.client_id, machine.clientId);

      // Any authentication method; the user's access token is the org's, so any of its confidential clients may ask.
      const u = await post(
        'oauth/introspect',
        { token: user.access_token as string, token_type_hint: 'access_token' },
        { authorization: basic(machine.clientId, machine.clientSecret) },
      );
      assert.equal(u.status, 200);
      assert.equal(u.body.active, true);
      for (const claim of ['sub', 'aud', 'iss', 'exp', 'iat', 'client_id', 'sid', 'tnt']) {
        assert.ok(claim in u.body, claim);
      }
      assert.equal(u.body.client_id, web.clientId);
      assert.equal(u.body.scope, undefined, 'identity scopes only: the token has no scope claim');
      const viaKey = await post('oauth/introspect', {
        token: user.access_token as string,
        ...withAssertion(await assertion({ aud: `${issuer}oauth/introspect` })),
      });
      assert.equal(viaKey.body.active, true);

      // A refresh token: active to the client holding it, inactive to any other.
      const refresh = user.refresh_token as string;
      const held = await post('oauth/introspect', {
        token: refresh,
        client_id: web.clientId,
        client_secret: web.secret,
      });
      assert.equal(held.body.active, true);
      assert.equal(held.body.token_type, 'refresh_token');
      assert.equal(held.body.client_id, web.clientId);
      assert.equal(held.body.sub, u.body.sub);
      assert.deepEqual(await post('oauth/introspect', { token: refresh, ...asMachine }).then((r) => r.body), {
        active: false,
      });
    });

    test('introspection: inactive for an ended session, an expired, foreign or garbage token', {
      skip,
    }, async () => {
      const asMachine = { client_id: machine.clientId, client_secret: machine.clientSecret };
      const inactive = async (token: string) => {
        const res = await post('oauth/introspect', { token, ...asMachine });
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { active: false });
      };
      const { user, web } = await signedInUser();
      const revoked = await post('oauth/revoke', {
        token: user.refresh_token as string,
        client_id: web.clientId,
        client_secret: web.secret,
      });
      assert.equal(revoked.status, 200);
      await inactive(user.access_token as string);
      const held = await post('oauth/introspect', {
        token: user.refresh_token as string,
        client_id: web.clientId,
        client_secret: web.secret,
      });
      assert.deepEqual(held.body, { active: false });

      const foreign = await fetch(new URL('oauth/token', beta.issuer), {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: beta.clientId,
          client_secret: beta.clientSecret,
        }),
      });
      await inactive(((await foreign.json()) as Body).access_token as string);
      for (const garbage of ['garbage', 'a.b.c', 'trt_nothing', `${'x'.repeat(40)}`]) await inactive(garbage);

      const fresh = (await post('oauth/token', { grant_type: 'client_credentials', ...asMachine })).body
        .access_token as string;
      clock.now = () => Date.now() + 16 * 60_000;
      try {
        await inactive(fresh);
      } finally {
        clock.now = () => Date.now();
      }
    });

    test('introspection refuses public and unauthenticated clients (401); unknown and empty parameters are ignored', {
      skip,
    }, async () => {
      const spa = await makeClient(server.deps, machine.org, { name: 'SPA' });
      const forms: Record<string, string>[] = [{ token: 'x' }, { token: 'x', client_id: spa.clientId }];
      for (const form of forms) {
        const res = await post('oauth/introspect', form);
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, invalidClient);
      }
      const ok = await post('oauth/introspect', {
        token: 'x',
        client_id: machine.clientId,
        client_secret: machine.clientSecret,
        foo: 'bar',
        client_assertion: '',
      });
      assert.deepEqual([ok.status, ok.body], [200, { active: false }]);
      const repeated = await post(
        'oauth/introspect',
        `${new URLSearchParams({ token: 'x', client_id: machine.clientId, client_secret: machine.clientSecret })}&token=y`,
      );
      assert.equal(repeated.status, 400);
      assert.deepEqual(repeated.body, {
        error: 'invalid_request',
        error_description: 'parameter given more than once: token',
      });
      const missing = await post('oauth/introspect', {
        client_id: machine.clientId,
        client_secret: machine.clientSecret,
      });
      assert.deepEqual([missing.status, missing.body.error], [400, 'invalid_request']);
    });

    test('discovery lists the authentication methods, their algorithms and the introspection endpoint', {
      skip,
    }, async () => {
      const doc = (await (await fetch(new URL('.well-known/openid-configuration', issuer))).json()) as Body;
      const all = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'];
      assert.deepEqual(doc.token_endpoint_auth_methods_supported, all);
      assert.deepEqual(doc.revocation_endpoint_auth_methods_supported, all);
      assert.equal(doc.introspection_endpoint, `${issuer}oauth/introspect`);
      assert.deepEqual(doc.introspection_endpoint_auth_methods_supported, all.slice(0, 3));
      const algs = doc.token_endpoint_auth_signing_alg_values_supported as string[];
      assert.ok(algs.includes('RS256') && algs.includes('ES256') && algs.includes('EdDSA'));
    });

    /** Ada signs in to a confidential web client (code + PKCE, client_secret_post): its token response. */
    async function signedInUser() {
      const web = await makeClient(server.deps, machine.org, {
        name: 'Web',
        kind: 'confidential',
        redirectUris: [CALLBACK],
        grantTypes: ['authorization_code', 'refresh_token'],
      });
      const email = `ada-${randomUUID().slice(0, 8)}@acme.test`;
      await makeUser(server.deps, machine.org, email);
      const { url, verifier } = authorizeUrl(issuer, web.clientId, { scope: 'openid offline_access' });
      const callback = await signInThroughPages(new FormBrowser(), url, { email, password: PASSWORD });
      const code = new URL(callback).searchParams.get('code') ?? '';
      const res = await post('oauth/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CALLBACK,
        code_verifier: verifier,
        client_id: web.clientId,
        client_secret: web.secret as string,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { user: res.body, web: { clientId: web.clientId, secret: web.secret as string } };
    }
  });
}

/** A confidential machine client in an existing org (the org's owner made it). */
async function orgWithMachineClientIn(server: TestServer, org: Parameters<typeof makeClient>[1]) {
  const { clientId, secret } = await makeClient(server.deps, org, {
    name: 'acme service',
    kind: 'confidential',
    redirectUris: [],
  });
  return { clientId, clientSecret: secret as string };
}
