import type { FastifyContextConfig, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Deps } from '../domain/context.js';
import type { Metrics } from '../observability/metrics.js';
import type { ClientOf } from './cors.js';
import type { Operation } from './openapi/operation.js';
import type { PageContext } from './sign-in/context.js';

/** What the app holds once and an operation's route may be built from. */
export interface Serving {
  deps: Deps;
  /** The registry /metrics serves (every response is timed into it app-wide, operations/metrics.ts). */
  metrics: Metrics;
  /** The hosted pages' cookies and CSRF tokens: /oauth/authorize and /oauth/logout are pages. */
  pages: PageContext;
  /** Every operation the app registers, in the document's order: what /openapi.json documents. */
  operations: readonly Operation[];
}

/** A route's onSend hook (no-store, public CORS, …). */
export type OnSend = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** The route options an operation's handler comes with; method and path are the declaration's. */
export interface ServedRoute {
  handler: RouteHandlerMethod;
  /** The route's own onSend hooks, in the order they run. */
  onSend?: readonly OnSend[];
  /** The route's config (`hostedPage`: its errors are HTML pages); `declared` is added to it. */
  config?: FastifyContextConfig;
  /**
   * CORS for the client each request names (http/cors.ts): the allowed origin reflected on every
   * answer, by an onSend hook after the route's own, and a preflight route at the path answering
   * the methods of every operation there that declares it.
   */
  cors?: ClientOf;
}

/** One documented operation that is not a management endpoint, declared with what serves it. */
export type ServedOperation = Operation & {
  /** The route's handler and options, built once per app. */
  serve(serving: Serving): ServedRoute;
};

/**
 * Declares an operation with the route that serves it: the documentation (method, path, summary,
 * parameters, schemas, responses) and `serve`, which builds the handler and its hooks from the app.
 */
export function operation(declaration: Operation, serve: (serving: Serving) => ServedRoute): ServedOperation {
  return { ...declaration, serve };
}
