import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { clock } from '../src/domain/clock.js';
import { CLIENT_KEY_SET_REFETCH_FLOOR_MS } from '../src/domain/directory/client-key-sets.js';
import { JWT_BEARER_ASSERTION } from '../src/domain/tokens/client-assertions.js';
import { call, consoleOf, ownedOrg } from './management/support/console.js';
import { DocumentHost } from './sign-in/support/document-host.js';
import { CALLBACK } from './sign-in/support/fixtures.js';
import { databaseSkip, httpSuite } from './support/databases.js';
import { startServer, type TestServer } from './support/server.js';

type Body = Record<string, unknown>;

const INVALID_CLIENT = { error: 'invalid_client', error_description: 'client authentication failed' };

/** The log lines saying why the key set at `url` was not used. */
const reasons = (logs: string[], url: string) =>
  logs
    .map((line) => JSON.parse(line) as { msg?: string; jwksUri?: string; problem?: string })
    .filter((l) => l.msg === 'client key set not used' && l.jwksUri === url)
    .map((l) => l.problem ?? '');

/**
 * private_key_jwt with the client's keys at an https `jwks_uri` (DESIGN §14): fetched from a
 * loopback HTTPS host under the metadata-document policy (TESSERA_OUTBOUND_ALLOW_PRIVATE lets the
 * test reach loopback), kept briefly, fetched again once for an unknown `kid`; a set that cannot be
 * fetched is `invalid_client`; request objects are verified with the same keys. On both databases:
 * `jwks_uri` is a stored column (migration 022).
 */
for (const database of httpSuite()) {
  describe(`private_key_jwt with a jwks_uri on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let host: DocumentHost;
    let issuer: string;
    let ownerToken: string;
    let clientId: string;
    let jwksUri: string;
    const logs: string[] = [];
    const keys: Record<string, { privateKey: CryptoKey; jwk: JWK }> = {};

    before(async () => {
      if (skip) return;
      host = await DocumentHost.start();
      server = await startServer({
        database,
        env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
        logs,
        clientMetadata: { ca: host.ca, timeoutMs: 1_000 },
      });
      await ownedOrg(server, 'acme');
      issuer = server.issuer('acme');
      ownerToken = await (await consoleOf(server)).token('owner@acme.test');
      for (const kid of ['k1', 'k2']) {
        const pair = await generateKeyPair('RS256');
        keys[kid] = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid } };
      }
      jwksUri = host.serve('/keys/service.json', { body: { keys: [keys.k1?.jwk] } });
      const created = await call(server, 'POST', '/organizations/acme/clients', ownerToken, {
        client_name: 'Published keys',
        type: 'confidential',
        jwks_uri: jwksUri,
      });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.jwks_uri, jwksUri);
      assert.equal('jwks' in created.body, false);
      clientId = created.body.client_id;
    });
    after(async () => {
      await server?.close();
      await host?.close();
    });

    /** A jose-signed assertion with the key `kid` (named in the header), for the token endpoint. */
    const assertion = (kid: string) => {
      const key = keys[kid] ?? assert.fail(`no key ${kid}`);
      return new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(issuer)
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(key.privateKey);
    };

    async function token(jwt: string) {
      const res = await fetch(new URL('oauth/token', issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: JWT_BEARER_ASSERTION,
          client_assertion: jwt,
        }),
      });
      return { status: res.status, body: (await res.json()) as Body };
    }

    const hits = () => host.hits.get('/keys/service.json') ?? 0;

    test('a jose-signed assertion is verified against the fetched keys, kept; a new kid fetches again once', {
      skip,
    }, async () => {
      const first = await token(await assertion('k1'));
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(decodeJwt(first.body.access_token as string).client_id, clientId);
      assert.equal(hits(), 1);
      const second = await token(await assertion('k1'));
      assert.equal(second.status, 200);
      assert.equal(hits(), 1, 'the key set is kept');

      // The client rotates: its document now holds k2 only. An assertion by k2 fetches it again,
      // once the floor since the last fetch has passed (sooner, the kept set answers).
      host.serve('/keys/service.json', { body: { keys: [keys.k2?.jwk] } });
      assert.deepEqual((await token(await assertion('k2'))).body, INVALID_CLIENT);
      assert.equal(hits(), 1, 'not fetched again under the floor');
      const real = clock.now;
      let skew = CLIENT_KEY_SET_REFETCH_FLOOR_MS + 1000;
      clock.now = () => real() + skew;
      try {
        const rotated = await token(await assertion('k2'));
        assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
        assert.equal(hits(), 2);
        // The removed k1 fetches once more past the floor, then is refused.
        skew += CLIENT_KEY_SET_REFETCH_FLOOR_MS + 1000;
        const removed = await token(await assertion('k1'));
        assert.equal(removed.status, 401);
        assert.deepEqual(removed.body, INVALID_CLIENT);
        assert.equal(hits(), 3);
      } finally {
        clock.now = real;
      }
      // A replayed assertion stays refused, as with inline keys (its signature held: it says why).
      const jwt = await assertion('k2');
      assert.equal((await token(jwt)).status, 200);
      assert.deepEqual((await token(jwt)).body, {
        error: 'invalid_client',
        error_description:
          'client authentication failed: the client assertion was already used (its jti is single use)',
      });
    });

    test('a key set that cannot be fetched or read is invalid_client, never a 500; the reason is logged', {
      skip,
    }, async () => {
      const failures: [string, Parameters<DocumentHost['serve']>[1], RegExp][] = [
        ['/keys/error.json', { status: 500, body: {} }, /HTTP 500/],
        ['/keys/hang.json', { hang: true }, /timed out/],
        ['/keys/text.json', { body: 'not json' }, /not JSON/],
        ['/keys/redirect.json', { status: 302, headers: { location: '/keys/service.json' } }, /redirect/],
      ];
      for (const [path, route, why] of failures) {
        const url = host.serve(path, route);
        const patched = await call(server, 'PATCH', `/organizations/acme/clients/${clientId}`, ownerToken, {
          jwks_uri: url,
        });
        assert.equal(patched.status, 200, patched.text);
        const res = await token(await assertion('k2'));
        assert.equal(res.status, 401, path);
        assert.deepEqual(res.body, INVALID_CLIENT, path);
        assert.match(reasons(logs, url).join('\n'), why, path);
      }
      // Nothing listens on this port: refused connection, the same answer.
      const closed = 'https://127.0.0.1:9/keys.json';
      await call(server, 'PATCH', `/organizations/acme/clients/${clientId}`, ownerToken, {
        jwks_uri: closed,
      });
      assert.deepEqual((await token(await assertion('k2'))).body, INVALID_CLIENT);
      const back = await call(server, 'PATCH', `/organizations/acme/clients/${clientId}`, ownerToken, {
        jwks_uri: jwksUri,
      });
      assert.equal(back.status, 200);
      assert.equal((await token(await assertion('k2'))).status, 200);
    });

    test('management API: jwks_uri stored and shown; https and confidential only; never beside jwks', {
      skip,
    }, async () => {
      const row = await server.db
        .selectFrom('clients')
        .select(['jwks', 'jwks_uri'])
        .where('id', '=', clientId)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { jwks: null, jwks_uri: jwksUri });
      const shown = await call(server, 'GET', `/organizations/acme/clients/${clientId}`, ownerToken);
      assert.equal(shown.body.jwks_uri, jwksUri);

      const jwks = { keys: [keys.k1?.jwk] };
      const refused: [Body, RegExp][] = [
        [{ client_name: 'x', type: 'confidential', jwks_uri: 'http://127.0.0.1/keys' }, /https/],
        [{ client_name: 'x', type: 'confidential', jwks_uri: 'keys.json' }, /absolute URL/],
        [{ client_name: 'x', type: 'confidential', jwks_uri: 'https://a.example/k#x' }, /fragment/],
        [
          { client_name: 'x', type: 'public', redirect_uris: ['http://127.0.0.1/cb'], jwks_uri: jwksUri },
          /confidential/,
        ],
        [{ client_name: 'x', type: 'confidential', jwks, jwks_uri: jwksUri }, /mutually exclusive/],
      ];
      for (const [body, why] of refused) {
        const res = await call(server, 'POST', '/organizations/acme/clients', ownerToken, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error, 'invalid_request');
        assert.match(res.body.error_detail, /jwks_uri/);
        assert.match(res.body.error_detail, why);
      }
      const path = `/organizations/acme/clients/${clientId}`;
      const both = await call(server, 'PATCH', path, ownerToken, { jwks });
      assert.equal(both.status, 400);
      assert.match(both.body.error_detail, /mutually exclusive/);
      // Switching to inline keys names the URL's removal in the same change.
      const inline = await call(server, 'PATCH', path, ownerToken, { jwks, jwks_uri: null });
      assert.equal(inline.status, 200, inline.text);
      assert.equal('jwks_uri' in inline.body, false);
      assert.deepEqual(inline.body.jwks, jwks);
      const backToUri = await call(server, 'PATCH', path, ownerToken, { jwks: null, jwks_uri: jwksUri });
      assert.equal(backToUri.status, 200, backToUri.text);
      assert.equal(backToUri.body.jwks_uri, jwksUri);
      assert.equal('jwks' in backToUri.body, false);
    });

    test('a request object (RFC 9101) is verified with the keys at the jwks_uri too', { skip }, async () => {
      const webKeys = host.serve('/keys/web.json', { body: { keys: [keys.k1?.jwk] } });
      const created = await call(server, 'POST', '/organizations/acme/clients', ownerToken, {
        client_name: 'Web app with published keys',
        type: 'confidential',
        redirect_uris: [CALLBACK],
        jwks_uri: webKeys,
      });
      assert.equal(created.status, 201, created.text);
      const webId = created.body.client_id as string;
      const requestObject = (kid: string) =>
        new SignJWT({
          response_type: 'code',
          client_id: webId,
          redirect_uri: CALLBACK,
          scope: 'openid',
          state: 'ro',
        })
          .setProtectedHeader({ alg: 'RS256', kid })
          .setIssuer(webId)
          .setAudience(issuer)
          .setIssuedAt()
          .setExpirationTime('1m')
          .sign((keys[kid] ?? assert.fail(`no key ${kid}`)).privateKey);
      const authorize = async (request: string) => {
        const url = new URL('oauth/authorize', issuer);
        url.search = new URLSearchParams({ client_id: webId, request }).toString();
        const res = await fetch(url, { redirect: 'manual' });
        assert.equal(res.status, 302);
        return new URL(res.headers.get('location') ?? '', issuer);
      };
      const accepted = await authorize(await requestObject('k1'));
      assert.equal(accepted.pathname, '/login');
      assert.equal(host.hits.get('/keys/web.json'), 1);
      // k2 is not published there: fetched once more past the floor, then refused back at the
      // redirect URI.
      const real = clock.now;
      clock.now = () => real() + CLIENT_KEY_SET_REFETCH_FLOOR_MS + 1000;
      try {
        const refused = await authorize(await requestObject('k2'));
        assert.equal(`${refused.origin}${refused.pathname}`, CALLBACK);
        assert.equal(refused.searchParams.get('error'), 'invalid_request_object');
        assert.equal(host.hits.get('/keys/web.json'), 2);
      } finally {
        clock.now = real;
      }
    });

    test('anonymous requests naming made-up kids, or a set that is not kept, fetch it once per floor', {
      skip,
    }, async () => {
      // Anyone may send /oauth/authorize a request object, or /oauth/token an assertion, naming a
      // client that publishes its keys: each named a kid the kept set lacks, and each fetched the
      // set again, so strangers drove fetches of the client's host at their own rate.
      const paths = {
        kept: '/keys/floor.json',
        uncached: '/keys/no-store.json',
        broken: '/keys/broken.json',
      };
      const urls = {
        kept: host.serve(paths.kept, { body: { keys: [keys.k1?.jwk] } }),
        uncached: host.serve(paths.uncached, {
          body: { keys: [keys.k1?.jwk] },
          headers: { 'cache-control': 'no-store' },
        }),
        broken: host.serve(paths.broken, { status: 500, body: {} }),
      };
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const real = clock.now;
      try {
        for (const [which, url] of Object.entries(urls) as [keyof typeof urls, string][]) {
          const created = await call(server, 'POST', '/organizations/acme/clients', ownerToken, {
            client_name: `Published keys (${which})`,
            type: 'confidential',
            redirect_uris: [CALLBACK],
            jwks_uri: url,
          });
          assert.equal(created.status, 201, created.text);
          const id = created.body.client_id as string;
          const forged = (kid: string) =>
            `${b64({ alg: 'RS256', kid })}.${b64({ iss: id, aud: issuer, sub: id, jti: randomUUID() })}.AAAA`;
          const authorize = async (kid: string) => {
            const url = new URL('oauth/authorize', issuer);
            url.search = new URLSearchParams({ client_id: id, request: forged(kid) }).toString();
            const res = await fetch(url, { redirect: 'manual' });
            assert.equal(res.status, 302);
            const back = new URL(res.headers.get('location') ?? '');
            assert.equal(back.searchParams.get('error'), 'invalid_request_object');
          };
          const assertToken = async (kid: string) => {
            const res = await fetch(new URL('oauth/token', issuer), {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({
                grant_type: 'client_credentials',
                client_assertion_type: JWT_BEARER_ASSERTION,
                client_assertion: forged(kid),
              }),
            });
            assert.equal(res.status, 401);
          };
          for (let i = 0; i < 4; i++) {
            await authorize(`made-up-${i}`);
            await assertToken(`made-up-token-${i}`);
          }
          assert.equal(host.hits.get(paths[which]), 1, `${which}: one fetch for eight made-up kids`);
          // Past the floor, a kid the set lacks (a rotation) is looked for again, once.
          const skew = CLIENT_KEY_SET_REFETCH_FLOOR_MS + 1000;
          clock.now = () => real() + skew;
          await authorize('made-up-later');
          await assertToken('made-up-later-too');
          assert.equal(host.hits.get(paths[which]), 2, `${which}: once more past the floor`);
          clock.now = real;
        }
      } finally {
        clock.now = real;
      }
    });
  });
}
