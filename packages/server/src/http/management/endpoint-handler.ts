import type { RouteHandlerMethod } from 'fastify';
import type { Deps } from '../../domain/context.js';
import { transportParameters } from '../host-override.js';
import { readsMayLagNow } from '../read-scope.js';
import { jsonBody, strictQuery } from './api-input.js';
import type { Endpoint } from './endpoint.js';
import { checkGuard, guard } from './guard.js';
import { type PageQuery, sendPage } from './paged-list.js';

/**
 * A declared endpoint's handler, the same steps for every endpoint: the guard, then the query
 * (strict: unknown or repeated is `invalid_query`), then the body (its declared error family), then
 * the declaration's handler, whose answer is sent with `Cache-Control: no-store`. A declaration the
 * guard cannot honour throws here, at start-up.
 */
export function endpointHandler(deps: Deps, op: Endpoint): RouteHandlerMethod {
  checkGuard(op);
  // The loopback `host` override rides along in every Link URL instead of being a filter.
  const transport = transportParameters(deps.config);
  precompile(op);
  return async (request, reply) => {
    const caller = await guard(deps, request, op);
    // Authenticated on the primary (a revoked session is seen at once); a list may now read a replica.
    readsMayLagNow(request);
    const query = op.query ? strictQuery(op.query, request, transport) : undefined;
    let body: unknown;
    if (op.body) {
      op.body.precheck?.(request.body);
      body = jsonBody(op.body.errors, op.body.schema, request.body);
    }
    const answer = await op.handle({
      deps,
      request,
      reply,
      params: request.params as Record<string, string>,
      caller,
      body: body as undefined,
      query: query?.query as undefined,
      page: (entries, total, filters = []) => {
        const page = query?.query as PageQuery | undefined;
        if (!query || page === undefined) throw new TypeError(`${op.path}: a page needs a query`);
        const body = sendPage(
          deps,
          request,
          reply,
          { entries, total, query: page, given: query.given, transport },
          filters,
        );
        return { status: 200, body } as const;
      },
    } as Parameters<Endpoint['handle']>[0]);
    // Every answer of the API is about one caller: never stored by a cache.
    return reply.code(answer.status).header('cache-control', 'no-store').send(answer.body);
  };
}

/**
 * zod compiles an object schema's parser on its first parse of an object; parsing an empty one
 * here, at start-up, keeps that work out of the endpoint's first request.
 */
function precompile(op: Endpoint): void {
  op.query?.safeParse({});
  op.body?.schema.safeParse({});
}
