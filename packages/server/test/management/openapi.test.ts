import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp } from '../../src/http/app.js';
import { buildComponents } from '../../src/http/openapi/components.js';
import { isHtmlPage, OPERATIONS, openApiPath } from '../../src/http/openapi/document.js';
import { schemaNames } from '../../src/http/openapi/schema-names.js';
import { routesOf } from '../../src/http/route-table.js';
import { databaseSkip, httpSuite } from '../support/databases.js';
import { startServer, type TestServer } from '../support/server.js';
import { PEOPLE_ONLY } from './support/caller-kinds.js';
import { call, consoleOf, ownedOrg } from './support/console.js';

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, asserted field by field
type Json = Record<string, any>;

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** JSON Schema 2020-12 keywords (core, applicator, validation, format, meta-data) OpenAPI 3.1 takes. */
const KEYWORDS = new Set(
  (
    '$id $schema $ref $defs $comment $anchor $dynamicRef $dynamicAnchor allOf anyOf oneOf not if then else ' +
    'properties additionalProperties patternProperties propertyNames prefixItems items contains ' +
    'type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength ' +
    'pattern maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required ' +
    'dependentRequired format title description default deprecated readOnly writeOnly examples ' +
    'contentMediaType contentEncoding unevaluatedProperties unevaluatedItems discriminator xml example'
  ).split(' '),
);
const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer']);

/** Fails on anything in `schema` that is not a JSON Schema 2020-12 keyword or a well-formed value. */
function checkSchema(schema: unknown, where: string): void {
  if (typeof schema === 'boolean') return;
  assert.ok(typeof schema === 'object' && schema !== null && !Array.isArray(schema), where);
  const s = schema as Json;
  for (const key of Object.keys(s)) assert.ok(KEYWORDS.has(key), `${where}: unknown keyword ${key}`);
  for (const t of [s.type ?? []].flat()) assert.ok(TYPES.has(t), `${where}: type ${t}`);
  if (s.required) {
    assert.ok(Array.isArray(s.required), where);
    for (const name of s.required) assert.ok(name in (s.properties ?? {}), `${where}: required ${name}`);
  }
  if (s.pattern) new RegExp(s.pattern, 'u');
  for (const [name, sub] of Object.entries(s.properties ?? {})) checkSchema(sub, `${where}.${name}`);
  for (const key of ['items', 'additionalProperties', 'not', 'propertyNames'] as const) {
    if (s[key] !== undefined) checkSchema(s[key], `${where}/${key}`);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    if (s[key] !== undefined) {
      assert.ok(Array.isArray(s[key]) && s[key].length > 0, `${where}/${key}`);
      for (const [i, sub] of (s[key] as unknown[]).entries()) checkSchema(sub, `${where}/${key}/${i}`);
    }
  }
}

const REF = '#/components/schemas/';

/** The component a `{$ref}` names, with the ref's own keywords (a description) laid over it. */
function resolve(doc: Json, schema: Json): Json {
  if (typeof schema.$ref !== 'string') return schema;
  assert.ok(schema.$ref.startsWith(REF), schema.$ref);
  const target = doc.components.schemas[schema.$ref.slice(REF.length)];
  assert.ok(target, `${schema.$ref} resolves`);
  const { $ref: _, ...siblings } = schema;
  return { ...resolve(doc, target), ...siblings };
}

/** `schema` with every `$ref` inside it replaced by what it names (what zod writes inline). */
function inlined(doc: Json, schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlined(doc, s));
  if (typeof schema !== 'object' || schema === null) return schema;
  const resolved = resolve(doc, schema as Json);
  return Object.fromEntries(Object.entries(resolved).map(([k, v]) => [k, inlined(doc, v)]));
}

/** Every schema object inside `value`, with where it is. */
function* schemaNodes(value: unknown, where: string): Generator<[Json, string]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* schemaNodes(item, `${where}/${i}`);
  } else if (typeof value === 'object' && value !== null) {
    yield [value as Json, where];
    for (const [k, v] of Object.entries(value)) yield* schemaNodes(v, `${where}/${k}`);
  }
}

/** A documented path with its parameters filled in (`/organizations/{org}/…` → `…/acme/…`). */
const concrete = (path: string) =>
  path
    .replace(':org', 'acme')
    .replace(':deliveryId', 'wdl_nope')
    .replace(':con', 'con_nope')
    .replace(
      ':id',
      path.includes('/tenants/') ? 'tnt_nope' : path.includes('/users/') ? 'usr_nope' : 'whk_nope',
    );

for (const database of httpSuite()) {
  describe(`the OpenAPI document and the routes that exist, on ${database}`, async () => {
    const skip = await databaseSkip(database);
    let server: TestServer;
    let app: FastifyInstance;
    let doc: Json;
    let owner: string;

    before(async () => {
      if (skip) return;
      server = await startServer({ database, webhooks: false });
      await ownedOrg(server, 'acme');
      owner = await (await consoleOf(server)).token('owner@acme.test');
      // A second app on the same store, not listening: its route table is read and probed.
      app = buildApp(server.deps);
      await app.ready();
      const res = await fetch(`${server.base}/openapi.json`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      doc = (await res.json()) as Json;
    });
    after(async () => {
      if (skip) return;
      await app.close();
      await server.close();
    });

    test('GET /openapi.json: an OpenAPI 3.1 document, the same on every host', { skip }, async () => {
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(doc.info.title, 'Tessera');
      assert.equal(doc.info.version, version);
      assert.deepEqual(
        doc.servers.map((s: Json) => s.url),
        [server.base, `http://{org}.localhost:${server.port}`],
      );
      assert.equal(doc.servers[1].variables.org.default, 'acme');
      assert.deepEqual(doc.info.license, { name: 'Apache-2.0', identifier: 'Apache-2.0' });
      const schemes = Object.keys(doc.components.securitySchemes);
      const operationIds = new Set<string>();
      for (const [path, item] of Object.entries(doc.paths) as [string, Json][]) {
        assert.match(path, /^\/[^?#]*$/);
        assert.doesNotMatch(path, /:/, 'templates use {name}, not :name');
        const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        for (const [method, op] of Object.entries(item) as [string, Json][]) {
          if (method === 'servers') continue;
          const where = `${method.toUpperCase()} ${path}`;
          assert.ok(METHODS.includes(method), where);
          assert.ok(typeof op.operationId === 'string' && !operationIds.has(op.operationId), where);
          operationIds.add(op.operationId);
          assert.ok(typeof op.summary === 'string' && op.summary.length > 0, where);
          const parameters: Json[] = op.parameters ?? [];
          const inPath = parameters.filter((p) => p.in === 'path');
          assert.deepEqual(inPath.map((p) => p.name).sort(), [...templated].sort(), where);
          for (const p of parameters) {
            assert.ok(['path', 'query', 'header', 'cookie'].includes(p.in), where);
            if (p.in === 'path') assert.equal(p.required, true, where);
            checkSchema(p.schema, `${where} ${p.name}`);
          }
          const names = parameters.map((p) => `${p.in}:${p.name}`);
          assert.equal(new Set(names).size, names.length, `${where}: a parameter twice`);
          // Every body, sent or answered, is a named component.
          for (const media of Object.values(op.requestBody?.content ?? {}) as Json[]) {
            assert.deepEqual(Object.keys(media.schema), ['$ref'], `${where} body`);
            resolve(doc, media.schema);
          }
          const statuses = Object.keys(op.responses);
          assert.ok(statuses.length > 0, where);
          for (const status of statuses) {
            assert.match(status, /^[1-5]\d\d$/, where);
            const response = op.responses[status];
            assert.ok(typeof response.description === 'string' && response.description !== '', where);
            for (const media of Object.values(response.content ?? {}) as Json[]) {
              if (!media.schema) continue;
              assert.deepEqual(Object.keys(media.schema), ['$ref'], `${where} ${status}`);
              resolve(doc, media.schema);
            }
          }
          for (const requirement of op.security) {
            for (const name of Object.keys(requirement)) assert.ok(schemes.includes(name), where);
          }
        }
      }
      // Each component is a well-formed schema; every reference in the document resolves.
      for (const [name, schema] of Object.entries(doc.components.schemas)) checkSchema(schema, name);
      for (const [node, where] of schemaNodes(doc, '#')) {
        if (typeof node.$ref === 'string') resolve(doc, node);
        assert.ok(!('$id' in node) && !('$schema' in node), where);
      }
      // The same document on an org host.
      const onOrgHost = await fetch(`${server.issuer('acme')}openapi.json`);
      assert.deepEqual(await onOrgHost.json(), doc);
    });

    test('every registered route is documented, and every documented operation is routed', {
      skip,
    }, async () => {
      // CORS preflights (http/cors.ts) answer browsers, not callers: they are not operations.
      const preflights = routesOf(app).filter((r) => r.method === 'OPTIONS');
      assert.deepEqual(preflights.map((r) => r.url).sort(), [
        '/oauth/par',
        '/oauth/revoke',
        '/oauth/token',
        '/oauth/userinfo',
      ]);
      const registered = routesOf(app)
        .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !isHtmlPage(r.method, r.url))
        .map((r) => `${r.method} ${r.url}`)
        .sort();
      const documented = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();
      assert.deepEqual(registered, documented);
      // What is left out is the hosted HTML pages and the web console, and only those.
      const pages = routesOf(app).filter(
        (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && isHtmlPage(r.method, r.url),
      );
      assert.ok(pages.length > 0);
      for (const page of pages) {
        assert.match(
          page.url,
          /^\/$|^\/(login|signup|consent|device|profile|password|email|invitation|console|sso|saml)(\/|$)/,
        );
      }
      for (const op of OPERATIONS) {
        assert.ok(doc.paths[openApiPath(op.path)]?.[op.method], `${op.method} ${op.path} in the document`);
      }

      // Each documented operation answers on the hosts it is documented for, not "no route".
      const consoleHost = server.config.baseHost;
      const orgHost = `acme.localhost:${server.port}`;
      for (const [path, item] of Object.entries(doc.paths) as [string, Json][]) {
        const op = OPERATIONS.find((o) => openApiPath(o.path) === path);
        assert.ok(op);
        for (const method of Object.keys(item).filter((m) => m !== 'servers')) {
          const hosts = item.servers ? [consoleHost] : [consoleHost, orgHost];
          for (const host of hosts) {
            const res = await app.inject({
              method: method.toUpperCase() as 'GET',
              url: concrete(op.path),
              headers: { host },
            });
            // The not-found answer: JSON, or on a page's path (/saml/{con}/…) the HTML page saying so.
            const routeMissing =
              res.statusCode === 404 &&
              (/^application\/json/.test(String(res.headers['content-type']))
                ? /^no route for /.test(res.json().error_detail ?? '')
                : res.body.includes('This page does not exist.'));
            assert.ok(!routeMissing, `${method} ${path} on ${host}: ${res.statusCode} ${res.body}`);
          }
        }
      }
      // And a path nobody documented is "no route".
      const missing = await app.inject({ method: 'GET', url: '/organizations/acme/nothing' });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), {
        error: 'not_found',
        error_detail: 'no route for GET /organizations/acme/nothing',
      });
    });

    test('what the hosted pages call as JSON, and the SAML metadata, are documented operations', {
      skip,
    }, async () => {
      const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
      const answer = (path: string, method: string, status: string) =>
        doc.paths[path][method].responses[status].content;
      assert.deepEqual(body('/login/passkey/options'), { $ref: `${REF}PasskeyOptionsRequest` });
      assert.deepEqual(body('/login/passkey'), { $ref: `${REF}PasskeySignInRequest` });
      assert.deepEqual(body('/profile/passkeys/options'), { $ref: `${REF}PasskeyOptionsRequest` });
      assert.deepEqual(body('/profile/passkeys'), { $ref: `${REF}PasskeyRegistrationRequest` });
      for (const path of ['/login/passkey/options', '/profile/passkeys/options']) {
        assert.deepEqual(answer(path, 'post', '200'), {
          'application/json': { schema: { $ref: `${REF}PasskeyOptions` } },
        });
        assert.deepEqual(answer(path, 'post', '403'), {
          'application/json': { schema: { $ref: `${REF}PasskeyRefusal` } },
        });
      }
      assert.deepEqual(answer('/login/passkey', 'post', '200'), {
        'application/json': { schema: { $ref: `${REF}PasskeyNext` } },
      });
      assert.deepEqual(
        doc.paths['/login/passkey'].post.parameters.map((p: Json) => `${p.in}:${p.name}`),
        ['query:req'],
      );
      // The profile page itself stays a page: only its JSON endpoint is an operation.
      assert.deepEqual(Object.keys(doc.paths['/profile/passkeys']), ['post']);
      assert.deepEqual(Object.keys(answer('/saml/{con}/metadata', 'get', '200')), [
        'application/samlmetadata+xml',
      ]);
      // And the document's schema is the one the route checks: a credential that is not base64url is refused.
      const refused = await app.inject({
        method: 'POST',
        url: '/login/passkey',
        headers: { host: `acme.localhost:${server.port}`, 'content-type': 'application/json' },
        payload: {
          csrf: 'x',
          credential: {
            id: 'a',
            rawId: 'a',
            type: 'public-key',
            response: { clientDataJSON: 'not base64!' },
          },
        },
      });
      assert.equal(refused.statusCode, 400);
      assert.deepEqual(refused.json(), {
        error: 'invalid_request',
        error_detail: 'credential.response.clientDataJSON: must be base64url',
      });
      assert.equal(refused.headers['cache-control'], 'no-store');
    });

    test('the event list takes exactly the documented query, validated as documented', { skip }, async () => {
      const op = doc.paths['/organizations/{org}/events'].get;
      const query: Json[] = op.parameters.filter((p: Json) => p.in === 'query');
      assert.deepEqual(
        query.map((p) => p.name),
        ['per_page', 'page', 'entity', 'verb', 'actor_id', 'key_prefix', 'from', 'to'],
      );
      assert.ok(query.every((p) => p.required === false));
      const byName = Object.fromEntries(query.map((p) => [p.name, p.schema]));
      // Page and page size are the integers the route reads them as, though the query is text.
      assert.deepEqual(byName.per_page, { type: 'integer', enum: [1, 50, 100], default: 50 });
      assert.deepEqual(byName.page, { type: 'integer', minimum: 0, maximum: 9999999, default: 0 });
      assert.deepEqual(byName.from, { type: 'string', format: 'date-time' });
      assert.deepEqual(byName.to, { type: 'string', format: 'date-time' });
      assert.deepEqual(byName.verb.enum, ['created', 'updated', 'deleted', 'login']);
      const url = (q: string) => `/organizations/acme/events?${q}`;
      // Each documented value the schema allows is accepted; what it refuses, the route refuses.
      for (const perPage of byName.per_page.enum) {
        assert.equal((await call(server, 'GET', url(`per_page=${perPage}`), owner)).status, 200);
      }
      for (const page of [byName.page.minimum, byName.page.maximum]) {
        assert.equal((await call(server, 'GET', url(`page=${page}`), owner)).status, 200);
      }
      for (const [query, detail] of [
        ['per_page=2', 'per_page: must be 1, 50 or 100'],
        [`page=${byName.page.maximum + 1}`, 'page: must be a whole number from 0 to 9999999'],
        [`page=${byName.page.minimum - 1}`, 'page: must be a whole number from 0 to 9999999'],
        ['page=1.5', 'page: must be a whole number from 0 to 9999999'],
        ['from=yesterday', 'from: must be an ISO date (2024-05-01) or date-time with a zone'],
      ]) {
        const res = await call(server, 'GET', url(query as string), owner);
        assert.deepEqual([res.status, res.body], [400, { error: 'invalid_query', error_detail: detail }]);
      }
      for (const instant of ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.123+02:00']) {
        const res = await call(server, 'GET', url(`from=${encodeURIComponent(instant)}`), owner);
        assert.equal(res.status, 200, instant);
      }
      for (const verb of byName.verb.enum) {
        assert.equal((await call(server, 'GET', url(`verb=${verb}`), owner)).status, 200);
      }
      for (const [name, schema] of Object.entries(byName) as [string, Json][]) {
        if (!schema.pattern) continue;
        const pattern = new RegExp(schema.pattern);
        for (const value of ['tenant', 'usr_abc', 'cli_abc', 'user.', '3', 'Tenant', 'x y', '-1']) {
          const res = await call(server, 'GET', url(`${name}=${encodeURIComponent(value)}`), owner);
          assert.equal(res.status, pattern.test(value) ? 200 : 400, `${name}=${value}`);
          if (res.status === 400) assert.match(res.body.error_detail, new RegExp(`^${name}: `));
        }
      }
      const unknown = await call(server, 'GET', url('sort=asc'), owner);
      assert.deepEqual(unknown.body, { error: 'invalid_query', error_detail: 'unknown parameter: sort' });
    });

    test('webhook creation takes exactly the documented body, validated as documented', {
      skip,
    }, async () => {
      const schema = inlined(
        doc,
        doc.paths['/organizations/{org}/webhooks'].post.requestBody.content['application/json'].schema,
      ) as Json;
      assert.equal(schema.additionalProperties, false);
      assert.deepEqual(schema.required, ['url', 'events']);
      assert.deepEqual(Object.keys(schema.properties), ['url', 'events']);
      const { minItems, maxItems } = schema.properties.events;
      assert.deepEqual([minItems, maxItems], [1, 50]);
      const example = schema.properties.events.items.examples[0];
      const valid = { url: 'https://hooks.example.com/doc', events: [example] };
      const post = (body: unknown) => call(server, 'POST', '/organizations/acme/webhooks', owner, body);
      assert.equal((await post(valid)).status, 201);
      const many = (n: number) => Array.from({ length: n }, (_, i) => `e${i}.created`);
      assert.equal((await post({ ...valid, events: many(maxItems) })).status, 201);
      assert.equal((await post({ ...valid, events: many(maxItems + 1) })).status, 400);
      assert.equal((await post({ ...valid, events: many(minItems - 1) })).status, 400);
      for (const name of schema.required) {
        const { [name]: _, ...rest } = valid as Json;
        const res = await post(rest);
        assert.equal(res.status, 400);
        assert.match(res.body.error_detail, new RegExp(`^${name}: `));
      }
      const extra = await post({ ...valid, undocumented: 1 });
      assert.deepEqual(extra.body, { error: 'invalid_request', error_detail: 'unknown field: undocumented' });
    });

    test('registration takes the documented body, validated as documented', { skip }, async () => {
      const schema = inlined(
        doc,
        doc.paths['/oauth/register'].post.requestBody.content['application/json'].schema,
      ) as Json;
      assert.deepEqual(schema.required, ['redirect_uris']);
      assert.deepEqual(schema.additionalProperties, {});
      assert.equal(schema.properties.token_endpoint_auth_method.const, 'none');
      const { minItems, maxItems } = schema.properties.redirect_uris;
      assert.deepEqual([minItems, maxItems], [1, 20]);
      // Each registration from an address of its own: the hourly limit is not what this checks.
      let n = 0;
      const register = async (body: unknown) => {
        const res = await app.inject({
          method: 'POST',
          url: '/oauth/register',
          headers: { host: server.config.baseHost, 'content-type': 'application/json' },
          remoteAddress: `198.51.100.${++n}`,
          payload: JSON.stringify(body),
        });
        return { status: res.statusCode, body: res.json() };
      };
      const uris = (count: number) => Array.from({ length: count }, (_, i) => `https://app.example/cb${i}`);
      assert.equal((await register({ redirect_uris: uris(maxItems) })).status, 201);
      assert.deepEqual((await register({ redirect_uris: uris(maxItems + 1) })).body, {
        error: 'invalid_redirect_uri',
        error_description: 'redirect_uris must hold at most 20 URIs',
      });
      assert.equal((await register({ redirect_uris: uris(minItems - 1) })).status, 400);
      const method = await register({
        redirect_uris: uris(1),
        token_endpoint_auth_method: 'client_secret_post',
      });
      assert.equal(method.body.error, 'invalid_client_metadata');
      // Properties the document does not list are ignored, as additionalProperties says.
      assert.equal(
        (await register({ redirect_uris: uris(1), logo_uri: 'https://x.example/l.png' })).status,
        201,
      );
    });

    test('every body is a component named after the schema its module exports', { skip }, async () => {
      const names = schemaNames();
      const exported = new Set(names.values());
      for (const name of Object.keys(doc.components.schemas)) {
        const base = name.endsWith('Input') ? name.slice(0, -'Input'.length) : name;
        assert.ok(
          exported.has(name) || exported.has(base),
          `${name}: no schema module exports it; list its module in http/openapi/schema-names.ts`,
        );
      }
      const refTo = (schema: z.ZodType) => {
        const name = names.get(schema);
        assert.ok(name);
        return [`${REF}${name}`, `${REF}${name}Input`];
      };
      for (const op of OPERATIONS) {
        const documented = doc.paths[openApiPath(op.path)][op.method];
        if (op.body) {
          const { $ref } = documented.requestBody.content[op.body.contentType].schema;
          assert.ok(refTo(op.body.schema).includes($ref), `${op.operationId}: ${$ref}`);
        }
        for (const [status, response] of Object.entries(op.responses)) {
          if (!response.schema) continue;
          const { $ref } = documented.responses[status].content['application/json'].schema;
          assert.equal($ref, refTo(response.schema)[0], `${op.operationId} ${status}`);
        }
      }
      const events = doc.paths['/organizations/{org}/events'].get.responses;
      assert.deepEqual(events['200'].content['application/json'].schema, { $ref: `${REF}AuditEntryList` });
      assert.deepEqual(events['400'].content['application/json'].schema, { $ref: `${REF}ApiError` });
      assert.deepEqual(doc.components.schemas.AuditEntryList, {
        type: 'array',
        items: { $ref: `${REF}AuditEntry` },
      });
      const webhooks = doc.paths['/organizations/{org}/webhooks'].post;
      assert.deepEqual(webhooks.requestBody.content['application/json'].schema, {
        $ref: `${REF}CreateWebhookBody`,
      });
      assert.deepEqual(webhooks.responses['201'].content['application/json'].schema, {
        $ref: `${REF}CreatedWebhook`,
      });
    });

    test('every number is an integer; page and per_page are integers on every paged list', {
      skip,
    }, async () => {
      for (const [node, where] of schemaNodes({ paths: doc.paths, components: doc.components }, '#')) {
        assert.ok(![node.type].flat().includes('number'), `${where}: a number that is not an integer`);
      }
      const schemas = doc.components.schemas;
      assert.equal(schemas.TokenResponse.properties.expires_in.type, 'integer');
      assert.equal(schemas.RegisteredClient.properties.client_id_issued_at.type, 'integer');
      assert.equal(schemas.DeliveryAttempt.properties.duration_ms.type, 'integer');
      assert.deepEqual(
        schemas.DeliveryAttempt.properties.status_code.anyOf.map((s: Json) => s.type),
        ['integer', 'null'],
      );
      const paged = OPERATIONS.filter((op) =>
        doc.paths[openApiPath(op.path)][op.method].parameters?.some((p: Json) => p.name === 'per_page'),
      );
      assert.ok(paged.some((op) => op.operationId === 'listEvents'));
      for (const op of paged) {
        const query = Object.fromEntries(
          doc.paths[openApiPath(op.path)][op.method].parameters
            .filter((p: Json) => p.in === 'query')
            .map((p: Json) => [p.name, p]),
        );
        assert.deepEqual(query.per_page, {
          name: 'per_page',
          in: 'query',
          required: false,
          description: 'entries per page',
          schema: { type: 'integer', enum: [1, 50, 100], default: 50 },
        });
        assert.deepEqual(query.page, {
          name: 'page',
          in: 'query',
          required: false,
          description: 'zero-based page number; a page past the end is empty',
          schema: { type: 'integer', minimum: 0, maximum: 9999999, default: 0 },
        });
      }
    });

    test('every timestamp is a date-time', { skip }, async () => {
      const stamped: string[] = [];
      for (const [name, schema] of Object.entries(doc.components.schemas) as [string, Json][]) {
        for (const [node, where] of schemaNodes(schema, name)) {
          for (const [field, property] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
            if (field !== 'at' && !field.endsWith('_at')) continue;
            // RFC 7591's client_id_issued_at is epoch seconds; every other one is text.
            if (property.type === 'integer') continue;
            const strings = property.anyOf
              ? property.anyOf.filter((s: Json) => s.type === 'string')
              : [property];
            assert.deepEqual(
              strings.map((s: Json) => [s.type, s.format]),
              [['string', 'date-time']],
              `${where}.${field}`,
            );
            stamped.push(`${name}.${field}`);
          }
        }
      }
      for (const field of [
        'AuditEntry.at',
        'Webhook.created_at',
        'CreatedWebhook.created_at',
        'Delivery.created_at',
        'Delivery.next_attempt_at',
        'DeliveryAttempt.at',
        'Impersonation.expires_at',
      ]) {
        assert.ok(stamped.includes(field), field);
      }
      const query = doc.paths['/organizations/{org}/events'].get.parameters;
      for (const name of ['from', 'to']) {
        assert.equal(query.find((p: Json) => p.name === name).schema.format, 'date-time', name);
      }
    });

    test('console operations name the scope they need; the console OAuth flow is described', {
      skip,
    }, async () => {
      const discovery = await (await fetch(`${server.base}/.well-known/openid-configuration`)).json();
      const { consoleOAuth, serviceAccount, userToken } = doc.components.securitySchemes;
      assert.deepEqual(Object.keys(doc.components.securitySchemes), [
        'consoleOAuth',
        'serviceAccount',
        'scimToken',
        'userToken',
      ]);
      assert.equal(consoleOAuth.type, 'oauth2');
      assert.match(consoleOAuth.description, /PKCE \(S256, required\)/);
      const { scopes, ...urls } = consoleOAuth.flows.authorizationCode;
      assert.deepEqual(Object.keys(consoleOAuth.flows), ['authorizationCode']);
      // The console issuer's own endpoints, as its discovery document names them.
      assert.deepEqual(urls, {
        authorizationUrl: discovery.authorization_endpoint,
        tokenUrl: discovery.token_endpoint,
        refreshUrl: discovery.token_endpoint,
      });
      assert.equal(urls.authorizationUrl, `${server.base}/oauth/authorize`);
      assert.deepEqual(Object.keys(scopes), [
        'openid',
        'profile',
        'email',
        'address',
        'phone',
        'offline_access',
        'org:read',
        'events:read',
        'org:write',
        'users:impersonate',
      ]);
      for (const words of Object.values(scopes) as string[]) assert.match(words, /^[A-Z][^`_]+$/);
      assert.deepEqual(serviceAccount.flows, {
        clientCredentials: {
          tokenUrl: discovery.token_endpoint,
          scopes: {
            'org:read': scopes['org:read'],
            'events:read': scopes['events:read'],
            'org:write': scopes['org:write'],
          },
        },
      });
      assert.deepEqual(userToken, {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'a user access token (`typ` user) from the org’s issuer; a DPoP-bound one (RFC 9449) only as ' +
          '`Authorization: DPoP <token>` with a `DPoP` proof of its key for the request',
      });

      const management = Object.keys(scopes).filter((s) => s.includes(':'));
      const expected: Record<string, string> = {
        listEvents: 'events:read',
        listWebhooks: 'org:read',
        listWebhookDeliveries: 'org:read',
        createWebhook: 'org:write',
        deleteWebhook: 'org:write',
        updateWebhook: 'org:write',
        retryWebhookDelivery: 'org:write',
        sendWebhookTestEvent: 'org:write',
        startImpersonation: 'users:impersonate',
      };
      for (const op of OPERATIONS) {
        const { security } = doc.paths[openApiPath(op.path)][op.method];
        if (op.auth === 'console') {
          assert.ok(op.scope && management.includes(op.scope), `${op.operationId} names its scope`);
          // Service accounts (DESIGN §16) take every org route but those for people only (support/caller-kinds.ts).
          const accounts = op.people ? [] : [{ serviceAccount: [op.scope] }];
          assert.deepEqual(security, [{ consoleOAuth: [op.scope] }, ...accounts], op.operationId);
          assert.equal(op.people === true, PEOPLE_ONLY.includes(op.operationId), op.operationId);
          if (op.method === 'get') assert.match(op.scope, /:read$/, op.operationId);
          if (expected[op.operationId]) assert.equal(op.scope, expected[op.operationId], op.operationId);
        } else {
          assert.equal(op.scope, undefined, op.operationId);
          assert.deepEqual(
            security,
            {
              none: [],
              user: [{ userToken: [] }],
              'user-or-console': [{ userToken: [] }, { consoleOAuth: [] }],
              scim: [{ scimToken: [] }],
            }[op.auth],
            op.operationId,
          );
        }
      }
      for (const id of Object.keys(expected))
        assert.ok(
          OPERATIONS.some((op) => op.operationId === id),
          id,
        );
    });

    test('each console operation refuses a token without the scope it documents, and needs no other', {
      skip,
    }, async () => {
      const consoleIssuer = await consoleOf(server);
      const send = async (op: (typeof OPERATIONS)[number], token: string) => {
        const res = await app.inject({
          method: op.method.toUpperCase() as 'GET',
          url: concrete(op.path),
          headers: { host: server.config.baseHost, authorization: `Bearer ${token}` },
        });
        return { status: res.statusCode, body: res.body ? res.json() : null, headers: res.headers };
      };
      const identityOnly = await consoleIssuer.token('owner@acme.test', 'openid profile email');
      const only = new Map<string, string>();
      const consoleOps = OPERATIONS.filter((op) => op.auth === 'console');
      assert.ok(consoleOps.length > 20);
      for (const op of consoleOps) {
        const scope = op.scope as string;
        const refused = await send(op, identityOnly);
        assert.deepEqual(
          [refused.status, refused.body, refused.headers['www-authenticate']],
          [
            403,
            { error: 'insufficient_scope', error_detail: `this token lacks the ${scope} scope` },
            `Bearer realm="tessera", error="insufficient_scope", scope="${scope}"`,
          ],
          op.operationId,
        );
        // What the document says of that answer.
        const documented = doc.paths[openApiPath(op.path)][op.method].responses['403'];
        assert.match(
          documented.description,
          new RegExp(`insufficient_scope\`: the token was not granted \`${scope}\`$`),
        );
        if (!only.has(scope))
          only.set(scope, await consoleIssuer.token('owner@acme.test', `openid ${scope}`));
        const passed = await send(op, only.get(scope) as string);
        assert.notEqual(passed.body?.error, 'insufficient_scope', `${op.operationId} with ${scope} alone`);
      }
    });

    test('request schemas in the document are the ones the routes validate with', { skip }, async () => {
      for (const op of OPERATIONS) {
        const documented = doc.paths[openApiPath(op.path)][op.method];
        if (op.body) {
          const { $schema: _, ...expected } = z.toJSONSchema(op.body.schema, {
            io: 'input',
            unrepresentable: 'any',
          });
          assert.deepEqual(
            inlined(doc, documented.requestBody.content[op.body.contentType].schema),
            expected,
            op.operationId,
          );
        } else {
          assert.equal(documented.requestBody, undefined, op.operationId);
        }
      }
      // The registered operations' own schemas, imported from where the routes import them.
      const schemas = await import('../../src/http/management/api-schemas.js');
      const byId = (id: string) => OPERATIONS.find((o) => o.operationId === id);
      assert.equal(byId('createWebhook')?.body?.schema, schemas.CreateWebhookBody);
      assert.equal(byId('listEvents')?.query, schemas.EventsQuery);
      const registration = await import('../../src/http/oauth/registration-request.js');
      assert.equal(byId('registerClient')?.body?.schema, registration.RegistrationRequest);
      const tenants = await import('../../src/http/account/tenants.js');
      assert.equal(byId('createTenant')?.body?.schema, tenants.CreateTenant);
      assert.equal(byId('updateTenant')?.body?.schema, tenants.UpdateTenant);
    });
  });
}

describe('components: names and the two forms of a schema', () => {
  test('a schema sent and answered in two forms is two components; the rest are shared', () => {
    const Inner = z.object({ n: z.number().int().default(1) });
    const Outer = z.object({ inner: Inner, seen_at: z.string() });
    const Tag = z.enum(['a', 'b']);
    const Unnamed = z.strictObject({ tag: Tag });
    const { schemas, refOf } = buildComponents(
      [
        { schema: Outer, io: 'input', fallbackName: 'OuterBody' },
        { schema: Outer, io: 'output', fallbackName: 'OuterResponse' },
        { schema: Unnamed, io: 'input', fallbackName: 'TagBody' },
        { schema: Unnamed, io: 'output', fallbackName: 'TagResponse' },
      ],
      new Map<z.ZodType, string>([
        [Inner, 'Inner'],
        [Outer, 'Outer'],
        [Tag, 'Tag'],
      ]),
    );
    assert.deepEqual(Object.keys(schemas), ['Inner', 'InnerInput', 'Outer', 'OuterInput', 'Tag', 'TagBody']);
    assert.deepEqual(refOf(Outer, 'input'), { $ref: `${REF}OuterInput` });
    assert.deepEqual(refOf(Outer, 'output'), { $ref: `${REF}Outer` });
    assert.deepEqual(refOf(Unnamed, 'output'), { $ref: `${REF}TagBody` });
    const int = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 };
    // Sent, `n` may be left out (its default applies); answered, it is always there.
    assert.deepEqual(schemas.InnerInput, { type: 'object', properties: { n: { default: 1, ...int } } });
    assert.deepEqual(schemas.Inner, {
      type: 'object',
      properties: { n: { default: 1, ...int } },
      required: ['n'],
      additionalProperties: false,
    });
    assert.deepEqual(schemas.OuterInput?.properties, {
      inner: { $ref: `${REF}InnerInput` },
      seen_at: { type: 'string', format: 'date-time' },
    });
    assert.deepEqual(schemas.Outer?.properties, {
      inner: { $ref: `${REF}Inner` },
      seen_at: { type: 'string', format: 'date-time' },
    });
    assert.deepEqual(schemas.TagBody, {
      type: 'object',
      properties: { tag: { $ref: `${REF}Tag` } },
      required: ['tag'],
      additionalProperties: false,
    });
  });

  test('two schemas exported under one name are refused', () => {
    assert.throws(
      () => schemaNames([{ Thing: z.string() }, { Thing: z.number() }]),
      /two schemas are exported as Thing/,
    );
    const Same = z.string();
    assert.deepEqual([...schemaNames([{ Same, lower: z.string() }, { Same }]).values()], ['Same']);
  });
});
