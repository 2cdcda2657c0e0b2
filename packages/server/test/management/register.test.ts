import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { FormBrowser, locationOf, signInThroughPages } from '../sign-in/support/browser.js';
import { authorizeUrl, CALLBACK, makeClient } from '../sign-in/support/fixtures.js';
import { postgresSkip } from '../support/environment.js';
import { orgWithMachineClient } from '../support/fixtures.js';
import { freePort, startServer, type TestServer } from '../support/server.js';
import { TesseraProcess } from '../support/tessera-process.js';
import { OWNER_PASSWORD, ownedOrg } from './support/console.js';

type Body = Record<string, unknown>;

async function register(base: string, body: unknown, headers: Record<string, string> = {}, query = '') {
  const res = await fetch(`${base}/oauth/register${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Body };
}

describe('POST /oauth/register (RFC 7591)', () => {
  let server: TestServer;
  before(async () => {
    // Each test below speaks from its own forwarded address, so trust one proxy hop.
    server = await startServer({ env: { TESSERA_TRUST_PROXY: '1' } });
  });
  after(() => server.close());

  let n = 0;
  const from = () => ({ 'x-forwarded-for': `203.0.113.${++n}` });

  test('201 with exactly the registered client object, and no secret', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await register(
      server.base,
      { redirect_uris: ['http://127.0.0.1:33418/callback'], client_name: 'My CLI' },
      from(),
    );
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(res.body), [
      'client_id',
      'client_id_issued_at',
      'client_name',
      'redirect_uris',
      'token_endpoint_auth_method',
      'grant_types',
      'response_types',
    ]);
    assert.match(res.body.client_id as string, /^cli_/);
    assert.ok(Number.isInteger(res.body.client_id_issued_at), 'client_id_issued_at is an integer');
    assert.ok((res.body.client_id_issued_at as number) >= before);
    assert.equal(res.body.client_name, 'My CLI');
    assert.deepEqual(res.body.redirect_uris, ['http://127.0.0.1:33418/callback']);
    assert.equal(res.body.token_endpoint_auth_method, 'none');
    assert.deepEqual(res.body.grant_types, ['authorization_code', 'refresh_token']);
    assert.deepEqual(res.body.response_types, ['code']);

    const row = await server.db
      .selectFrom('clients')
      .innerJoin('organizations', 'organizations.id', 'clients.org_id')
      .select(['clients.kind', 'clients.secret_hash', 'clients.first_party', 'organizations.is_console'])
      .where('clients.id', '=', res.body.client_id as string)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { kind: 'public', secret_hash: null, first_party: 0, is_console: 1 });
  });

  test('the default client_name; https, localhost and [::1] redirect URIs; extra metadata ignored', async () => {
    const uris = ['https://app.example.com/cb', 'http://localhost:8080/cb', 'http://[::1]:9000/cb'];
    const res = await register(
      server.base,
      {
        redirect_uris: uris,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'],
        scope: 'x',
        // This round's client metadata (DPoP, back-channel logout, PAR): ignored, never echoed.
        dpop_bound_access_tokens: true,
        backchannel_logout_uri: 'https://app.example.com/logout',
        backchannel_logout_session_required: true,
        require_pushed_authorization_requests: true,
      },
      from(),
    );
    assert.equal(res.status, 201);
    assert.equal(res.body.client_name, 'Registered client');
    assert.deepEqual(res.body.redirect_uris, uris);
    assert.deepEqual(Object.keys(res.body), [
      'client_id',
      'client_id_issued_at',
      'client_name',
      'redirect_uris',
      'token_endpoint_auth_method',
      'grant_types',
      'response_types',
    ]);
    assert.deepEqual(res.body.grant_types, ['authorization_code', 'refresh_token']);
    const row = await server.db
      .selectFrom('clients')
      .select([
        'dpop_bound_access_tokens',
        'backchannel_logout_uri',
        'require_pushed_authorization_requests',
        'grant_types',
      ])
      .where('id', '=', res.body.client_id as string)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      { ...row, grant_types: JSON.parse(row.grant_types) },
      {
        dpop_bound_access_tokens: 0,
        backchannel_logout_uri: null,
        require_pushed_authorization_requests: 0,
        grant_types: ['authorization_code', 'refresh_token'],
      },
    );
  });

  test('userinfo_signed_response_alg RS256 is registered and echoed (OIDC Registration §2); any other is refused', async () => {
    const res = await register(
      server.base,
      { redirect_uris: ['https://app.example.com/cb'], userinfo_signed_response_alg: 'RS256' },
      from(),
    );
    assert.equal(res.status, 201);
    assert.equal(res.body.userinfo_signed_response_alg, 'RS256');
    const row = await server.db
      .selectFrom('clients')
      .select('userinfo_signed_response_alg')
      .where('id', '=', res.body.client_id as string)
      .executeTakeFirstOrThrow();
    assert.equal(row.userinfo_signed_response_alg, 'RS256');
    const refused = await register(
      server.base,
      { redirect_uris: ['https://app.example.com/cb'], userinfo_signed_response_alg: 'HS256' },
      from(),
    );
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, {
      error: 'invalid_client_metadata',
      error_description: 'userinfo_signed_response_alg must be RS256',
    });
  });

  test('client_name and redirect_uris come back exactly as submitted, repeats and spaces kept', async () => {
    const uris = ['https://a.example/cb', 'http://127.0.0.1:9/cb', 'https://a.example/cb'];
    const res = await register(server.base, { redirect_uris: uris, client_name: ' My CLI ' }, from());
    assert.equal(res.status, 201);
    assert.equal(res.body.client_name, ' My CLI ');
    assert.deepEqual(res.body.redirect_uris, uris);
  });

  test('400 invalid_redirect_uri: missing, empty, not a string, neither https nor loopback http', async () => {
    const cases: [unknown, string][] = [
      [{}, 'redirect_uris must be a non-empty array'],
      [{ redirect_uris: [] }, 'redirect_uris must be a non-empty array'],
      [{ redirect_uris: 'https://a.example/cb' }, 'redirect_uris must be a non-empty array'],
      [{ redirect_uris: [42] }, 'redirect_uris[0] must be a string'],
      [
        { redirect_uris: ['https://ok.example/cb', 'http://evil.example/cb'] },
        'redirect_uris[1] must be https, or http on localhost, 127.0.0.1 or [::1]',
      ],
      [
        { redirect_uris: ['http://127.0.0.2/cb'] },
        'redirect_uris[0] must be https, or http on localhost, 127.0.0.1 or [::1]',
      ],
      [
        { redirect_uris: ['myapp://cb'] },
        'redirect_uris[0] must be https, or http on localhost, 127.0.0.1 or [::1]',
      ],
      [{ redirect_uris: ['not a url'] }, 'redirect_uris[0] is not an absolute URL'],
    ];
    for (const [body, description] of cases) {
      const res = await register(server.base, body, from());
      assert.equal(res.status, 400, description);
      assert.deepEqual(res.body, { error: 'invalid_redirect_uri', error_description: description });
      assert.equal(res.headers.get('tessera-error-code'), 'registration.redirect_uris.invalid', description);
    }
  });

  test('400 invalid_redirect_uri: a fragment (a bare # too), over 2,000 characters, more than 20 URIs; nothing stored', async () => {
    const clients = async () => (await server.db.selectFrom('clients').select('id').execute()).length;
    const stored = await clients();
    const at2000 = `https://a.example/${'a'.repeat(2000 - 'https://a.example/'.length)}`;
    const cases: [unknown, string][] = [
      [{ redirect_uris: ['https://a.example/cb#x'] }, 'redirect_uris[0] must not have a fragment'],
      [{ redirect_uris: ['https://a.example/cb#'] }, 'redirect_uris[0] must not have a fragment'],
      [
        { redirect_uris: ['http://127.0.0.1:9/cb', 'http://localhost/#'] },
        'redirect_uris[1] must not have a fragment',
      ],
      [{ redirect_uris: [`${at2000}b`] }, 'redirect_uris[0] must be at most 2000 characters'],
      [
        { redirect_uris: Array.from({ length: 21 }, (_, i) => `https://a.example/cb${i}`) },
        'redirect_uris must hold at most 20 URIs',
      ],
    ];
    for (const [body, description] of cases) {
      const res = await register(server.base, body, from());
      assert.equal(res.status, 400, description);
      assert.deepEqual(res.body, { error: 'invalid_redirect_uri', error_description: description });
    }
    assert.equal(await clients(), stored);
    // The limits themselves are fine.
    const twenty = Array.from({ length: 20 }, (_, i) => `https://a.example/cb${i}`);
    for (const uris of [[at2000], twenty]) {
      const res = await register(server.base, { redirect_uris: uris }, from());
      assert.equal(res.status, 201);
      assert.deepEqual(res.body.redirect_uris, uris);
    }
  });

  test('400 invalid_client_metadata: any token_endpoint_auth_method but none; a body that is not an object', async () => {
    for (const method of ['client_secret_post', 'client_secret_basic', 'private_key_jwt', null]) {
      const res = await register(
        server.base,
        { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: method },
        from(),
      );
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        error: 'invalid_client_metadata',
        error_description: 'token_endpoint_auth_method must be none',
      });
    }
    for (const body of ['{not json', '[]', '"text"']) {
      const res = await register(server.base, body, from());
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        error: 'invalid_client_metadata',
        error_description: 'the body must be a JSON object',
      });
    }
  });

  test('a registered client signs in on the console login and gets the consent step every time', async () => {
    await ownedOrg(server, 'consenting');
    const person = { email: 'owner@consenting.test', password: OWNER_PASSWORD };
    const issuer = `${server.base}/`;
    const registered = (await register(server.base, { redirect_uris: [CALLBACK] }, from())).body;
    const consoleOrg = (await findConsoleOrg(server.db)) ?? assert.fail('no console org');
    const firstParty = await makeClient(server.deps, consoleOrg);
    const browser = new FormBrowser();
    for (const clientId of [registered.client_id as string, firstParty.clientId]) {
      const callback = await signInThroughPages(browser, authorizeUrl(issuer, clientId).url, person);
      assert.ok(new URL(callback).searchParams.get('code'));
    }
    // Signed in, and both allowed once: the registered client asks again, the first-party one does not.
    const again = (clientId: string) => {
      const url = authorizeUrl(issuer, clientId).url;
      return browser.get(url).then((response) => new URL(locationOf(response, url)));
    };
    assert.equal((await again(registered.client_id as string)).pathname, '/consent');
    const straight = await again(firstParty.clientId);
    assert.equal(`${straight.origin}${straight.pathname}`, CALLBACK);
  });

  test('404 on an org issuer: registration is the console issuer only', async () => {
    await orgWithMachineClient(server.deps, 'acme');
    const res = await register(
      server.issuer('acme').slice(0, -1),
      { redirect_uris: ['https://a.example/cb'] },
      from(),
    );
    assert.equal(res.status, 404);
    assert.equal(res.body.error, 'not_found');
  });

  test('429 rate_limited after 10 registrations in the hour from one IP, with Retry-After and no description', async () => {
    const ip = { 'x-forwarded-for': '198.51.100.7' };
    for (let i = 0; i < 10; i++) {
      assert.equal(
        (await register(server.base, { redirect_uris: ['https://a.example/cb'] }, ip)).status,
        201,
      );
    }
    const refused = await register(server.base, { redirect_uris: ['https://a.example/cb'] }, ip);
    assert.equal(refused.status, 429);
    assert.deepEqual(refused.body, { error: 'rate_limited' });
    assert.equal(refused.headers.get('tessera-error-code'), 'registration.rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    // Invalid requests do not use up the allowance, and another IP is unaffected.
    assert.equal(
      (await register(server.base, { redirect_uris: ['https://b.example/cb'] }, from())).status,
      201,
    );
  });

  test('IPv6 callers share one bucket per /64', async () => {
    const ip = (suffix: string) => ({ 'x-forwarded-for': `2001:db8:aa:bb:${suffix}` });
    for (let i = 0; i < 10; i++) {
      const res = await register(server.base, { redirect_uris: ['https://a.example/cb'] }, ip(`${i}:0:0:1`));
      assert.equal(res.status, 201);
    }
    assert.equal(
      (await register(server.base, { redirect_uris: ['https://a.example/cb'] }, ip('ffff:1:2:3'))).status,
      429,
    );
    assert.equal(
      (
        await register(
          server.base,
          { redirect_uris: ['https://a.example/cb'] },
          { 'x-forwarded-for': '2001:db8:aa:bc::1' },
        )
      ).status,
      201,
    );
  });
});

test('X-Forwarded-For is ignored unless TESSERA_TRUST_PROXY says so', async () => {
  const server = await startServer();
  try {
    for (let i = 0; i < 10; i++) {
      const res = await register(
        server.base,
        { redirect_uris: ['https://a.example/cb'] },
        { 'x-forwarded-for': `192.0.2.${i}` },
      );
      assert.equal(res.status, 201);
    }
    const res = await register(
      server.base,
      { redirect_uris: ['https://a.example/cb'] },
      { 'x-forwarded-for': '192.0.2.99' },
    );
    assert.equal(res.status, 429, 'all of them came from 127.0.0.1');
  } finally {
    await server.close();
  }
});

describe('the registration limit across two server processes on one PostgreSQL', async () => {
  const skip = await postgresSkip();
  test('10 succeed in all, whichever process takes them', { skip }, async () => {
    const a = await startServer({ database: 'postgres' });
    let b: TesseraProcess | undefined;
    try {
      const portB = await freePort();
      b = await TesseraProcess.serve(portB, {
        DATABASE_URL: a.config.databaseUrl as string,
        TESSERA_URL: a.base,
        TESSERA_DATA_DIR: a.dataDir,
      });
      // Both processes serve the same issuer; the second is reached on its own port with the
      // loopback `host` override naming the first one's host.
      const bases = [a.base, `http://127.0.0.1:${portB}`];
      const queries = ['', `?host=${encodeURIComponent(new URL(a.base).host)}`];
      const results = await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          register(bases[i % 2] as string, { redirect_uris: ['https://a.example/cb'] }, {}, queries[i % 2]),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [...Array(10).fill(201), ...Array(4).fill(429)]);
      const perProcess = [0, 1].map((p) => results.filter((r, i) => i % 2 === p && r.status === 201).length);
      assert.ok(
        perProcess.every((c) => c > 0),
        `both processes registered clients: ${perProcess}`,
      );
    } finally {
      await b?.stop();
      await a.close();
    }
  });
});
