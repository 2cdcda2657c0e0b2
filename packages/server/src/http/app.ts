import Fastify, { type FastifyInstance } from 'fastify';
import type { Deps } from '../domain/context.js';
import { installErrorHandling } from './errors.js';
import { parseForm } from './form.js';
import { loggerOptions } from './logging.js';
import { tokenEndpoint } from './oauth/token-endpoint.js';
import { healthRoutes } from './routes/health.js';
import { wellKnownRoutes } from './routes/well-known.js';

export interface AppOptions {
  logLevel?: string;
  logStream?: { write(chunk: string): void } | undefined;
}

/** The HTTP application: transport only; every rule lives in domain/. */
export function buildApp(deps: Deps, options: AppOptions = {}): FastifyInstance {
  const app = Fastify({
    logger: loggerOptions(options.logLevel ?? 'info', options.logStream),
    bodyLimit: 64 * 1024,
    // Trust exactly TESSERA_TRUST_PROXY hops of X-Forwarded-For, counted from the socket.
    trustProxy: (_address: string, hop: number) => hop < deps.config.trustProxy,
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, parseForm(body as string));
  });
  // Anything else arrives as text, so endpoints can refuse it with their own error body.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  installErrorHandling(app);
  healthRoutes(app, deps);
  wellKnownRoutes(app, deps);
  tokenEndpoint(app, deps);
  return app;
}
