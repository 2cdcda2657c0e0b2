import type { z } from 'zod';
import type { Config } from '../../config/config.js';
import { originOf } from '../../domain/issuers.js';
import { type BodyUse, buildComponents, type Json, jsonSchema } from './components.js';
import type { Operation } from './operation.js';
import { declaredResponses } from './responses.js';
import { schemaNames } from './schema-names.js';
import { securityOf, securitySchemes } from './security.js';

/** `/tenants/:id` → `/tenants/{id}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** `listEvents` → `ListEvents` */
const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

/** Every request and response body, with the name it gets when its module is not a schema module. */
function bodyUses(operations: readonly Operation[]): BodyUse[] {
  return operations.flatMap((op) => [
    ...(op.body
      ? [{ schema: op.body.schema, io: 'input' as const, fallbackName: `${pascal(op.operationId)}Body` }]
      : []),
    ...Object.entries(declaredResponses(op)).flatMap(([status, r]) =>
      r.schema
        ? [
            {
              schema: r.schema,
              io: 'output' as const,
              fallbackName: `${pascal(op.operationId)}Response${status.startsWith('2') ? '' : status}`,
            },
          ]
        : [],
    ),
  ]);
}

/**
 * A query parameter is text on the wire; one the route reads as a number says so in its schema's
 * metadata (`type: integer`), and is documented as that number: without the text's pattern, its
 * default a number.
 */
function wireNumber(schema: Json): Json {
  if (schema.type !== 'integer') return schema;
  const { pattern: _, minLength: __, maxLength: ___, ...rest } = schema;
  if (typeof rest.default === 'string') rest.default = Number(rest.default);
  return rest;
}

function queryParameters(schema: z.ZodType): Json[] {
  const s = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: s.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: wireNumber(rest),
    };
  });
}

type RefOf = ReturnType<typeof buildComponents>['refOf'];

function operationObject(op: Operation, refOf: RefOf): Json {
  const parameters = [
    ...Object.entries(op.params ?? {}).map(([name, description]) => ({
      name,
      in: 'path',
      required: true,
      description,
      schema: { type: 'string' },
    })),
    ...(op.query ? queryParameters(op.query) : []),
  ];
  const responses = Object.fromEntries(
    Object.entries(declaredResponses(op)).map(([status, r]) => {
      const response: Json = { description: r.description };
      if (r.schema) {
        response.content = {
          'application/json': { schema: refOf(r.schema, 'output') },
          ...Object.fromEntries((r.alsoAs ?? []).map((type) => [type, {}])),
        };
      } else if (r.contentType) response.content = { [r.contentType]: {} };
      if (r.headers) {
        response.headers = Object.fromEntries(
          Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]),
        );
      }
      return [status, response];
    }),
  );
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { [op.body.contentType]: { schema: refOf(op.body.schema, 'input') } },
          },
        }
      : {}),
    responses,
    security: securityOf(op),
  };
}

/** The OpenAPI 3.1 document of `operations` (the whole HTTP API), for this deployment's hosts. */
export function buildDocument(config: Config, version: string, operations: readonly Operation[]): Json {
  const consoleServer = { url: config.baseUrl, description: 'the console host' };
  const orgServer = {
    url: originOf(config, { slug: '{org}', isConsole: false, issuerDomain: null }),
    description: 'an org’s host (its issuer without the trailing slash)',
    variables: { org: { default: 'acme', description: 'the org slug' } },
  };
  const components = buildComponents(bodyUses(operations), schemaNames());
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    const path = openApiPath(op.path);
    paths[path] ??= {};
    const item = paths[path];
    if (op.hosts === 'console') item.servers = [consoleServer];
    item[op.method] = operationObject(op, components.refOf);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tessera',
      version,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description:
        'Self-hosted identity service. Operations marked with the console server exist on the console ' +
        'host only; the others on every org host (the console’s included). While TESSERA_URL is a ' +
        'loopback address, a `host` query parameter on any request stands in for the Host header.',
    },
    servers: [consoleServer, orgServer],
    paths,
    components: { schemas: components.schemas, securitySchemes: securitySchemes(config) },
  };
}
