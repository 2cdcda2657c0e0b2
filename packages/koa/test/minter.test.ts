import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { createTokenMinter, TokenMinterError } from '@tessera/koa';
import { createTokenMinterWith, type TokenMinterOptions } from '../src/minter.js';
import { close, createTestKey, listen, signToken, type TestKey } from './support/issuer.js';

const ISSUER = 'http://acme.localhost:4000/';
const CLIENT = 'cli_billing';
const SECRET = 'sec_Vq3xN9f0c2JH8kPzT7wLmR4sYbE1uGdA6oQiZ5nXjWa';

interface Received {
  readonly url: string;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

type Answer = (res: ServerResponse, mint: () => Promise<string>) => void | Promise<void>;

/** What `promise` rejects with; fails the test when it resolves. */
const rejectionOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => assert.fail('expected a rejection'),
    (reason: unknown) => reason,
  );

describe('createTokenMinter', () => {
  let key: TestKey;
  let server: Server;
  let api: string;
  let received: Received[] = [];
  let answer: Answer;
  let minted = 0;
  let tokenLifetime = 900;
  let now = Date.now();
  const clock = () => now;

  const mintToken = () => {
    minted += 1;
    const iat = Math.floor(now / 1000);
    const claims = { typ: 'client', iss: ISSUER, sub: CLIENT, aud: CLIENT, jti: `jti_${minted}`, iat };
    return signToken(key, { ...claims, exp: iat + tokenLifetime });
  };
  const ok: Answer = async (res, mint) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: await mint(), token_type: 'Bearer', expires_in: tokenLifetime }));
  };
  const options = (extra: Partial<TokenMinterOptions> = {}): TokenMinterOptions => ({
    api,
    issuer: ISSUER,
    clientId: CLIENT,
    clientSecret: SECRET,
    ...extra,
  });
  const minter = (extra: Partial<TokenMinterOptions> = {}) =>
    createTokenMinterWith(options(extra), { now: clock });

  before(async () => {
    key = await createTestKey();
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push({ url: req.url ?? '', method: req.method ?? '', headers: req.headers, body });
        void answer(res, mintToken);
      });
    });
    api = `http://127.0.0.1:${await listen(server)}`;
  });
  after(() => close(server));
  beforeEach(() => {
    received = [];
    answer = ok;
    tokenLifetime = 900;
    now = Date.now();
  });

  test('100 concurrent token() calls make exactly one request and get the same token', async () => {
    const source = createTokenMinter(options());
    const tokens = await Promise.all(Array.from({ length: 100 }, () => source.token()));
    assert.equal(received.length, 1);
    assert.equal(new Set(tokens).size, 1);
    assert.equal(await source.token(), tokens[0]);
    assert.equal(received.length, 1);
  });

  test('the request is a client_credentials POST with the secret only in the form body', async () => {
    await minter().token();
    assert.equal(received.length, 1);
    const [request] = received;
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/oauth/token');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    const form = new URLSearchParams(request.body);
    assert.deepEqual([...form.keys()].sort(), ['client_id', 'client_secret', 'grant_type']);
    assert.equal(form.get('grant_type'), 'client_credentials');
    assert.equal(form.get('client_id'), CLIENT);
    assert.equal(form.get('client_secret'), SECRET);
    assert.ok(!request.url.includes(SECRET));
    for (const [name, value] of Object.entries(request.headers)) {
      assert.ok(!String(value).includes(SECRET), `header ${name} carries the secret`);
    }
  });

  test('an api with a path and a trailing slash still posts to <api>/oauth/token', async () => {
    await minter({ api: `${api}/base/` }).token();
    assert.equal(received[0]?.url, '/base/oauth/token');
  });

  test('the cached token is reused until 10 s before exp, then minted again', async () => {
    tokenLifetime = 60;
    const source = minter();
    const first = await source.token();
    now += 49_000;
    assert.equal(await source.token(), first);
    assert.equal(received.length, 1);
    now += 1_000;
    const second = await source.token();
    assert.notEqual(second, first);
    assert.equal(received.length, 2);
  });

  test('expires_in is used when the token carries no exp', async () => {
    answer = async (res) => {
      const token = await signToken(key, { typ: 'client', iss: ISSUER, sub: CLIENT, aud: CLIENT, jti: 'x' });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 30 }));
    };
    const source = minter();
    await source.token();
    now += 19_000;
    await source.token();
    assert.equal(received.length, 1);
    now += 1_000;
    await source.token();
    assert.equal(received.length, 2);
  });

  test('fresh() drops the cached token and mints a new one', async () => {
    const source = minter();
    const first = await source.token();
    const renewed = await source.fresh();
    assert.notEqual(renewed, first);
    assert.equal(received.length, 2);
    assert.equal(await source.token(), renewed);
    assert.equal(received.length, 2);
  });

  test('concurrent fresh() calls, and token() calls during it, share one mint', async () => {
    const source = minter();
    await source.token();
    const results = await Promise.all([source.fresh(), source.fresh(), source.token(), source.fresh()]);
    assert.equal(new Set(results).size, 1);
    assert.equal(received.length, 2);
  });

  test('a failed mint rejects every waiter with one request, and the next call tries again', async () => {
    answer = (res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' }));
    };
    const source = minter();
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => source.token()));
    assert.equal(received.length, 1);
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'rejected');
      const err = (outcome as PromiseRejectedResult).reason;
      assert.ok(err instanceof TokenMinterError);
      assert.equal(err.status, 401);
      assert.equal(err.code, 'invalid_client');
    }
    answer = ok;
    assert.equal(typeof (await source.token()), 'string');
    assert.equal(received.length, 2);
  });

  test('no error carries the secret, even when the server echoes it back', async () => {
    answer = (res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bad_${SECRET}`, error_description: `secret ${SECRET} is wrong` }));
    };
    const err = await rejectionOf(minter().token());
    assert.ok(err instanceof TokenMinterError);
    assert.equal(err.code, 'http_error');
    assert.equal(err.status, 400);
    for (const text of [
      err.message,
      String(err),
      JSON.stringify(err),
      inspect(err, { depth: 5 }),
      String(err.stack),
    ]) {
      assert.ok(!text.includes(SECRET), text);
    }
    assert.ok(err.cause === undefined || !inspect(err.cause).includes(SECRET));
  });

  test('a network failure is a network_error with no secret in it or its cause', async () => {
    const gone = createServer();
    const port = await listen(gone);
    await close(gone);
    const err = await rejectionOf(minter({ api: `http://127.0.0.1:${port}` }).token());
    assert.ok(err instanceof TokenMinterError);
    assert.equal(err.code, 'network_error');
    assert.equal(err.status, null);
    assert.ok(err.cause instanceof Error);
    assert.ok(!inspect(err, { depth: 5 }).includes(SECRET));
  });

  test('a redirect is not followed, so the secret is not replayed elsewhere', async () => {
    let elsewhere = 0;
    const other = createServer((_req, res) => {
      elsewhere += 1;
      res.end();
    });
    const otherUrl = `http://127.0.0.1:${await listen(other)}`;
    try {
      answer = (res) => {
        res.writeHead(307, { location: `${otherUrl}/oauth/token` }).end();
      };
      const err = await rejectionOf(minter().token());
      assert.ok(err instanceof TokenMinterError);
      assert.equal(elsewhere, 0);
    } finally {
      await close(other);
    }
  });

  test('a token from another issuer, or a response without a token, is refused without echoing it', async () => {
    let token = '';
    answer = async (res) => {
      token = await signToken(key, { iss: 'http://evil.localhost:4000/', sub: CLIENT, exp: 9_999_999_999 });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: token }));
    };
    const wrongIssuer = await rejectionOf(minter().token());
    assert.ok(wrongIssuer instanceof TokenMinterError);
    assert.equal(wrongIssuer.code, 'invalid_issuer');
    assert.ok(!inspect(wrongIssuer, { depth: 5 }).includes(token));

    answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"token_type":"Bearer"}');
    };
    await assert.rejects(minter().token(), { name: 'TokenMinterError', code: 'invalid_response' });
  });

  test('hostOverride is sent as ?host= when api is a loopback URL', async () => {
    await minter({ hostOverride: 'acme.localhost:4000' }).token();
    assert.equal(received[0]?.url, '/oauth/token?host=acme.localhost%3A4000');
    for (const loopback of ['http://localhost:4000', 'http://127.0.0.1:4000', 'http://[::1]:4000']) {
      assert.doesNotThrow(() =>
        createTokenMinter(options({ api: loopback, hostOverride: 'acme.localhost:4000' })),
      );
    }
  });

  test('hostOverride with a non-loopback api is a TypeError at start-up', () => {
    for (const remote of [
      'https://auth.example.com',
      'http://10.0.0.5:4000',
      'http://localhost.example.com',
    ]) {
      assert.throws(() => createTokenMinter(options({ api: remote, hostOverride: 'acme.localhost:4000' })), {
        name: 'TypeError',
        message: /hostOverride/,
      });
    }
  });

  test('missing or malformed options are TypeErrors naming the option, never showing the secret', () => {
    const cases: [Partial<Record<keyof TokenMinterOptions, unknown>>, string][] = [
      [{ api: undefined }, 'api'],
      [{ api: 'auth.example.com' }, 'api'],
      [{ api: 'https://user:pw@auth.example.com' }, 'api'],
      [{ issuer: undefined }, 'issuer'],
      [{ issuer: 'https://acme.example.com' }, 'issuer'],
      [{ clientId: '' }, 'clientId'],
      [{ clientSecret: undefined }, 'clientSecret'],
      [{ clientSecret: 42 }, 'clientSecret'],
      [{ hostOverride: 'acme.localhost/evil?x=' }, 'hostOverride'],
    ];
    for (const [extra, name] of cases) {
      assert.throws(
        () => createTokenMinter({ ...options(), ...extra } as TokenMinterOptions),
        (err: unknown) =>
          err instanceof TypeError && err.message.includes(`"${name}"`) && !err.message.includes(SECRET),
        name,
      );
    }
  });

  test('the minter object exposes only token and fresh', () => {
    const source = createTokenMinter(options());
    assert.deepEqual(Object.keys(source).sort(), ['fresh', 'token']);
    assert.ok(!inspect(source, { depth: 5, showHidden: true }).includes(SECRET));
  });
});
