import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../domain/context.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { Metrics } from '../observability/metrics.js';
import type { ConsoleFiles } from './console/console-files.js';
import { consoleRoutes } from './console/console-routes.js';
import { installErrorHandling, renderError } from './errors.js';
import { parseForm } from './form.js';
import { refuseRepeatedHost } from './host-header.js';
import { requestLogger } from './logging.js';
import { clientRoutes } from './management/clients.js';
import { eventRoutes } from './management/events.js';
import { impersonationRoutes } from './management/impersonation.js';
import { keyRoutes } from './management/keys.js';
import { memberRoutes } from './management/members.js';
import { organizationRoutes } from './management/organizations.js';
import { settingsRoutes } from './management/settings.js';
import { userRoutes } from './management/users.js';
import { webhookDeliveryRoutes } from './management/webhook-deliveries.js';
import { webhookRoutes } from './management/webhooks.js';
import { registrationEndpoint } from './oauth/register.js';
import { tokenEndpoint } from './oauth/token-endpoint.js';
import { wellKnownRoutes } from './oauth/well-known.js';
import { openApiRoutes } from './openapi/route.js';
import { healthRoutes } from './operations/health.js';
import { metricsRoutes } from './operations/metrics.js';
import { recordRoutes } from './route-table.js';
import { securityHeaders } from './security-headers.js';
import { signInRoutes } from './sign-in/plugin.js';
import { refuseUnstorableText } from './storable-text.js';

export interface AppOptions {
  /** The metrics /metrics serves and every request is timed into (default: this app's own). */
  metrics?: Metrics;
  /** The process's logger; request lines are written through it (default: none). */
  log?: Logger;
  /** The web console's build, served at /console/ on the console host (null: a page says to build it). */
  console?: ConsoleFiles | null;
}

/** The HTTP application: transport only; every rule lives in domain/. */
export function buildApp(deps: Deps, options: AppOptions = {}): FastifyInstance {
  const secure = securityHeaders(deps.config);
  const app = Fastify({
    loggerInstance: requestLogger(options.log ?? createLogger('silent')),
    bodyLimit: 64 * 1024,
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
  app.addHook('preValidation', refuseUnstorableText);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseForm(body as string));
  });
  // Malformed JSON arrives as its text, like any other content type, so each endpoint refuses it
  // with its own error body (RFC 7591's invalid_client_metadata, the API's invalid_request).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(null, body);
    }
  });
  // Anything else arrives as text, so endpoints can refuse it with their own error body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  installErrorHandling(app);
  healthRoutes(app, deps);
  metricsRoutes(app, options.metrics ?? new Metrics({ outboxDepth: async () => null, pool: () => null }));
  wellKnownRoutes(app, deps);
  tokenEndpoint(app, deps);
  registrationEndpoint(app, deps);
  signInRoutes(app, deps);
  webhookRoutes(app, deps);
  impersonationRoutes(app, deps);
  webhookDeliveryRoutes(app, deps);
  eventRoutes(app, deps);
  clientRoutes(app, deps);
  keyRoutes(app, deps);
  organizationRoutes(app, deps);
  settingsRoutes(app, deps);
  memberRoutes(app, deps);
  userRoutes(app, deps);
  openApiRoutes(app, deps);
  consoleRoutes(app, deps, options.console ?? null);
  return app;
}
