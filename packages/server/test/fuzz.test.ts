import assert from 'node:assert/strict';
import { after, before, describe } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import { createDirectory } from '../src/domain/scim/index.js';
import { SYSTEM } from '../src/domain/types.js';
import { buildApp } from '../src/http/app.js';
import { isEndpoint } from '../src/http/management/endpoint.js';
import { OPERATIONS } from '../src/http/openapi/document.js';
import type { Operation } from '../src/http/openapi/operation.js';
import { type RegisteredRoute, routesOf } from '../src/http/route-table.js';
import { consoleOf, ownedOrg } from './management/support/console.js';
import { CALLBACK, makeClient, makeUser, pkcePair, signIn } from './sign-in/support/fixtures.js';
import { databaseSkip, storageSuite, storageTestsOn } from './support/databases.js';
import { startServer, type TestServer } from './support/server.js';

/**
 * Every route of the route table, fed NUL bytes, unpaired surrogates, over-long values, malformed
 * bodies, wrong content types and repeated parameters — in the path, the query, forms and JSON
 * bodies, with and without a valid bearer token — answers without a 5xx, and every error is in
 * its endpoint's family: hosted pages an HTML page, OAuth `error`/`error_description`, the API
 * `error`/`error_detail`, SCIM RFC 7644 §3.12's error body as `application/scim+json`.
 */

/** Past the 64 KB body limit: such a body is refused before it is read. */
const LONG = 'a'.repeat(100_000);
/**
 * Longer than any field may be, yet within the 64 KB body limit and within the 16 KB that node's HTTP
 * server takes for a request line and its headers: it reaches the handler, from a form and from a query
 * (a longer query never does: node answers 431 before the app sees it).
 */
const LONG_FIELD = 'a'.repeat(10_000);

/** Query and form values, as they travel: NUL, a UTF-8-encoded surrogate, overlong and broken escapes. */
const ENCODED_VALUES = ['%00', 'a%00b', '%ED%A0%80', '%C0%80', '%zz', LONG_FIELD];
/** JSON values: text PostgreSQL cannot store, too much text, and the wrong types. */
const JSON_VALUES: unknown[] = [
  '\u0000',
  'a\ud800',
  '\udc00b',
  LONG_FIELD,
  42,
  true,
  null,
  ['a'],
  { deeper: ['x', '\u0000'] },
];
/** A body: [content type, payload]. */
type Body = [string | undefined, string];

/** Whole bodies. */
const BODIES: Body[] = [
  ['application/json', '{not json'],
  ['application/json', ''],
  ['application/json', '[]'],
  ['application/json', '"text"'],
  ['application/json', 'null'],
  ['application/json', '{"a\\u0000":"x"}'],
  ['application/json', '{"a":["\\ud800"]}'],
  ['application/json', `${'['.repeat(30_000)}${']'.repeat(30_000)}`],
  ['application/json', JSON.stringify({ a: LONG })],
  ['application/x-www-form-urlencoded', 'a=%00&a=%00'],
  ['application/x-www-form-urlencoded', `a=${LONG}`],
  ['text/plain', 'a\u0000b'],
  ['text/plain', '{"redirect_uris":["https://a.example/\\u0000"]}'],
  ['application/xml', '<a>\u0000</a>'],
  [
    'multipart/form-data; boundary=x',
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\r\n--x--',
  ],
  [undefined, 'a=b'],
];

/** Names the hosted pages read from their query and forms. */
const PAGE_FIELDS = [
  'req',
  'key',
  'csrf',
  'email',
  'password',
  'first_name',
  'last_name',
  'decision',
  'step',
  'code',
];

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/**
 * The hosted pages (the authorization and end session endpoints among them): routes marked as pages
 * (http/sign-in/page-routes.ts), whose own errors are HTML. The JSON endpoints beside them (passkey
 * ceremonies under /login and /profile) are not.
 */
const isPage = (route: RegisteredRoute) => route.hostedPage;

type Family = 'page' | 'oauth' | 'api' | 'scim';

/** The family an error of `route` must be in. */
function familyOf(route: RegisteredRoute, status: number, error: unknown): Family {
  if (isPage(route)) return 'page';
  // The SCIM API answers RFC 7644 §3.12's error body on every path of its own, an unknown host's included.
  if (route.url.startsWith('/scim/v2/')) return 'scim';
  // No org at this host, or no such route: the service's routing answer, the same on every path.
  if (status === 404 && error === 'not_found') return 'api';
  // Userinfo's token failures are the bearer APIs' 401 and 403 (RFC 6750 puts the error in WWW-Authenticate).
  if (route.url === '/oauth/userinfo' && (status === 401 || status === 403)) return 'api';
  return route.url.startsWith('/oauth/') ? 'oauth' : 'api';
}

/** RFC 7644 §3.12: `schemas` the Error URN, `status` the status as a string, `scimType` and `detail` strings. */
function scimProblem(
  where: () => string,
  request: InjectOptions,
  res: LightMyRequestResponse,
  type: string,
): string | null {
  if (!type.startsWith('application/scim+json')) return `${where()}: not SCIM JSON: ${type}`;
  if (request.method === 'HEAD') return null;
  const body = res.json() as Record<string, unknown>;
  const fine =
    JSON.stringify(body.schemas) === '["urn:ietf:params:scim:api:messages:2.0:Error"]' &&
    body.status === String(res.statusCode) &&
    Object.entries(body).every(
      ([k, v]) =>
        k === 'schemas' || k === 'status' || ((k === 'scimType' || k === 'detail') && typeof v === 'string'),
    );
  return fine ? null : `${where()}: not the SCIM error body: ${res.body.slice(0, 200)}`;
}

/** What is wrong with `res` as an answer of `route`, or null. */
function problemWith(
  route: RegisteredRoute,
  request: InjectOptions,
  res: LightMyRequestResponse,
): string | null {
  // Named only for a problem: shortening a 100 KB URL for each of the walk's requests cost seconds.
  const where = () => {
    const url = String(request.url).replace(/a{50,}/g, 'a…');
    return `${request.method} ${url.slice(0, 120)} [${request.headers?.['content-type']}] → ${res.statusCode}`;
  };
  if (res.statusCode >= 500) return `${where()}: ${res.body.slice(0, 200)}`;
  if (res.headers['x-content-type-options'] !== 'nosniff') return `${where()}: no X-Content-Type-Options`;
  if (res.statusCode < 400) return null;
  const type = String(res.headers['content-type'] ?? '');
  if (isPage(route)) return type.startsWith('text/html') ? null : `${where()}: not an HTML page: ${type}`;
  if (familyOf(route, res.statusCode, null) === 'scim') return scimProblem(where, request, res, type);
  if (!type.startsWith(JSON_TYPE)) return `${where()}: not JSON: ${type}`;
  if (request.method === 'HEAD') return null;
  const body = res.json() as Record<string, unknown>;
  const family = familyOf(route, res.statusCode, body.error);
  const detail = family === 'oauth' ? 'error_description' : 'error_detail';
  const fine =
    typeof body.error === 'string' &&
    Object.entries(body).every(([k, v]) => k === 'error' || (k === detail && typeof v === 'string'));
  return fine ? null : `${where()}: not the ${family} error body: ${res.body.slice(0, 200)}`;
}

const propertiesOf = (schema: z.ZodType | undefined): string[] => {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: object };
  return Object.keys(json.properties ?? {});
};

interface Fixtures {
  consoleHost: string;
  orgHost: string;
  consoleToken: string;
  userToken: string;
  /** A SCIM directory's token: the SCIM routes are walked past their bearer check too. */
  scimToken: string;
  /** A user the walk may disable, sign out or delete through the management API (never the token's). */
  walkedUserId: string;
  publicClientId: string;
  machine: { id: string; secret: string };
}

/** What a route is sent around the one value being tried: enough to get past its first checks. */
function baseOf(route: RegisteredRoute, f: Fixtures) {
  let query: Record<string, string> = {};
  let form: Record<string, string> = {};
  let json: Record<string, unknown> = {};
  const pkce = { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' };
  if (route.url === '/oauth/authorize') {
    query = {
      response_type: 'code',
      client_id: f.publicClientId,
      redirect_uri: CALLBACK,
      state: 'fuzz',
      ...pkce,
    };
  }
  if (route.url === '/oauth/token') {
    form = { grant_type: 'client_credentials', client_id: f.machine.id, client_secret: f.machine.secret };
  }
  if (route.url === '/oauth/revoke') form = { token: 'nope', client_id: f.publicClientId };
  if (route.url === '/oauth/par') {
    form = {
      response_type: 'code',
      client_id: f.publicClientId,
      redirect_uri: CALLBACK,
      state: 'fuzz',
      ...pkce,
    };
  }
  if (isPage(route)) form = { csrf: 'nope', email: 'ada@acme.test', password: 'not the password' };
  if (route.url === '/oauth/register')
    json = { redirect_uris: ['https://app.example/cb'], client_name: 'Fuzz' };
  if (route.url === '/organizations/:org/webhooks') {
    json = { url: 'https://hooks.example.com/fuzz', events: ['tenant.*'] };
  }
  if (route.url.endsWith('/impersonation')) {
    json = { reason: 'fuzz', client_id: f.publicClientId, redirect_uri: CALLBACK, state: 'fuzz', ...pkce };
  }
  if (route.url.startsWith('/tenants')) json = { name: 'Fuzz' };
  return { query, form, json };
}

/** A path parameter's plausible value (a real user for impersonation, so it goes deep). */
function plausible(url: string, name: string, f: Fixtures): string {
  if (name === 'org') return 'acme';
  if (name === 'deliveryId') return 'wdl_nope';
  if (url.includes('/tenants/')) return 'tnt_nope';
  if (url.includes('/users/')) return f.walkedUserId;
  return 'whk_nope';
}

/**
 * Whether a tried value can reach storage, so that the walk tries it on PostgreSQL as well as on
 * SQLite. Not a NUL or a lone surrogate (raw, JSON-escaped or percent-encoded): the edge refuses those
 * before any handler, whatever the database (http/storable-text.ts; the test below checks that
 * refusal, on SQLite as it comes before storage). Everything else it tries in a field (long text, broken escapes, repeats, the
 * wrong JSON types) may pass the parsers and schemas and meet a column. Whole bodies that replace the
 * route's own are refused by the body parser or the schema, and run on SQLite only.
 */
function reachesStorage(tried: string): boolean {
  return !(
    tried.includes('\u0000') ||
    /[\ud800-\udfff]/u.test(tried) ||
    /\\u0000|%00|%ED%A0%80|\\ud[89a-f][0-9a-f]{2}/i.test(tried)
  );
}

const queryString = (pairs: [string, string][]) =>
  pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`;
const encodedPairs = (values: Record<string, string>) =>
  Object.entries(values).map(([k, v]) => [k, encodeURIComponent(v)] as [string, string]);

/**
 * A request of the walk, whether what it tries can reach storage (reachesStorage), and whether it
 * tries it in the query or the body (not the path): a declared endpoint's guard refuses a request
 * without a token before it reads either (http/management/endpoint-handler.ts).
 */
interface Tried {
  request: InjectOptions;
  storage: boolean;
  inQueryOrBody: boolean;
}

/** Every request the walk sends to `route` (credentials are added by the caller). */
function requestsFor(route: RegisteredRoute, op: Operation | undefined, f: Fixtures): Tried[] {
  const host = op?.hosts === 'console' ? f.consoleHost : f.orgHost;
  const base = baseOf(route, f);
  const names = new Set([
    ...propertiesOf(op?.query),
    ...propertiesOf(op?.body?.schema),
    ...Object.keys({ ...base.query, ...base.form, ...base.json }),
    ...(isPage(route) ? PAGE_FIELDS : []),
    'host',
    'zz',
  ]);
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
  const takesForm = isPage(route) || op?.body?.contentType === FORM;
  const baseForm = encodedPairs(base.form);
  const formOf = (pairs: [string, string][]) =>
    pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
  /** The route's own body: so what is tried in the path or query reaches past the body checks. */
  const baseBody: Body | undefined = !hasBody
    ? undefined
    : takesForm
      ? [FORM, formOf(baseForm)]
      : [JSON_TYPE, JSON.stringify(base.json)];

  const out: Tried[] = [];
  let inQueryOrBody = false;
  const send = (storage: boolean, url: string, body = baseBody) =>
    out.push({
      storage,
      inQueryOrBody,
      request: {
        method: route.method as InjectOptions['method'],
        url,
        headers: { host, ...(body?.[0] ? { 'content-type': body[0] } : {}) },
        ...(body === undefined ? {} : { payload: body[1] }),
      },
    });
  const pathWith = (values: Record<string, string> = {}) =>
    route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => values[name] ?? plausible(route.url, name, f));
  const baseQuery = encodedPairs(base.query);
  const path = pathWith();
  const url = path + queryString(baseQuery);

  send(true, url);
  for (const [, name] of route.url.matchAll(/:([A-Za-z]+)/g)) {
    const own = plausible(route.url, name as string, f);
    for (const value of ['%00', `${own}%00`, '%ED%A0%80', '%zz', 'a'.repeat(3000)]) {
      send(reachesStorage(value), pathWith({ [name as string]: value }) + queryString(baseQuery));
    }
  }
  inQueryOrBody = true;
  for (const name of names) {
    const others = baseQuery.filter(([k]) => k !== name);
    for (const value of ENCODED_VALUES)
      send(reachesStorage(value), path + queryString([...others, [name, value]]));
    send(true, path + queryString([...baseQuery, [name, 'a'], [name, 'b']]));
  }
  if (!hasBody) return out;

  for (const name of names) {
    if (takesForm) {
      const others = baseForm.filter(([k]) => k !== name);
      for (const value of ENCODED_VALUES)
        send(reachesStorage(value), url, [FORM, formOf([...others, [name, value]])]);
      send(true, url, [FORM, formOf([...baseForm, [name, 'a'], [name, 'b']])]);
    } else {
      for (const value of JSON_VALUES) {
        send(reachesStorage(JSON.stringify(value)), url, [
          JSON_TYPE,
          JSON.stringify({ ...base.json, [name]: value }),
        ]);
      }
      send(false, url, [JSON_TYPE, JSON.stringify({ ...base.json, [`${name}\u0000`]: 'x' })]);
    }
  }
  for (const body of BODIES) send(false, url, body);
  return out;
}

for (const database of storageSuite(
  "values that reach storage (long text, repeated parameters, wrong JSON types) meet each dialect's columns; on PostgreSQL only those (reachesStorage)",
)) {
  describe(`every route, fed input it must refuse, on ${database}`, async () => {
    const skip = await databaseSkip(database);
    // On PostgreSQL only these storage tests run; the others check HTTP only (support/databases.ts).
    const test = storageTestsOn(database, ['never a 5xx, and every error in its endpoint’s family']);
    let server: TestServer;
    let app: FastifyInstance;
    let f: Fixtures;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      const org = await ownedOrg(server, 'acme');
      const consoleToken = await (await consoleOf(server)).token('owner@acme.test');
      const { clientId: publicClientId } = await makeClient(server.deps, org);
      const machine = await makeClient(server.deps, org, {
        kind: 'confidential',
        grantTypes: ['client_credentials'],
        redirectUris: [CALLBACK],
      });
      await makeUser(server.deps, org, 'ada@acme.test');
      const { user: walked } = await makeUser(server.deps, org, 'walked@acme.test');
      const { accessToken: userToken } = await signIn(server.issuer('acme'), publicClientId, 'ada@acme.test');
      const { token: scimToken } = await createDirectory(server.deps, org, { name: 'Fuzz' }, SYSTEM);
      f = {
        consoleHost: server.config.baseHost,
        orgHost: `acme.localhost:${server.port}`,
        consoleToken,
        userToken,
        scimToken,
        walkedUserId: walked.id,
        publicClientId,
        machine: { id: machine.clientId, secret: machine.secret as string },
      };
      // A second app on the same store, not listening: its route table is walked.
      app = buildApp(server.deps);
      await app.ready();
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await server.close();
    });

    // On PostgreSQL only what can reach storage (reachesStorage); the rest is refused in front of
    // it, the same on both databases, and is tried on SQLite.
    const tries = (storage: boolean) => database === 'sqlite' || storage;

    test('never a 5xx, and every error in its endpoint’s family', { skip }, async () => {
      const routes = routesOf(app);
      assert.ok(routes.length > 40, 'the route table is complete');
      const problems: string[] = [];
      let sent = 0;
      for (const route of routes) {
        const op = OPERATIONS.find((o) => o.method.toUpperCase() === route.method && o.path === route.url);
        const token =
          op?.auth === 'scim' ? f.scimToken : op?.hosts === 'console' ? f.consoleToken : f.userToken;
        const bearers = op && op.auth !== 'none' ? [null, token] : [null];
        for (const { request, storage, inQueryOrBody } of requestsFor(route, op, f)) {
          if (!tries(storage)) continue;
          for (const bearer of bearers) {
            // Without a token every endpoint's guard answers 401 before it reads the query or the body:
            // what such a request tries reaches no storage, and is tried on SQLite only.
            if (!bearer && inQueryOrBody && op && isEndpoint(op) && !tries(false)) continue;
            const headers = { ...request.headers, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) };
            // Each from an address of its own: throttles and the registration limit are not what this checks.
            const remoteAddress = `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
            sent++;
            const problem = problemWith(
              route,
              request,
              await app.inject({ ...request, headers, remoteAddress }),
            );
            if (problem) problems.push(problem);
          }
        }
      }
      assert.deepEqual(problems.slice(0, 20), [], `${problems.length} of ${sent} requests`);
      console.log(`fuzz on ${database}: ${sent} requests`);
    });

    test('text PostgreSQL cannot store is 400 in each family, naming where it was; nothing is stored', {
      skip,
    }, async () => {
      const inject = (options: InjectOptions) => app.inject(options);
      const detail = (where: string) => `${where} must not contain a NUL character or an unpaired surrogate`;
      const consoleAuth = { host: f.consoleHost, authorization: `Bearer ${f.consoleToken}` };
      const userAuth = { host: f.orgHost, authorization: `Bearer ${f.userToken}` };

      // OAuth: the form's name, RFC 6749's body.
      const token = await inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { host: f.orgHost, 'content-type': FORM },
        payload: `grant_type=client_credentials&client_id=${f.machine.id}%00&client_secret=${f.machine.secret}`,
      });
      assert.equal(token.statusCode, 400);
      assert.deepEqual(token.json(), { error: 'invalid_request', error_description: detail('client_id') });
      // Like every token response, refused at the edge or not.
      assert.equal(token.headers['cache-control'], 'no-store');
      assert.equal(token.headers.pragma, 'no-cache');

      // Registration: RFC 7591's codes, by the field.
      const register = (payload: string, type = JSON_TYPE) =>
        inject({
          method: 'POST',
          url: '/oauth/register',
          headers: { host: f.consoleHost, 'content-type': type },
          remoteAddress: '192.0.2.1',
          payload,
        });
      const before = await server.db.selectFrom('clients').select('id').execute();
      for (const [payload, type, body] of [
        [
          '{"redirect_uris":["https://a.example/cb\\u0000"]}',
          JSON_TYPE,
          { error: 'invalid_redirect_uri', error_description: detail('redirect_uris[0]') },
        ],
        [
          '{"redirect_uris":["https://a.example/cb"],"client_name":"\\ud800"}',
          JSON_TYPE,
          { error: 'invalid_client_metadata', error_description: detail('client_name') },
        ],
        // Read as JSON whatever its content type, so checked as JSON too.
        [
          '{"redirect_uris":["https://a.example/cb"],"logo_uri":"\\u0000"}',
          'text/plain',
          { error: 'invalid_client_metadata', error_description: detail('logo_uri') },
        ],
      ] as const) {
        const res = await register(payload, type);
        assert.equal(res.statusCode, 400, payload);
        assert.deepEqual(res.json(), body);
        assert.equal(res.headers['cache-control'], 'no-store', payload);
      }
      assert.equal((await server.db.selectFrom('clients').select('id').execute()).length, before.length);

      // The management API: the body's invalid_request, the query's invalid_query, and for the path
      // the spec's 404 of an org that does not exist or an id that is not a whk_ id.
      const webhook = await inject({
        method: 'POST',
        url: '/organizations/acme/webhooks',
        headers: { ...consoleAuth, 'content-type': JSON_TYPE },
        payload: '{"url":"https://hooks.example.com/\\u0000","events":["tenant.*"]}',
      });
      assert.equal(webhook.statusCode, 400);
      assert.deepEqual(webhook.json(), { error: 'invalid_request', error_detail: detail('url') });
      const events = await inject({
        url: '/organizations/acme/events?actor_id=usr_%00',
        headers: consoleAuth,
      });
      assert.deepEqual(
        [events.statusCode, events.json()],
        [400, { error: 'invalid_query', error_detail: detail('actor_id') }],
      );
      for (const [url, where] of [
        ['/organizations/acme/webhooks/whk_%00', 'id'],
        ['/organizations/ac%00me/webhooks/whk_x', 'org'],
      ]) {
        const res = await inject({ method: 'DELETE', url: url as string, headers: consoleAuth });
        assert.deepEqual(
          [res.statusCode, res.json()],
          [404, { error: 'not_found', error_detail: detail(where as string) }],
        );
      }

      // The user API: its bodies' invalid_body; a surrogate pair (an emoji) is fine text.
      const tenant = await inject({
        method: 'POST',
        url: '/tenants',
        headers: { ...userAuth, 'content-type': JSON_TYPE },
        payload: '{"name":"Fuzz \\udc00"}',
      });
      assert.deepEqual(
        [tenant.statusCode, tenant.json()],
        [400, { error: 'invalid_body', error_detail: detail('name') }],
      );
      const emoji = await inject({
        method: 'POST',
        url: '/tenants',
        headers: { ...userAuth, 'content-type': JSON_TYPE },
        payload: '{"name":"Fuzz \\ud83e\\udde9"}',
      });
      assert.equal(emoji.statusCode, 201);
      assert.equal(emoji.json().name, 'Fuzz 🧩');

      // Hosted pages (the authorization endpoint among them): their HTML error page.
      for (const options of [
        { url: `/oauth/authorize?client_id=${f.publicClientId}%00&response_type=code` },
        { url: '/login?req=%00' },
        {
          method: 'POST' as const,
          url: '/login',
          headers: { 'content-type': FORM },
          payload: 'email=ada%00@acme.test&password=x&csrf=x',
        },
      ]) {
        const res = await inject({ ...options, headers: { host: f.orgHost, ...options.headers } });
        assert.equal(res.statusCode, 400, options.url);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.equal(res.headers.location, undefined);
        assert.match(res.body, /must not contain a NUL character or an unpaired surrogate/);
      }

      // A path that is not UTF-8 at all names no org either: the same 404.
      const broken = await inject({ url: '/organizations/%ED%A0%80/events', headers: consoleAuth });
      assert.deepEqual(
        [broken.statusCode, broken.json()],
        [404, { error: 'not_found', error_detail: 'malformed request' }],
      );
    });
  });
}
