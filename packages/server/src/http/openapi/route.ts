import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { openApiDocument } from './document.js';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** GET /openapi.json on every host: the whole HTTP API (http/openapi/), built once per app. */
export function openApiRoutes(app: FastifyInstance, deps: Deps) {
  const body = JSON.stringify(openApiDocument(deps.config, version));
  app.get('/openapi.json', async (_request, reply) => {
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(body);
  });
}
