import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { createVerifier } from '@tessera/koa';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { clock } from '../../src/domain/clock.js';
import type { Org } from '../../src/domain/types.js';
import { makeClient, makeOrg, makeUser, signIn, tokenRequest } from '../sign-in/support/fixtures.js';
import { cliEnv, tessera } from '../support/cli.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

for (const database of httpSuite()) {
  describe(`promoted tokens (RFC 8693 token exchange) on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let issuer: string;
    let acme: Org;
    /** The public client the promotable tokens come from, and one that is not promotable. */
    let web: string;
    let other: string;
    /** The confidential client made with the CLI: `--promote-from <web>`. */
    let api: { clientId: string; clientSecret: string };
    /** A confidential client that lists no promotable client. */
    let plain: { clientId: string; clientSecret: string };
    let betaToken: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database });
      issuer = server.issuer('acme');
      acme = await makeOrg(server, 'acme');
      await makeUser(server.deps, acme, 'ada@acme.test');
      web = (await makeClient(server.deps, acme, { name: 'Web app' })).clientId;
      other = (await makeClient(server.deps, acme, { name: 'Other app' })).clientId;
      const made = await makeClient(server.deps, acme, {
        name: 'Plain',
        kind: 'confidential',
        redirectUris: [],
      });
      plain = { clientId: made.clientId, clientSecret: made.secret as string };
      const cli = await tessera(
        [
          'client',
          'create',
          '--org',
          'acme',
          '--name',
          'Billing API',
          '--confidential',
          '--promote-from',
          web,
        ],
        cliEnv(server),
      );
      assert.equal(cli.code, 0, cli.stderr);
      assert.deepEqual(cli.json?.promoteFrom, [web]);
      api = { clientId: cli.json?.clientId as string, clientSecret: cli.json?.clientSecret as string };

      const beta = await makeOrg(server, 'beta');
      await makeUser(server.deps, beta, 'bo@beta.test');
      const betaWeb = (await makeClient(server.deps, beta)).clientId;
      betaToken = (await signIn(server.issuer('beta'), betaWeb, 'bo@beta.test')).accessToken;
    });
    after(async () => {
      clock.now = () => Date.now();
      if (!skip) await server.close();
    });
    afterEach(() => {
      clock.now = () => Date.now();
    });

    const exchange = (subjectToken: string, client = api, extra: Record<string, string> = {}) =>
      tokenRequest(issuer, {
        grant_type: GRANT,
        subject_token: subjectToken,
        subject_token_type: ACCESS_TOKEN,
        client_id: client.clientId,
        client_secret: client.clientSecret,
        ...extra,
      });
    const refused = (error: string, description: string) => ({
      status: 400,
      body: { error, error_description: description },
    });

    test('the confidential client gets a token for itself: aud is it, azp the public client, same sub, tnt, sid', {
      skip,
    }, async () => {
      const { accessToken } = await signIn(issuer, web, 'ada@acme.test');
      const res = await exchange(accessToken);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), [
        'access_token',
        'expires_in',
        'issued_token_type',
        'token_type',
      ]);
      assert.equal(res.body.issued_token_type, ACCESS_TOKEN);
      assert.equal(res.body.token_type, 'Bearer');
      const promoted = res.body.access_token as string;

      const jwks = createRemoteJWKSet(new URL('.well-known/jwks.json', issuer));
      const { payload } = await jwtVerify(promoted, jwks, {
        issuer,
        audience: api.clientId,
        algorithms: ['RS256'],
      });
      const subject = decodeJwt(accessToken);
      assert.equal(payload.typ, 'user');
      assert.equal(payload.aud, api.clientId);
      assert.equal(payload.azp, web);
      for (const claim of ['sub', 'tnt', 'sid', 'amr', 'acr'] as const) {
        assert.deepEqual(payload[claim], subject[claim], claim);
      }
      assert.notEqual(payload.jti, subject.jti);
      assert.equal(payload.act, undefined);
      assert.ok(Number(payload.exp) <= Number(subject.exp), 'never outlives the subject token');
      assert.equal(res.body.expires_in, Number(payload.exp) - Number(payload.iat));

      // @tessera/koa: accepted for the confidential client, with azp in claims; not for the public one.
      const forApi = await createVerifier({ issuer, clientId: api.clientId })(promoted);
      assert.equal(forApi?.kind, 'user');
      assert.equal(forApi?.kind === 'user' ? forApi.userId : null, subject.sub);
      assert.equal(forApi?.kind === 'user' ? forApi.tenantId : null, subject.tnt);
      assert.equal(forApi?.claims.azp, web);
      assert.equal(await createVerifier({ issuer, clientId: web })(promoted), null);
      // And the subject token itself is not one the confidential client's API accepts.
      assert.equal(await createVerifier({ issuer, clientId: api.clientId })(accessToken), null);
    });

    test('unauthorized_client: a public client not on the list, or a confidential client with no list', {
      skip,
    }, async () => {
      const fromOther = (await signIn(issuer, other, 'ada@acme.test')).accessToken;
      assert.deepEqual(
        await exchange(fromOther),
        refused('unauthorized_client', 'this client may not promote tokens of the subject token’s client'),
      );
      const fromWeb = (await signIn(issuer, web, 'ada@acme.test')).accessToken;
      assert.deepEqual(
        await exchange(fromWeb, plain),
        refused('unauthorized_client', 'this client may not use token exchange'),
      );
      // A public client cannot exchange at all (it has no secret to authenticate with).
      const publicCaller = await tokenRequest(issuer, {
        grant_type: GRANT,
        subject_token: fromWeb,
        subject_token_type: ACCESS_TOKEN,
        client_id: web,
      });
      assert.equal(publicCaller.status, 400);
      assert.equal(publicCaller.body.error, 'unauthorized_client');
    });

    test('invalid_request: a missing subject token, another subject_token_type or requested_token_type', {
      skip,
    }, async () => {
      const { accessToken } = await signIn(issuer, web, 'ada@acme.test');
      for (const type of [
        'urn:ietf:params:oauth:token-type:refresh_token',
        'urn:ietf:params:oauth:token-type:id_token',
        'urn:ietf:params:oauth:token-type:jwt',
      ]) {
        assert.deepEqual(
          await exchange(accessToken, api, { subject_token_type: type }),
          refused('invalid_request', `subject_token_type must be ${ACCESS_TOKEN}`),
        );
      }
      assert.deepEqual(
        await exchange(accessToken, api, {
          requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token',
        }),
        refused('invalid_request', `requested_token_type must be ${ACCESS_TOKEN}`),
      );
      const missing = await tokenRequest(issuer, {
        grant_type: GRANT,
        subject_token_type: ACCESS_TOKEN,
        client_id: api.clientId,
        client_secret: api.clientSecret,
      });
      assert.deepEqual(missing, refused('invalid_request', 'subject_token is required'));
      assert.deepEqual(
        await exchange(accessToken, api, { audience: web }),
        refused('invalid_target', 'a promoted token is issued to the exchanging client only'),
      );
    });

    test('invalid_grant: an expired, revoked, machine, other-org, promoted or forged subject token', {
      skip,
    }, async () => {
      const notLive = refused('invalid_grant', 'subject_token is not a live user token of this organization');
      const session = await signIn(issuer, web, 'ada@acme.test');

      // Expired: the service's clock past the token's exp.
      clock.now = () => (Number(decodeJwt(session.accessToken).exp) + 1) * 1000;
      assert.deepEqual(await exchange(session.accessToken), notLive);
      clock.now = () => Date.now();

      // A promoted token is not promoted again.
      const promoted = (await exchange(session.accessToken)).body.access_token as string;
      assert.deepEqual(await exchange(promoted), notLive);

      // Revoked: the session ends with its refresh token (RFC 7009), and its tokens with it.
      const revoked = await fetch(new URL('oauth/revoke', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: session.refreshToken, client_id: web }).toString(),
      });
      assert.equal(revoked.status, 200);
      assert.deepEqual(await exchange(session.accessToken), notLive);

      // A machine token (client_credentials) is no user's token.
      const machine = await tokenRequest(issuer, {
        grant_type: 'client_credentials',
        client_id: api.clientId,
        client_secret: api.clientSecret,
      });
      assert.equal(machine.status, 200);
      assert.deepEqual(await exchange(machine.body.access_token as string), notLive);

      // Another org's user token, and garbage.
      assert.deepEqual(await exchange(betaToken), notLive);
      assert.deepEqual(await exchange('not.a.jwt'), notLive);
    });

    test('invalid_client: the confidential client must authenticate', { skip }, async () => {
      const { accessToken } = await signIn(issuer, web, 'ada@acme.test');
      const res = await exchange(accessToken, { ...api, clientSecret: `${api.clientSecret.slice(0, -2)}xx` });
      assert.equal(res.status, 401);
      assert.equal(res.body.error, 'invalid_client');
    });

    test('the CLI refuses --promote-from on a public client and for a client not of the org', {
      skip,
    }, async () => {
      const env = cliEnv(server);
      const onPublic = await tessera(
        [
          'client',
          'create',
          '--org',
          'acme',
          '--name',
          'X',
          '--public',
          '--redirect-uri',
          'http://127.0.0.1:1/cb',
          '--promote-from',
          web,
        ],
        env,
      );
      assert.notEqual(onPublic.code, 0);
      assert.match(onPublic.stderr, /only a confidential client can promote tokens of other clients/);
      const unknown = await tessera(
        ['client', 'create', '--org', 'acme', '--name', 'X', '--confidential', '--promote-from', 'cli_nope'],
        env,
      );
      assert.notEqual(unknown.code, 0);
      assert.match(unknown.stderr, /promote-from: no client "cli_nope" in this organization/);
      const confidentialSource = await tessera(
        [
          'client',
          'create',
          '--org',
          'acme',
          '--name',
          'X',
          '--confidential',
          '--promote-from',
          plain.clientId,
        ],
        env,
      );
      assert.notEqual(confidentialSource.code, 0);
      assert.match(confidentialSource.stderr, /is not a public client/);
    });
  });
}
