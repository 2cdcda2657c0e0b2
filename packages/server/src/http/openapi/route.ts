import { readFileSync } from 'node:fs';
import { operation } from '../served-operation.js';
import { buildDocument } from './build-document.js';
import { OpenApiDocument } from './described-schemas.js';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * GET /openapi.json on every host: the whole HTTP API, documented from the operations the app
 * registers (http/declarations.ts), built once per app on its first request: converting every schema
 * costs ~50 ms, which each start (a test's server, a node joining) would otherwise pay.
 */
export const openApi = operation(
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This document',
    tag: 'service',
    hosts: 'every',
    auth: 'none',
    responses: { 200: { description: 'OpenAPI 3.1', schema: OpenApiDocument } },
  },
  ({ deps, operations }) => {
    let body: string | null = null;
    return {
      handler: async (_request, reply) => {
        body ??= JSON.stringify(buildDocument(deps.config, version, operations));
        return reply
          .header('content-type', 'application/json; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(body);
      },
    };
  },
);
