import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { OPERATIONS } from '../../src/http/declarations.js';
import { endpoint, isEndpoint } from '../../src/http/management/endpoint.js';
import { registerOperations } from '../../src/http/register-operations.js';
import { routesOf } from '../../src/http/route-table.js';
import { pageContext } from '../../src/http/sign-in/plugin.js';
import { Metrics } from '../../src/observability/metrics.js';
import { startServer, type TestServer } from '../support/server.js';

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
      'POST /oauth/authorize',
      'POST /oauth/logout',
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
      responses: {},
    } as const;
    const handle = async () => null;
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
