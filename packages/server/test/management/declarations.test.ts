import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { openSession } from '../../src/domain/sessions/sessions.js';
import { signSessionToken } from '../../src/domain/tokens/user-tokens.js';
import { buildApp } from '../../src/http/app.js';
import { OPERATIONS } from '../../src/http/declarations.js';
import { endpoint, isEndpoint, type ManagementShape, noContent } from '../../src/http/management/endpoint.js';
import { registerOperations } from '../../src/http/register-operations.js';
import { routesOf } from '../../src/http/route-table.js';
import { PAGES } from '../../src/http/sign-in/pages.js';
import { pageContext } from '../../src/http/sign-in/plugin.js';
import { Metrics } from '../../src/observability/metrics.js';
import { findConsoleOrg } from '../../src/storage/repos/orgs.js';
import { FormBrowser, locationOf } from '../sign-in/support/browser.js';
import {
  CALLBACK,
  makeClient,
  makeUser,
  pkcePair,
  signIn,
  tokenRequest,
} from '../sign-in/support/fixtures.js';
import { startServer, type TestServer } from '../support/server.js';
import { PEOPLE_ONLY, SERVICE_ACCOUNTS_TOO } from './support/caller-kinds.js';
import { call, FULL_CONSOLE_SCOPE, ownerMemberStranger } from './support/console.js';

/** The management API's prefixes: what the console host serves to console tokens. */
const MANAGEMENT = /^\/organizations(\/|$)/;

/** The signed-in person's APIs (user tokens): declared with their handlers too. */
const ACCOUNT = /^\/(users\/me|profile\/session|tenants)(\/|$)/;

const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

// The route table does not depend on the store: one database is enough.
describe('routes and their declarations', () => {
  let server: TestServer;
  let app: FastifyInstance;

  before(async () => {
    server = await startServer({ database: 'sqlite', webhooks: false });
    // A second app on the same store, not listening: its route table is read.
    app = buildApp(server.deps);
    await app.ready();
  });
  after(async () => {
    await app.close();
    await server.close();
  });

  test('every management route has exactly one declaration, and every declaration one route', () => {
    const routes = routesOf(app).filter((r) => MANAGEMENT.test(r.url) && r.method !== 'HEAD');
    const declared = OPERATIONS.filter((op) => MANAGEMENT.test(op.path));
    for (const route of routes) {
      const matches = declared.filter((op) => key(op.method, op.path) === key(route.method, route.url));
      assert.equal(matches.length, 1, `${key(route.method, route.url)}: ${matches.length} declarations`);
    }
    for (const op of declared) {
      const matches = routes.filter((r) => key(r.method, r.url) === key(op.method, op.path));
      assert.equal(matches.length, 1, `${key(op.method, op.path)}: ${matches.length} routes`);
    }
  });

  test('a route is registered from a declaration exactly when it is a documented operation', () => {
    // No documented operation is registered by hand, and nothing undocumented from a declaration.
    const routes = routesOf(app).filter((r) => r.method !== 'HEAD');
    for (const route of routes) {
      const op = OPERATIONS.find((o) => key(o.method, o.path) === key(route.method, route.url));
      assert.equal(route.declared, op !== undefined, key(route.method, route.url));
    }
    assert.equal(routes.filter((r) => r.declared).length, OPERATIONS.length);
  });

  test('every declaration carries what serves it: an endpoint handler, or a route', () => {
    for (const op of OPERATIONS) {
      assert.ok(isEndpoint(op) || typeof op.serve === 'function', key(op.method, op.path));
    }
  });

  test('hosted pages declared as operations stay pages: their errors are HTML', () => {
    const pages = routesOf(app)
      .filter((r) => r.declared && r.hostedPage && r.method !== 'HEAD')
      .map((r) => key(r.method, r.url));
    assert.deepEqual(pages.sort(), [
      'GET /oauth/authorize',
      'GET /oauth/logout',
      'GET /saml/:con/metadata',
      'POST /oauth/authorize',
      'POST /oauth/logout',
    ]);
  });

  test('every hosted page is registered from its declaration, and only the pages’ scripts and the console by hand', () => {
    const routes = routesOf(app).filter((r) => r.method !== 'HEAD');
    for (const page of PAGES) {
      const matches = routes.filter((r) => key(r.method, r.url) === key(page.method, page.path));
      assert.equal(matches.length, 1, key(page.method, page.path));
      assert.ok(matches[0]?.declaredPage && matches[0].hostedPage, key(page.method, page.path));
    }
    assert.equal(routes.filter((r) => r.declaredPage).length, PAGES.length);
    // A POST page reads a form it declares; every page says what it is for.
    for (const page of PAGES) {
      assert.ok(page.summary.length > 10, key(page.method, page.path));
      assert.equal(page.method === 'post', page.form !== undefined, key(page.method, page.path));
    }
    const byHand = routes
      .filter((r) => !r.declared && !r.declaredPage && r.method !== 'OPTIONS')
      .map((r) => key(r.method, r.url));
    assert.deepEqual(byHand.sort(), [
      'GET /',
      'GET /console',
      'GET /console/*',
      'GET /login/passkeys.js',
      'GET /sso/continue.js',
    ]);
  });

  test("the signed-in person's API routes are each registered from a declaration with its handler", () => {
    const routes = routesOf(app).filter((r) => ACCOUNT.test(r.url) && r.method !== 'HEAD');
    assert.deepEqual(routes.map((r) => key(r.method, r.url)).sort(), [
      'DELETE /tenants/:id',
      'GET /tenants',
      'GET /users/me',
      'PATCH /tenants/:id',
      'POST /profile/session',
      'POST /tenants',
    ]);
    for (const route of routes) assert.equal(route.declared, true, key(route.method, route.url));
  });

  test('a declaration the guard cannot honour fails at start-up, naming the operation', () => {
    const base = {
      tag: 'management',
      hosts: 'console',
      auth: 'console',
      scope: 'org:read',
      method: 'get',
      operationId: 'x',
      summary: 'x',
      responses: { 204: { description: 'x' } },
    } as const;
    const handle = async () => noContent();
    const cases = [
      [endpoint({ ...base, path: '/organizations', who: 'console user' }, handle), /declare people: true/],
      [endpoint({ ...base, path: '/organizations/:org/x', who: 'members', people: true }, handle), /people/],
      [endpoint({ ...base, path: '/tenants', who: 'owners' }, handle), /\{org\} in the path/],
    ] as const;
    const metrics = new Metrics({ outboxDepth: async () => null, pool: () => null });
    const serving = { deps: server.deps, metrics, pages: pageContext(server.deps) };
    for (const [bad, message] of cases) {
      assert.throws(() => registerOperations(Fastify(), serving, [bad]), {
        name: 'TypeError',
        message: new RegExp(`^GET ${bad.path}: .*${message.source}`),
      });
    }
  });
});

/** Every scope a service account can hold (never users:impersonate). */
const SERVICE_ACCOUNT_SCOPES = ['org:read', 'org:write', 'events:read'];

const UNAUTHORIZED = { error: 'unauthorized', error_detail: "we don't know who you are" };
const NO_SUCH_ORG = { error: 'not_found', error_detail: 'no such organization' };
const NOT_AN_OWNER = { error: 'forbidden', error_detail: 'only an owner of the organization may do this' };
const NOT_A_PERSON = {
  error: 'forbidden',
  error_detail: 'a service account cannot do this: it is for the organization’s owners',
};

/** What a caller gets: a refusal (status, body, challenge), or past the guard: what the owner gets. */
type Outcome = { status: number; body: unknown; challenge?: string } | 'through';

const refused = (status: number, body: unknown, challenge?: string): Outcome => ({
  status,
  body,
  ...(challenge === undefined ? {} : { challenge }),
});
const insufficient = (scope: string | undefined) =>
  refused(
    403,
    { error: 'insufficient_scope', error_detail: `this token lacks the ${scope} scope` },
    `Bearer realm="tessera", error="insufficient_scope", scope="${scope}"`,
  );
const noToken = refused(401, UNAUTHORIZED, 'Bearer realm="tessera"');
const badToken = refused(401, UNAUTHORIZED, 'Bearer realm="tessera", error="invalid_token"');

const managementOps = () =>
  OPERATIONS.filter((op): op is ManagementShape & (typeof OPERATIONS)[number] => op.auth === 'console');

// Who may call what is decided before storage is read: SQLite is enough.
describe('every management operation against every caller kind', () => {
  let server: TestServer;
  const kinds: { name: string; token: string | null; expect: (op: ManagementShape) => Outcome }[] = [];

  before(async () => {
    server = await startServer({ database: 'sqlite', webhooks: false });
    const { acme, owner, member, stranger, console: console_, ownerId } = await ownerMemberStranger(server);
    const consoleIssuer = `${server.base}/`;
    const issuer = server.issuer('acme');

    const serviceAccount = async (org: string, token: string) => {
      const made = await call(server, 'POST', `/organizations/${org}/service-accounts`, token, {
        name: `Every scope of ${org}`,
        scopes: SERVICE_ACCOUNT_SCOPES,
      });
      assert.equal(made.status, 201, made.text);
      const issued = await tokenRequest(consoleIssuer, {
        grant_type: 'client_credentials',
        client_id: made.body.client_id,
        client_secret: made.body.client_secret,
      });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      return issued.body.access_token as string;
    };

    // An end user of acme and their own token; the same user impersonated by acme's owner; and a
    // token of theirs promoted for a confidential client (RFC 8693).
    const ada = (await makeUser(server.deps, acme, 'ada@acme.test')).user;
    const web = (await makeClient(server.deps, acme)).clientId;
    const userToken = (await signIn(issuer, web, 'ada@acme.test')).accessToken;
    const { verifier, challenge } = pkcePair();
    const started = await call(server, 'POST', `/organizations/acme/users/${ada.id}/impersonation`, owner, {
      reason: 'caller kinds',
      client_id: web,
      redirect_uri: CALLBACK,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    assert.equal(started.status, 201, started.text);
    const opened = await new FormBrowser().get(started.body.url);
    const code = new URL(locationOf(opened, started.body.url)).searchParams.get('code') ?? '';
    const impersonated = await tokenRequest(issuer, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
      client_id: web,
    });
    assert.deepEqual(decodeJwt(impersonated.body.access_token as string).act, { sub: ownerId });
    const api = await makeClient(server.deps, acme, {
      name: 'Billing API',
      kind: 'confidential',
      redirectUris: [],
      promoteFrom: [web],
    });
    const promoted = await tokenRequest(issuer, {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: userToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      client_id: api.clientId,
      client_secret: api.secret as string,
    });
    assert.equal(decodeJwt(promoted.body.access_token as string).azp, web);

    // The console never opens a session someone else acts in: this one is made by hand, to show
    // that a console token with `act` (here: the member acting as acme's owner) manages nothing.
    const consoleOrg = await findConsoleOrg(server.db);
    assert.ok(consoleOrg);
    const now = Date.now();
    const actingSession = await server.db.transaction().execute((trx) =>
      openSession(
        trx,
        consoleOrg,
        {
          userId: ownerId,
          clientId: console_.clientId,
          amr: [],
          acr: 'urn:tessera:acr:impersonation',
          scope: FULL_CONSOLE_SCOPE,
          actorId: decodeJwt(member).sub as string,
        },
        now,
      ),
    );
    const signer = await server.deps.keyRing.signer(consoleOrg.id);
    const acting = (await signSessionToken(server.deps, signer, consoleOrg, actingSession, now)).accessToken;

    const through = (): Outcome => 'through';
    const people = (op: ManagementShape) => PEOPLE_ONLY.includes(op.operationId);
    kinds.push(
      { name: 'the owner (every console scope)', token: owner, expect: through },
      { name: 'anonymous', token: null, expect: () => noToken },
      {
        name: 'the owner with org:read only',
        token: await console_.token('owner@acme.test', 'openid org:read'),
        expect: (op) => (op.scope === 'org:read' ? 'through' : insufficient(op.scope)),
      },
      {
        name: 'a member (every console scope)',
        token: member,
        expect: (op) => {
          if (op.who === 'owners') return refused(403, NOT_AN_OWNER);
          if (op.who === 'owners, members 404') return refused(404, NO_SUCH_ORG);
          return 'through';
        },
      },
      {
        name: 'the owner of another org',
        token: stranger,
        expect: (op) =>
          op.who === 'console user' && !op.path.includes(':org') ? 'through' : refused(404, NO_SUCH_ORG),
      },
      {
        name: 'a service account of acme (every scope it can hold)',
        token: await serviceAccount('acme', owner),
        expect: (op) => {
          if (people(op)) return refused(403, NOT_A_PERSON);
          return SERVICE_ACCOUNT_SCOPES.includes(op.scope as string) ? 'through' : insufficient(op.scope);
        },
      },
      {
        name: 'a service account of another org',
        token: await serviceAccount('beta', stranger),
        expect: (op) => (people(op) ? refused(403, NOT_A_PERSON) : refused(404, NO_SUCH_ORG)),
      },
      { name: 'an end user’s token of acme', token: userToken, expect: () => badToken },
      {
        name: 'an impersonated end user’s token',
        token: impersonated.body.access_token as string,
        expect: () => badToken,
      },
      {
        name: 'a promoted (token exchange) token',
        token: promoted.body.access_token as string,
        expect: () => badToken,
      },
      { name: 'a console token with act', token: acting, expect: () => badToken },
    );
  });
  after(() => server.close());

  test('each operation is placed: people only, or service accounts too; the declarations say the same', () => {
    for (const op of managementOps()) {
      const placed = [PEOPLE_ONLY, SERVICE_ACCOUNTS_TOO].filter((list) => list.includes(op.operationId));
      assert.equal(placed.length, 1, `${op.operationId}: decide whether a service account may call it`);
      assert.equal(op.people === true, PEOPLE_ONLY.includes(op.operationId), op.operationId);
      // Members read what members read; every change is an owner's.
      if (op.method !== 'get') assert.notEqual(op.who, 'members', op.operationId);
    }
    const known = new Set(managementOps().map((op) => op.operationId));
    for (const id of [...PEOPLE_ONLY, ...SERVICE_ACCOUNTS_TOO])
      assert.ok(known.has(id), `${id}: no such operation`);
  });

  test('each caller kind gets, on each operation, the refusal its kind gets or what the owner gets', async () => {
    for (const op of managementOps()) {
      // Every path parameter but the org names nothing; a body with an unknown field changes nothing.
      const path = op.path.replace(':org', 'acme').replace(/:\w+/g, 'nothing_here');
      const body = op.body ? { caller_kinds: true } : undefined;
      const ask = (token: string | null) => call(server, op.method.toUpperCase(), path, token, body);
      const where = `${op.method.toUpperCase()} ${op.path}`;
      const baseline = await ask(kinds[0]?.token ?? null);
      // The owner is never refused by the guard.
      assert.ok(
        ![401, 403].includes(baseline.status),
        `${where}: the owner got ${baseline.status} ${baseline.text}`,
      );
      assert.notDeepEqual(baseline.body, NO_SUCH_ORG, where);
      for (const kind of kinds.slice(1)) {
        const res = await ask(kind.token);
        const expected = kind.expect(op);
        const what = `${where} as ${kind.name}: ${res.status} ${res.text}`;
        if (expected === 'through') {
          assert.equal(res.status, baseline.status, what);
          if (res.status >= 400) assert.deepEqual(res.body, baseline.body, what);
          continue;
        }
        assert.equal(res.status, expected.status, what);
        assert.deepEqual(res.body, expected.body, what);
        if (expected.challenge !== undefined) {
          assert.equal(res.headers.get('www-authenticate'), expected.challenge, what);
        }
      }
    }
  });
});
