import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { authenticate, createVerifier, principalOf, protectedResource, requireScopes } from '@tessera/koa';
import Koa from 'koa';
import { bearer, type RunningApp, serve } from './support/app.js';
import { clientClaims, signToken, startIssuer, type TestIssuer, userClaims } from './support/issuer.js';

// A resource server (DESIGN §15): an API with its own resource in Tessera, reached by tokens whose
// `aud` names it, advertising RFC 9728 metadata and checking scopes per route.
const RESOURCE = 'http://127.0.0.1:7000/mcp';
const OTHER = 'http://127.0.0.1:7000/other';
const REALM = 'files';
const UNAUTHORIZED = '{"error":"unauthorized","error_detail":"we don\'t know who you are"}';

describe('createVerifier with a resource', () => {
  let idp: TestIssuer;
  before(async () => {
    idp = await startIssuer();
  });
  after(() => idp.close());

  const sign = (claims: Record<string, unknown>) => signToken(idp.key, claims);

  test('a user token is accepted only when aud includes the resource, from any client unless clientId is set', async () => {
    const verify = createVerifier({ issuer: idp.issuer, resource: RESOURCE });
    const bound = await sign(userClaims(idp.issuer, { aud: ['cli_mcp', RESOURCE], scope: 'files:read' }));
    const verified = await verify(bound);
    assert.equal(verified?.kind, 'user');
    assert.equal(verified?.claims.scope, 'files:read');
    assert.equal(await verify(await sign(userClaims(idp.issuer, { aud: ['cli_mcp', OTHER] }))), null);
    assert.equal(await verify(await sign(userClaims(idp.issuer, { aud: 'cli_mcp' }))), null);
    assert.equal(await verify(await sign(userClaims(idp.issuer, { aud: RESOURCE, sub: 'someone' }))), null);

    const oneClient = createVerifier({ issuer: idp.issuer, clientId: 'cli_mcp', resource: RESOURCE });
    assert.equal((await oneClient(bound))?.kind, 'user');
    const otherClient = await sign(userClaims(idp.issuer, { aud: ['cli_else', RESOURCE] }));
    assert.equal(await oneClient(otherClient), null);
  });

  test('a machine token is accepted when its aud is [client, resource]; trustedClients, when given, narrows it', async () => {
    const anyClient = createVerifier({ issuer: idp.issuer, resource: RESOURCE, accept: ['client'] });
    const bound = await sign(clientClaims(idp.issuer, 'cli_svc', { aud: ['cli_svc', RESOURCE] }));
    assert.equal((await anyClient(bound))?.kind, 'client');
    // The spec's machine token (aud = sub) names no resource.
    assert.equal(await anyClient(await sign(clientClaims(idp.issuer, 'cli_svc'))), null);
    assert.equal(
      await anyClient(await sign(clientClaims(idp.issuer, 'cli_svc', { aud: ['cli_svc', OTHER] }))),
      null,
    );
    assert.equal(
      await anyClient(
        await sign(clientClaims(idp.issuer, 'cli_svc', { aud: ['cli_x', 'cli_svc', RESOURCE] })),
      ),
      null,
    );

    const trusted = createVerifier({
      issuer: idp.issuer,
      resource: RESOURCE,
      accept: ['client'],
      trustedClients: ['cli_other'],
    });
    assert.equal(await trusted(bound), null);
  });

  test('a resource must be an absolute URL without a fragment; clientId stays required without one', () => {
    for (const resource of ['', 'files', '/mcp', `${RESOURCE}#x`, 42]) {
      assert.throws(() => createVerifier({ issuer: idp.issuer, resource } as never), {
        name: 'TypeError',
        message: 'createVerifier: "resource" must be an absolute URL without a fragment',
      });
    }
    assert.throws(() => createVerifier({ issuer: idp.issuer } as never), {
      name: 'TypeError',
      message: 'createVerifier: "clientId" must be a non-empty string',
    });
  });
});

describe('protectedResource, authenticate with resourceMetadata, requireScopes', () => {
  let idp: TestIssuer;
  let app: RunningApp;
  let plain: RunningApp;
  let reader: string;
  let writer: string;
  const metadata = protectedResource({
    resource: RESOURCE,
    authorizationServers: ['http://acme.localhost:4000/'],
    scopesSupported: ['files:read', 'files:write'],
    resourceName: 'Files',
  });
  const METADATA_URL = 'http://127.0.0.1:7000/.well-known/oauth-protected-resource/mcp';

  before(async () => {
    idp = await startIssuer();
    const verify = createVerifier({ issuer: idp.issuer, resource: RESOURCE });
    reader = await signToken(
      idp.key,
      userClaims(idp.issuer, { aud: ['cli_mcp', RESOURCE], scope: 'files:read' }),
    );
    writer = await signToken(
      idp.key,
      userClaims(idp.issuer, { aud: ['cli_mcp', RESOURCE], scope: 'files:read files:write' }),
    );
    const routes = (koa: Koa) => {
      koa.use(async (ctx, next) => {
        if (ctx.path === '/mcp/write') return requireScopes('files:write')(ctx, next);
        if (ctx.path === '/mcp/share') return requireScopes('files:read', 'files:share')(ctx, next);
        return requireScopes('files:read')(ctx, next);
      });
      koa.use((ctx) => {
        ctx.body = { path: ctx.path, user: principalOf(ctx).claims.sub };
      });
    };
    const koa = new Koa();
    koa.use(metadata);
    koa.use(authenticate({ verify, realm: REALM, resourceMetadata: metadata.metadataUrl }));
    routes(koa);
    app = await serve(koa);

    const bare = new Koa();
    bare.use(authenticate({ verify, realm: REALM }));
    routes(bare);
    plain = await serve(bare);
  });
  after(async () => {
    await app.close();
    await plain.close();
    await idp.close();
  });

  test('the metadata is served at the well-known path of the resource, readable from any origin', async () => {
    assert.equal(metadata.metadataUrl, METADATA_URL);
    const response = await app.request('/.well-known/oauth-protected-resource/mcp');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await response.json(), {
      resource: RESOURCE,
      authorization_servers: ['http://acme.localhost:4000/'],
      scopes_supported: ['files:read', 'files:write'],
      bearer_methods_supported: ['header'],
      resource_name: 'Files',
    });
    const head = await app.request('/.well-known/oauth-protected-resource/mcp', { method: 'HEAD' });
    assert.equal(head.status, 200);
    const preflight = await app.request('/.well-known/oauth-protected-resource/mcp', { method: 'OPTIONS' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD');
    const post = await app.request('/.well-known/oauth-protected-resource/mcp', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
    // Another path is not the metadata: it goes on to authenticate.
    assert.equal((await app.request('/.well-known/oauth-protected-resource')).status, 401);
  });

  test('a resource at the root of its host has its metadata at the bare well-known path', () => {
    const root = protectedResource({
      resource: 'https://files.example.com/',
      authorizationServers: ['https://acme.example.com/'],
      scopesSupported: [],
    });
    assert.equal(root.metadataUrl, 'https://files.example.com/.well-known/oauth-protected-resource');
  });

  test('bad options are a TypeError naming the option', () => {
    const good = { resource: RESOURCE, authorizationServers: ['https://a.example/'], scopesSupported: ['x'] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, resource: `${RESOURCE}?v=1` }, '"resource"'],
      [{ ...good, resource: 'urn:files' }, '"resource"'],
      [{ ...good, authorizationServers: [] }, '"authorizationServers"'],
      [{ ...good, authorizationServers: ['acme'] }, '"authorizationServers"'],
      [{ ...good, scopesSupported: ['has space'] }, '"scopesSupported"'],
      [{ ...good, resourceName: '' }, '"resourceName"'],
      [{ ...good, scopes: ['x'] }, '"scopes"'],
    ];
    for (const [options, name] of cases) {
      assert.throws(
        () => protectedResource(options as never),
        (err: unknown) => err instanceof TypeError && err.message.includes(name),
        name,
      );
    }
  });

  test('the 401 names the metadata, and says invalid_token when a token was sent', async () => {
    const missing = await app.request('/mcp');
    assert.equal(missing.status, 401);
    assert.equal(
      missing.headers.get('www-authenticate'),
      `Bearer realm="${REALM}", resource_metadata="${METADATA_URL}"`,
    );
    assert.equal(missing.headers.get('content-type'), 'application/json');
    assert.equal(await missing.text(), UNAUTHORIZED);

    const otherResource = await signToken(
      idp.key,
      userClaims(idp.issuer, { aud: ['cli_mcp', OTHER], scope: 'files:read' }),
    );
    const refused = await app.request('/mcp', bearer(otherResource));
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get('www-authenticate'),
      `Bearer realm="${REALM}", error="invalid_token", resource_metadata="${METADATA_URL}"`,
    );
    assert.equal(await refused.text(), UNAUTHORIZED);
  });

  test('without resourceMetadata the 401 is exactly the spec’s, token or not', async () => {
    for (const init of [undefined, bearer('not-a-token')]) {
      const response = await plain.request('/mcp', init);
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), `Bearer realm="${REALM}"`);
      assert.equal(await response.text(), UNAUTHORIZED);
    }
  });

  test('requireScopes lets a token with the scopes through', async () => {
    const read = await app.request('/mcp', bearer(reader));
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), { path: '/mcp', user: 'usr_alice' });
    assert.equal((await app.request('/mcp/write', bearer(writer))).status, 200);
  });

  test('a missing scope is 403 insufficient_scope, naming the scopes the route needs and nothing the token holds besides', async () => {
    const response = await app.request('/mcp/write', bearer(reader));
    assert.equal(response.status, 403);
    assert.equal(
      response.headers.get('www-authenticate'),
      `Bearer realm="${REALM}", error="insufficient_scope", scope="files:write", resource_metadata="${METADATA_URL}"`,
    );
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(await response.json(), {
      error: 'insufficient_scope',
      error_detail: 'this token lacks the files:write scope',
    });

    const noScope = await signToken(idp.key, userClaims(idp.issuer, { aud: ['cli_mcp', RESOURCE] }));
    const bare = await plain.request('/mcp', bearer(noScope));
    assert.equal(bare.status, 403);
    assert.equal(
      bare.headers.get('www-authenticate'),
      `Bearer realm="${REALM}", error="insufficient_scope", scope="files:read"`,
    );

    // Two scopes needed, one held: both named (in the route's order), not files:write, which the
    // token holds and the route does not need; the body names only the one it lacks.
    const share = await app.request('/mcp/share', bearer(writer));
    assert.equal(share.status, 403);
    assert.equal(
      share.headers.get('www-authenticate'),
      `Bearer realm="${REALM}", error="insufficient_scope", scope="files:read files:share", resource_metadata="${METADATA_URL}"`,
    );
    assert.deepEqual(await share.json(), {
      error: 'insufficient_scope',
      error_detail: 'this token lacks the files:share scope',
    });
  });

  test('requireScopes needs at least one well-formed scope, and authenticate in front of it', async () => {
    assert.throws(() => requireScopes(), TypeError);
    assert.throws(() => requireScopes('files read'), TypeError);
    const koa = new Koa();
    const errors: string[] = [];
    koa.silent = true;
    koa.on('error', (err: Error) => errors.push(err.message));
    koa.use(requireScopes('files:read'));
    const unguarded = await serve(koa);
    try {
      assert.equal((await unguarded.request('/mcp', bearer(reader))).status, 500);
      assert.match(errors[0] ?? '', /^principalOf: no verified token/);
    } finally {
      await unguarded.close();
    }
  });
});
