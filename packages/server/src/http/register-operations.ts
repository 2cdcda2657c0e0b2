import type { FastifyInstance } from 'fastify';
import { allowedOrigin, preflight } from './cors.js';
import { type Endpoint, isEndpoint } from './management/endpoint.js';
import { endpointHandler } from './management/endpoint-handler.js';
import type { Operation } from './openapi/operation.js';
import type { ServedOperation, ServedRoute, Serving } from './served-operation.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes registered from a declaration, for the route table (http/route-table.ts). */
    declared?: boolean;
  }
}

/**
 * One declared operation: a management or account endpoint (http/management/endpoint.ts), or
 * another operation with what serves it (http/served-operation.ts).
 */
export type Declaration = Endpoint | ServedOperation;

/**
 * Registers every declared operation (http/declarations.ts), the one way an operation's route
 * comes to exist: at its method and path, with its handler, its onSend hooks (then CORS's, when it
 * declares `cors`) and its config marked `declared`. A path where operations declare `cors` gets
 * one preflight route answering their methods.
 *
 * Every route is registered on `app` itself, hosted pages included (/oauth/authorize, /oauth/logout):
 * the root's hooks, the cookie parser's among them (http/sign-in/plugin.ts), are read when the app is
 * ready, so a route here runs the same hooks in the same order as one in a child scope.
 */
export function registerOperations(
  app: FastifyInstance,
  serving: Omit<Serving, 'operations'>,
  operations: readonly Declaration[],
): void {
  const { deps } = serving;
  const built = operations.map((op): [Operation, ServedRoute] => [
    op,
    isEndpoint(op) ? { handler: endpointHandler(deps, op) } : op.serve({ ...serving, operations }),
  ]);
  const corsMethods = new Map<string, string[]>();
  for (const [op, route] of built) {
    if (route.cors) corsMethods.set(op.path, [...(corsMethods.get(op.path) ?? []), op.method.toUpperCase()]);
  }
  const preflighted = new Set<string>();
  for (const [op, route] of built) {
    const methods = corsMethods.get(op.path);
    if (methods && !preflighted.has(op.path)) {
      // CORS preflights answer browsers, not callers: routes, not operations.
      app.options(op.path, preflight(deps, methods.join(', ')));
      preflighted.add(op.path);
    }
    const onSend = [...(route.onSend ?? []), ...(route.cors ? [allowedOrigin(deps, route.cors)] : [])];
    app.route({
      method: op.method.toUpperCase() as Uppercase<Operation['method']>,
      url: op.path,
      ...(op.bodyLimit === undefined ? {} : { bodyLimit: op.bodyLimit }),
      ...(onSend.length > 0 ? { onSend } : {}),
      // The route table (http/route-table.ts) tells declared routes from hand-registered ones.
      config: { ...route.config, declared: true, operationId: op.operationId },
      handler: route.handler,
    });
  }
}
