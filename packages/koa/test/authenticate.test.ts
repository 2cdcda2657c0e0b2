import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import cors from '@koa/cors';
import {
  authenticate,
  createVerifier,
  principalOf,
  type Verified,
  type Verify,
  whitelist,
} from '@tessera/koa';
import Koa from 'koa';
import { bearer, type RunningApp, serve } from './support/app.js';
import {
  CLIENT_ID,
  createTestKey,
  signToken,
  startIssuer,
  type TestIssuer,
  type TestKey,
  userClaims,
} from './support/issuer.js';

const REALM = 'tessera-test';
const UNAUTHORIZED = '{"error":"unauthorized","error_detail":"we don\'t know who you are"}';

async function assertUnauthorized(response: Response): Promise<void> {
  assert.equal(response.status, 401);
  assert.equal(response.headers.get('www-authenticate'), `Bearer realm="${REALM}"`);
  assert.equal(response.headers.get('content-type'), 'application/json');
  assert.equal(await response.text(), UNAUTHORIZED);
}

describe('authenticate', () => {
  let idp: TestIssuer;
  let forger: TestKey;
  let app: RunningApp;
  let valid: string;
  let downstreamCalls = 0;

  before(async () => {
    idp = await startIssuer();
    forger = await createTestKey();
    valid = await signToken(idp.key, userClaims(idp.issuer));

    const koa = new Koa();
    koa.use(
      cors({
        origin: 'https://app.example.com',
        allowMethods: ['GET', 'POST'],
        allowHeaders: ['authorization'],
      }),
    );
    koa.use(
      authenticate(
        { verify: createVerifier({ issuer: idp.issuer, clientId: CLIENT_ID }), realm: REALM },
        whitelist([
          ['/health', ['GET']],
          ['/public-principal', ['GET']],
        ]),
      ),
    );
    koa.use((ctx) => {
      downstreamCalls += 1;
      if (ctx.path === '/health') ctx.body = { ok: true };
      else if (ctx.path === '/me') ctx.body = { principal: principalOf(ctx), state: ctx.state.tessera };
      else if (ctx.path === '/public-principal') {
        try {
          principalOf(ctx);
          ctx.body = { threw: false };
        } catch (err) {
          ctx.body = { threw: true, message: (err as Error).message };
        }
      }
    });
    app = await serve(koa);
  });
  after(async () => {
    await app.close();
    await idp.close();
  });

  test('a valid token reaches the route, with the verified token at ctx.state.tessera', async () => {
    const response = await app.request('/me', bearer(valid));
    assert.equal(response.status, 200);
    const body = (await response.json()) as { principal: Verified; state: Verified };
    assert.equal(body.principal.kind, 'user');
    assert.deepEqual(body.state, body.principal);
    assert.equal(body.principal.kind === 'user' && body.principal.userId, 'usr_alice');
  });

  test('the Bearer scheme is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      assert.equal((await app.request('/me', bearer(valid, scheme))).status, 200, scheme);
    }
  });

  test('no Authorization header: exact 401', async () => {
    await assertUnauthorized(await app.request('/me'));
  });

  test('another scheme, or Bearer with no token: exact 401', async () => {
    await assertUnauthorized(await app.request('/me', bearer(valid, 'Basic')));
    await assertUnauthorized(await app.request('/me', bearer(valid, 'Token')));
    await assertUnauthorized(await app.request('/me', { headers: { authorization: 'Bearer' } }));
    await assertUnauthorized(await app.request('/me', { headers: { authorization: 'Bearer   ' } }));
    await assertUnauthorized(await app.request('/me', { headers: { authorization: valid } }));
  });

  test('an expired token: exact 401', async () => {
    const expired = await signToken(
      idp.key,
      userClaims(idp.issuer, { exp: Math.floor(Date.now() / 1000) - 5 }),
    );
    await assertUnauthorized(await app.request('/me', bearer(expired)));
  });

  test('a forged token: exact 401', async () => {
    const forged = await signToken({ ...forger, kid: idp.key.kid }, userClaims(idp.issuer));
    await assertUnauthorized(await app.request('/me', bearer(forged)));
  });

  test('a token for another audience: exact 401', async () => {
    const other = await signToken(idp.key, userClaims(idp.issuer, { aud: 'cli_someone_else' }));
    await assertUnauthorized(await app.request('/me', bearer(other)));
  });

  test('a path that does not exist is 401 without a token, and never reaches later middleware', async () => {
    const before = downstreamCalls;
    await assertUnauthorized(await app.request('/no/such/path'));
    await assertUnauthorized(await app.request('/no/such/path', { method: 'DELETE' }));
    assert.equal(downstreamCalls, before);
  });

  test('a whitelisted path passes without a token, but only for its verbs', async () => {
    const response = await app.request('/health');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ok: true });
    assert.equal((await app.request('/health?probe=1')).status, 200);
    await assertUnauthorized(await app.request('/health', { method: 'POST' }));
    await assertUnauthorized(await app.request('/health/'));
  });

  test('principalOf throws on a whitelisted route, even when a token is sent', async () => {
    for (const init of [undefined, bearer(valid)]) {
      const body = (await (await app.request('/public-principal', init)).json()) as {
        threw: boolean;
        message: string;
      };
      assert.equal(body.threw, true);
      assert.match(body.message, /principalOf/);
    }
  });

  test('CORS mounted before authenticate answers a preflight OPTIONS with 204 and CORS headers', async () => {
    const response = await app.request('/me', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://app.example.com');
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /GET/);
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /authorization/);
    assert.equal(response.headers.get('www-authenticate'), null);
  });

  test('a cross-origin request without a token gets a 401 the browser can read', async () => {
    const response = await app.request('/me', { headers: { origin: 'https://app.example.com' } });
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://app.example.com');
    await assertUnauthorized(response);
  });
});

describe('authenticate with a misbehaving verify', () => {
  const appWith = async (verify: Verify) => {
    const koa = new Koa();
    koa.use(authenticate({ verify, realm: REALM }));
    koa.use((ctx) => {
      ctx.body = 'reached';
    });
    return serve(koa);
  };

  test('a verify that throws or rejects gives 401, never 500', async () => {
    const verifies: Verify[] = [
      () => {
        throw new Error('boom');
      },
      () => Promise.reject(new Error('boom')),
      () => Promise.resolve(true as unknown as Verified),
      () => Promise.resolve(undefined as unknown as Verified),
    ];
    for (const verify of verifies) {
      const app = await appWith(verify);
      try {
        await assertUnauthorized(await app.request('/', bearer('anything')));
      } finally {
        await app.close();
      }
    }
  });

  test('the 401 is set on the response, not thrown: a middleware in front sees it after next()', async () => {
    const seen: { threw: boolean; status?: number; challenge?: string }[] = [];
    const koa = new Koa();
    koa.use(async (ctx, next) => {
      try {
        await next();
        seen.push({ threw: false, status: ctx.status, challenge: ctx.response.get('WWW-Authenticate') });
      } catch {
        seen.push({ threw: true });
      }
    });
    koa.use(authenticate({ verify: async () => null, realm: REALM }));
    const app = await serve(koa);
    try {
      await assertUnauthorized(await app.request('/'));
      await assertUnauthorized(await app.request('/', bearer('anything')));
    } finally {
      await app.close();
    }
    const set = { threw: false, status: 401, challenge: `Bearer realm="${REALM}"` };
    assert.deepEqual(seen, [set, set]);
  });

  test('with no allow function, nothing is allowed without a token', async () => {
    const app = await appWith(async () => null);
    try {
      await assertUnauthorized(await app.request('/health'));
      await assertUnauthorized(await app.request('/', { method: 'OPTIONS' }));
    } finally {
      await app.close();
    }
  });
});

describe('authenticate: deps are checked at start-up', () => {
  const verify: Verify = async () => null;
  const rejects = (deps: unknown, allow: unknown, name: string) =>
    assert.throws(
      () =>
        authenticate(deps as Parameters<typeof authenticate>[0], allow as Parameters<typeof authenticate>[1]),
      (err: unknown) => err instanceof TypeError && err.message.includes(`"${name}"`),
    );

  test('verify must be a function', () => {
    rejects({ realm: REALM }, undefined, 'verify');
    rejects({ verify: 'createVerifier', realm: REALM }, undefined, 'verify');
  });

  test('realm must be a plain header-safe string', () => {
    rejects({ verify }, undefined, 'realm');
    rejects({ verify, realm: '' }, undefined, 'realm');
    rejects({ verify, realm: 'api" error="x' }, undefined, 'realm');
    rejects({ verify, realm: 'api\r\nSet-Cookie: a=b' }, undefined, 'realm');
    rejects({ verify, realm: 'api\\' }, undefined, 'realm');
  });

  test('allow, when given, must be a function', () => {
    rejects({ verify, realm: REALM }, [['/health', ['GET']]], 'allow');
  });
});
