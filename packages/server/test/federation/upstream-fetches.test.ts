import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { after, before, describe, test } from 'node:test';
import { clock } from '../../src/domain/clock.js';
import { UPSTREAM_KEY_SET_REFETCH_FLOOR_MS } from '../../src/domain/federation/index.js';
import { call, ownerMemberStranger } from '../management/support/console.js';
import { FormBrowser } from '../sign-in/support/browser.js';
import { startServer, type TestServer } from '../support/server.js';
import { HangingHost, SteerableOidcUpstream } from './support/oidc-upstream.js';

/**
 * What a connection's OpenID provider is fetched with (DESIGN §17): the outbound address policy of
 * every fetch, a per-process cache of discovery and key sets, a cap on upstream calls in all and per
 * host, and endpoints held to the issuer's origin or the connection's allowed hosts. What was
 * fetched is read from the upstream's own request log, never from Tessera.
 */

const PRIVATE_HINT =
  'which connections may not reach; for local development set TESSERA_OUTBOUND_ALLOW_PRIVATE=1 (see README)';

/** The login page a start or callback ended on: its status and the reason it gives. */
async function refusal(res: Response): Promise<{ status: number; reason: string }> {
  const page = await res.text();
  assert.match(page, /<h1>Sign in<\/h1>/);
  const reason = /<p class="error"[^>]*>([^<]*)<\/p>/.exec(page)?.[1] ?? page;
  return { status: res.status, reason: reason.replace(/&#39;/g, "'") };
}

describe('connections under the outbound address policy (TESSERA_OUTBOUND_ALLOW_PRIVATE off)', () => {
  let server: TestServer;
  let owner: string;
  let listening: HangingHost;

  before(async () => {
    listening = await HangingHost.start();
    server = await startServer({
      webhooks: false,
      upstreams: {
        // A public-looking name whose DNS answer is this machine, as a rebinding attacker's would be.
        resolver: async (hostname): Promise<LookupAddress[]> =>
          hostname === 'idp.rebound.test' ? [{ address: '127.0.0.1', family: 4 }] : [],
      },
    });
    ({ owner } = await ownerMemberStranger(server));
  });
  after(async () => {
    await server?.close();
    await listening?.close();
  });

  const create = (fields: Record<string, unknown>) =>
    call(server, 'POST', '/organizations/acme/connections', owner, {
      type: 'oidc',
      name: 'Corp',
      client_id: 'tessera',
      client_secret: 'upstream secret 123',
      ...fields,
    });

  test('an issuer on loopback, link-local or another non-public address is refused with 400 naming the setting', async () => {
    const cases: [string, string][] = [
      [`http://127.0.0.1:${listening.port}/`, 'this machine (loopback)'],
      [
        'https://169.254.169.254/',
        'a non-public address (169.254.169.254: link-local (cloud metadata lives here))',
      ],
      ['http://localhost:6379', 'this machine (loopback)'],
      ['https://[::ffff:127.0.0.1]/', 'this machine (loopback)'],
      ['https://10.0.0.7/', 'a non-public address (10.0.0.7: private (RFC 1918))'],
      ['https://idp.localhost/', 'this machine (loopback)'],
    ];
    for (const [issuer, what] of cases) {
      const res = await create({ issuer });
      assert.equal(res.status, 400, issuer);
      assert.deepEqual(res.body, {
        error: 'invalid_request',
        error_detail: `issuer: points at ${what}, ${PRIVATE_HINT}`,
      });
    }
    const hosts = await create({
      issuer: 'https://idp.corp.example',
      allowed_endpoint_hosts: ['169.254.169.254'],
    });
    assert.equal(hosts.status, 400);
    assert.deepEqual(hosts.body, {
      error: 'invalid_request',
      error_detail: `allowed_endpoint_hosts: points at a non-public address (169.254.169.254: link-local (cloud metadata lives here)), ${PRIVATE_HINT}`,
    });
    const list = await call(server, 'GET', '/organizations/acme/connections', owner);
    assert.deepEqual(list.body, []);
    // Nothing was fetched to decide.
    assert.equal(listening.connections, 0);
  });

  test('a name resolving to this machine is refused when fetched, before connecting; PATCH to a loopback issuer is refused', async () => {
    const created = await create({ issuer: `https://idp.rebound.test:${listening.port}/` });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const start = await fetch(`${server.issuer('acme')}sso/${created.body.id}/start`, { redirect: 'manual' });
    assert.deepEqual(await refusal(start), {
      status: 502,
      reason: 'Corp cannot be reached right now or did not answer as an OpenID provider. Try again later.',
    });
    assert.equal(listening.connections, 0);

    const patched = await call(server, 'PATCH', `/organizations/acme/connections/${created.body.id}`, owner, {
      issuer: `http://127.0.0.1:${listening.port}`,
    });
    assert.equal(patched.status, 400);
    assert.deepEqual(patched.body, {
      error: 'invalid_request',
      error_detail: `issuer: points at this machine (loopback), ${PRIVATE_HINT}`,
    });
  });

  test('Test connection: a loopback issuer is refused without a call; a name resolving to this machine is refused when fetched', async () => {
    const test = (issuer: string) =>
      call(server, 'POST', '/organizations/acme/connections/test', owner, { type: 'oidc', issuer });
    const loopback = await test(`http://127.0.0.1:${listening.port}/`);
    assert.equal(loopback.status, 400);
    assert.deepEqual(loopback.body, {
      error: 'invalid_request',
      error_detail: `issuer: points at this machine (loopback), ${PRIVATE_HINT}`,
    });
    const metadata = await test('https://169.254.169.254/');
    assert.deepEqual(metadata.body, {
      error: 'invalid_request',
      error_detail: `issuer: points at a non-public address (169.254.169.254: link-local (cloud metadata lives here)), ${PRIVATE_HINT}`,
    });
    const rebound = await test(`https://idp.rebound.test:${listening.port}/`);
    assert.equal(rebound.status, 400);
    assert.deepEqual(rebound.body, {
      error: 'invalid_request',
      error_detail:
        'issuer: the discovery call failed: refused to connect to idp.rebound.test: an address it resolves to is loopback',
    });
    assert.equal(listening.connections, 0);
  });
});

describe("connections' upstream calls: cached, capped, held to the issuer's hosts", () => {
  let server: TestServer;
  let owner: string;
  let member: string;
  let stranger: string;
  let upstream: SteerableOidcUpstream;
  let hanging: HangingHost;

  before(async () => {
    upstream = await SteerableOidcUpstream.start();
    hanging = await HangingHost.start();
    server = await startServer({
      webhooks: false,
      // The upstreams listen on 127.0.0.1; small caps, so a test reaches them with a few calls.
      env: { TESSERA_OUTBOUND_ALLOW_PRIVATE: '1' },
      upstreams: { maxFetchesPerHost: 2, maxFetchesPerOrg: 3, maxFetches: 4 },
    });
    ({ owner, member, stranger } = await ownerMemberStranger(server));
  });
  after(async () => {
    await server?.close();
    await upstream?.close();
    await hanging?.close();
  });

  async function connection(
    name: string,
    fields: Record<string, unknown>,
    token = owner,
    slug = 'acme',
  ): Promise<string> {
    const res = await call(server, 'POST', `/organizations/${slug}/connections`, token, {
      type: 'oidc',
      name,
      client_id: 'tessera',
      client_secret: 'upstream secret 123',
      ...fields,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  }

  const start = (con: string, browser = new FormBrowser(), slug = 'acme') =>
    browser.get(`${server.issuer(slug)}sso/${con}/start`);

  /** A whole sign-in: out to the upstream, which signs `upstream.email` in at once, and back. */
  async function signIn(con: string): Promise<Response> {
    const browser = new FormBrowser();
    const out = await start(con, browser);
    assert.equal(out.status, 303, await out.clone().text());
    const authorize = await browser.get(out.headers.get('location') ?? '');
    assert.equal(authorize.status, 303);
    return browser.get(authorize.headers.get('location') ?? '');
  }

  test('discovery is fetched once for many starts, and again once the connection changes', async () => {
    const con = await connection('Cached', { issuer: upstream.issuer });
    const DISCOVERY = 'GET /.well-known/openid-configuration';
    const before = upstream.count(DISCOVERY);
    const starts = await Promise.all(Array.from({ length: 10 }, () => start(con)));
    for (let i = 0; i < 5; i++) starts.push(await start(con));
    assert.deepEqual(
      starts.map((s) => s.status),
      Array(15).fill(303),
    );
    for (const s of starts) assert.ok(s.headers.get('location')?.startsWith(`${upstream.issuer}/authorize?`));
    assert.equal(upstream.count(DISCOVERY) - before, 1);

    // A change to the connection (here its name) is a new version: its next start fetches afresh.
    const patched = await call(server, 'PATCH', `/organizations/acme/connections/${con}`, owner, {
      name: 'Cached 2',
    });
    assert.equal(patched.status, 200);
    assert.equal((await start(con)).status, 303);
    assert.equal((await start(con)).status, 303);
    assert.equal(upstream.count(DISCOVERY) - before, 2);
  });

  test('a discovery document whose token endpoint is on another host is refused, unless that host is allowed', async () => {
    const port = new URL(upstream.issuer).port;
    const elsewhere = `localhost:${port}`;
    upstream.discovery = { token_endpoint: `http://${elsewhere}/token` };
    try {
      const con = await connection('Elsewhere', { issuer: upstream.issuer });
      const authorizations = upstream.count('GET /authorize');
      const refused = await start(con);
      assert.deepEqual(await refusal(refused), {
        status: 502,
        reason:
          'Elsewhere is not set up correctly: its provider sends sign-ins to a host this organization has not allowed. Ask an owner of the organization to check the connection.',
      });
      // Once more: the refusal is remembered briefly, and nobody was sent anywhere.
      assert.equal((await start(con)).status, 502);
      assert.equal(upstream.count('GET /authorize'), authorizations);

      const allowed = await call(server, 'PATCH', `/organizations/acme/connections/${con}`, owner, {
        allowed_endpoint_hosts: [elsewhere.toUpperCase()],
      });
      assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
      assert.deepEqual(allowed.body.oidc.allowed_endpoint_hosts, [elsewhere]);
      const out = await start(con);
      assert.equal(out.status, 303);

      const badHost = await call(server, 'PATCH', `/organizations/acme/connections/${con}`, owner, {
        allowed_endpoint_hosts: ['https://evil.example/path'],
      });
      assert.equal(badHost.status, 400);
      assert.deepEqual(badHost.body, {
        error: 'invalid_request',
        error_detail:
          'allowed_endpoint_hosts: "https://evil.example/path" is not a host name (a port only when it is not 443; no scheme, path or user)',
      });
    } finally {
      upstream.discovery = {};
    }
  });

  test('Test connection: owners see what the issuer publishes; members 403, strangers 404; nothing is stored', async () => {
    const DISCOVERY = 'GET /.well-known/openid-configuration';
    const body = { type: 'oidc', name: 'Corp', issuer: upstream.issuer, client_id: 'tessera' };
    const before = upstream.count(DISCOVERY);
    const tested = await call(server, 'POST', '/organizations/acme/connections/test', owner, body);
    assert.equal(tested.status, 200, JSON.stringify(tested.body));
    assert.deepEqual(tested.body, {
      type: 'oidc',
      oidc: {
        issuer: upstream.issuer,
        authorization_endpoint: `${upstream.issuer}/authorize`,
        token_endpoint: `${upstream.issuer}/token`,
        jwks_uri: `${upstream.issuer}/jwks`,
        userinfo_endpoint: `${upstream.issuer}/userinfo`,
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: [],
      },
    });
    // Fetched afresh each time: a test is never answered from what sign-ins keep.
    await call(server, 'POST', '/organizations/acme/connections/test', owner, body);
    assert.equal(upstream.count(DISCOVERY) - before, 2);
    const memberCall = await call(server, 'POST', '/organizations/acme/connections/test', member, body);
    assert.equal(memberCall.status, 403);
    assert.equal(memberCall.body.error, 'forbidden');
    const strangerCall = await call(server, 'POST', '/organizations/acme/connections/test', stranger, body);
    assert.equal(strangerCall.status, 404);
    assert.equal(strangerCall.body.error, 'not_found');
    assert.equal(upstream.count(DISCOVERY) - before, 2);
    const list = await call(server, 'GET', '/organizations/acme/connections', owner);
    assert.ok(!list.body.some((c: { name: string }) => c.name === 'Corp'));
  });

  test('Test connection: another issuer, a host not allowed, too large an answer, nobody listening: 400 naming it', async () => {
    const test = (fields: Record<string, unknown>) =>
      call(server, 'POST', '/organizations/acme/connections/test', owner, { type: 'oidc', ...fields });
    const port = new URL(upstream.issuer).port;
    const expect = async (fields: Record<string, unknown>, detail: string) => {
      const res = await test(fields);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body, { error: 'invalid_request', error_detail: detail });
    };
    try {
      // The same provider reached by another name: it names 127.0.0.1, not localhost.
      await expect(
        { issuer: `http://localhost:${port}` },
        'issuer: the discovery document names another issuer',
      );
      upstream.discovery = { token_endpoint: 'http://localhost:1/token' };
      await expect(
        { issuer: upstream.issuer },
        `issuer: token_endpoint http://localhost:1/token is neither on the issuer's origin (${upstream.issuer}) nor on a host of allowed_endpoint_hosts`,
      );
      upstream.discovery = { padding: 'x'.repeat(300_000) };
      await expect(
        { issuer: upstream.issuer },
        'issuer: the discovery call failed: the answer is larger than 262144 bytes',
      );
      upstream.discovery = {};
      await expect({ issuer: `${upstream.issuer}/nowhere` }, 'issuer: the discovery answered HTTP 404');
      await expect(
        { issuer: 'http://127.0.0.1:1' },
        'issuer: the discovery call failed: connect ECONNREFUSED 127.0.0.1:1',
      );
      await expect({ name: 'Corp' }, 'issuer: Invalid input: expected string, received undefined');
    } finally {
      upstream.discovery = {};
    }
  });

  test('an ID token signed with a key the kept set lacks refetches the key set once, not sooner than the floor', async () => {
    const con = await connection('Keys', { issuer: upstream.issuer, domains: ['corp.test'], jit: true });
    const KEYS = 'GET /jwks';
    const fetched = () => upstream.count(KEYS);
    const base = fetched();
    const real = clock.now;
    try {
      assert.equal((await signIn(con)).status, 303);
      assert.equal((await signIn(con)).status, 303);
      assert.equal(fetched() - base, 1, 'the key set is kept');

      // The provider rotates: a token signed with k2, which the kept set lacks, fetches it again.
      upstream.published = ['k1', 'k2'];
      upstream.signWith = 'k2';
      let skew = UPSTREAM_KEY_SET_REFETCH_FLOOR_MS + 1000;
      clock.now = () => real() + skew;
      assert.equal((await signIn(con)).status, 303);
      assert.equal(fetched() - base, 2);

      // A key nobody publishes: asked for once, then refused; asked again at once, not fetched.
      upstream.signWith = 'k9';
      skew += UPSTREAM_KEY_SET_REFETCH_FLOOR_MS + 1000;
      const unknown =
        'The answer from Keys was not accepted: its sign-in could not be verified. Start again.';
      assert.deepEqual(await refusal(await signIn(con)), { status: 502, reason: unknown });
      assert.equal(fetched() - base, 3);
      assert.deepEqual(await refusal(await signIn(con)), { status: 502, reason: unknown });
      assert.equal(fetched() - base, 3);
    } finally {
      clock.now = real;
      upstream.published = ['k1'];
      upstream.signWith = 'k1';
    }
  });

  test('hanging providers: starts of one connection share one call; a call past a cap (origin, org, process) is refused at once (503), counted', async () => {
    const second = await HangingHost.start();
    try {
      const x = `http://127.0.0.1:${hanging.port}/`;
      const y = `http://127.0.0.1:${second.port}/`;
      const z = `http://localhost:${hanging.port}/`;
      const [a, b, c, d, e] = [
        await connection('Hung A', { issuer: x }),
        await connection('Hung B', { issuer: x }),
        await connection('Hung C', { issuer: x }),
        await connection('Hung D', { issuer: y }),
        await connection('Hung E', { issuer: y }),
      ];
      const [f, g] = [
        await connection('Beta F', { issuer: z }, stranger, 'beta'),
        await connection('Beta G', { issuer: y }, stranger, 'beta'),
      ];
      const opened = () => hanging.connections + second.connections;
      const busy = (name: string) => ({
        status: 503,
        reason: `Too many sign-ins are on their way to ${name} right now. Try again in a moment.`,
      });

      // Ten starts of A and ten of B: two calls, two connections; the origin's cap (2) is met.
      const waiting = [...Array(10).fill(a), ...Array(10).fill(b)].map((con) => start(con));
      await hanging.accepted(2);
      assert.deepEqual(await refusal(await start(c)), busy('Hung C'));
      // Another origin has room, until acme's connections hold their org's cap (3).
      waiting.push(start(d));
      await second.accepted(1);
      assert.deepEqual(await refusal(await start(e)), busy('Hung E'));
      // Another org still goes out, until the process's cap (4) is met.
      waiting.push(start(f, new FormBrowser(), 'beta'));
      await hanging.accepted(3);
      assert.deepEqual(await refusal(await start(g, new FormBrowser(), 'beta')), busy('Beta G'));
      assert.equal(opened(), 4);

      // The providers drop every connection: each waiting start ends on the login page.
      hanging.release();
      second.release();
      const ended = await Promise.all(waiting);
      assert.deepEqual(
        ended.map((r) => r.status),
        Array(22).fill(502),
      );
      // The failure is remembered briefly: a start right after costs no call.
      assert.equal((await start(a)).status, 502);
      assert.equal(opened(), 4);
      // A refusal for being busy is not remembered: C goes out now.
      const retried = start(c);
      await hanging.accepted(4);
      hanging.release();
      assert.equal((await retried).status, 502);
      assert.equal(opened(), 5);
    } finally {
      await second.close();
    }
  });

  test('Test connection against a provider that hangs: held to the per-origin cap (503 past it), failing once the calls end', async () => {
    const issuer = `http://127.0.0.1:${hanging.port}/`;
    const test = () =>
      call(server, 'POST', '/organizations/acme/connections/test', owner, { type: 'oidc', issuer });
    const opened = hanging.connections;
    const held = [test(), test()];
    await hanging.accepted(opened + 2);
    const third = await test();
    assert.equal(third.status, 503);
    assert.equal(third.body.error, 'unavailable');
    assert.equal(
      third.body.error_detail,
      'too many calls to providers are running for this org; try again in a moment',
    );
    assert.equal(hanging.connections, opened + 2);
    hanging.release();
    for (const res of await Promise.all(held)) {
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        error: 'invalid_request',
        error_detail: 'issuer: the discovery call failed: socket hang up',
      });
    }
  });
});
