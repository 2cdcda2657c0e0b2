import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../domain/context.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { Metrics } from '../observability/metrics.js';
import type { ConsoleFiles } from './console/console-files.js';
import { consoleRoutes } from './console/console-routes.js';
import { OPERATIONS } from './declarations.js';
import { installErrorHandling, renderError } from './errors.js';
import { parseForm } from './form.js';
import { refuseRepeatedHost } from './host-header.js';
import { issuerMoves } from './issuer-moves.js';
import { OneLinePerRequest, requestLogger } from './logging.js';
import { countRequests } from './operations/metrics.js';
import { stripOrgPath } from './org-path.js';
import { type ReadScopes, readScopeHook } from './read-scope.js';
import { registerOperations } from './register-operations.js';
import { recordRoutes } from './route-table.js';
import { collapseScimSlashes } from './scim/scim-path.js';
import { securityHeaders } from './security-headers.js';
import { pageContext, signInRoutes } from './sign-in/plugin.js';
import { refuseUnstorableText } from './storable-text.js';

export interface AppOptions {
  /** The metrics /metrics serves and every request is timed into (default: this app's own). */
  metrics?: Metrics;
  /** The process's logger; request lines are written through it (default: none). */
  log?: Logger;
  /** The web console's build, served at /console/ on the console host (null: a page says to build it). */
  console?: ConsoleFiles | null;
  /** With a read replica: enters each request's read scope (http/read-scope.ts); none reads the primary only. */
  readScopes?: ReadScopes;
}

/**
 * How long an idle client connection stays open. A reverse proxy keeping connections to the nodes
 * (nginx's upstream `keepalive`) must close them sooner (nginx's `keepalive_timeout`, 60 s by default
 * and in deploy/nginx.conf): the side that closes an idle connection must be the proxy, or it may send
 * a request on a connection the node is closing, and answer it 502. See docs/deploying.md.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 75_000;

/** The HTTP application: transport only; every rule lives in domain/. */
export function buildApp(deps: Deps, options: AppOptions = {}): FastifyInstance {
  const secure = securityHeaders(deps.config);
  const app = Fastify({
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    loggerInstance: requestLogger(options.log ?? createLogger('silent')),
    logController: new OneLinePerRequest(),
    bodyLimit: 64 * 1024,
    // Path issuers: `/o/<slug>/…` is routed as `/…` for that org (org-path.ts); a no-op with host issuers.
    // SCIM clients that append `/Users` to the base URL's final `/` are understood (scim-path.ts).
    rewriteUrl: (raw) => collapseScimSlashes(stripOrgPath(deps.config, raw)),
    // Trust exactly TESSERA_TRUST_PROXY hops of X-Forwarded-For, counted from the socket.
    trustProxy: (_address: string, hop: number) => hop < deps.config.trustProxy,
    // A path that is not valid percent-encoded UTF-8 fails before routing and before any hook.
    frameworkErrors: (error, request, reply) => {
      secure(reply);
      renderError(error, request, reply);
    },
  });
  // Before any route: the OpenAPI test compares what is registered with what is documented.
  recordRoutes(app);
  app.addHook('onSend', async (_request, reply) => secure(reply));
  // The input rules at the edge, for every route: one Host, and only text that can be stored.
  app.addHook('onRequest', refuseRepeatedHost);
  // A host an org's issuer moved away from serves what verifies its tokens, and sends people on.
  app.addHook('onRequest', issuerMoves(deps));
  if (options.readScopes) app.addHook('onRequest', readScopeHook(options.readScopes));
  app.addHook('preValidation', refuseUnstorableText);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseForm(body as string));
  });
  // Malformed JSON arrives as its text, like any other content type, so each endpoint refuses it
  // with its own error body (RFC 7591's invalid_client_metadata, the API's invalid_request).
  // SCIM's media type (RFC 7644 §3.1) is JSON, parsed the same way.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/scim+json'],
    { parseAs: 'string' },
    (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(null, body);
      }
    },
  );
  // Anything else arrives as text, so endpoints can refuse it with their own error body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  installErrorHandling(app);
  const metrics = options.metrics ?? new Metrics({ outboxDepth: async () => null, pool: () => null });
  // Every response is timed, whatever route answered it (or none did).
  countRequests(app, metrics);
  const pages = pageContext(deps);
  signInRoutes(app, pages);
  // Every declared operation (http/declarations.ts): its route exists through this loop only.
  registerOperations(app, { deps, metrics, pages }, OPERATIONS);
  consoleRoutes(app, deps, options.console ?? null);
  return app;
}
