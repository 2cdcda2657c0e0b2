import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, ServiceError } from '../domain/errors.js';

/** How long a client is told to wait when the database is away; pools reconnect well within it. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;
const UNAVAILABLE_DETAIL = 'the service is temporarily unavailable; try again shortly';

/** Whether `url` is one of the OAuth endpoints, which answer RFC 6749's error bodies. */
export const isOAuthUrl = (url: string) => url.startsWith('/oauth/');

/**
 * A lost database as the endpoint's own 503 (DESIGN §11), or null for any other error. Logged by
 * its message only: a connection error never carries a query's values.
 */
export function unavailableError(error: unknown, request: FastifyRequest): ServiceError | null {
  if (!isDatabaseUnavailable(error)) return null;
  request.log.warn({ err: { message: (error as Error).message } }, 'database unavailable');
  return new ServiceError(
    isOAuthUrl(request.url) ? 'temporarily_unavailable' : 'unavailable',
    UNAVAILABLE_DETAIL,
    { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S), 'cache-control': 'no-store' },
  );
}

/** The one place errors become responses. Nothing here echoes input, a token or a stack. */
export function renderError(thrown: unknown, request: FastifyRequest, reply: FastifyReply) {
  const error = unavailableError(thrown, request) ?? thrown;
  if (error instanceof ServiceError) {
    if (error.status >= 500 && error.status !== 503) request.log.error({ code: error.code }, 'service error');
    return reply.code(error.status).headers(error.headers).send(error.body());
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code =
      status === 413 ? 'body too large' : status === 415 ? 'unsupported content type' : 'malformed request';
    const mapped = new ServiceError(
      isOAuthUrl(request.url) ? 'invalid_request' : 'invalid_body',
      code,
    );
    return reply.code(status === 413 || status === 415 ? status : 400).send(mapped.body());
  }
  request.log.error({ err: { message: fastifyError.message, code: fastifyError.code } }, 'unexpected error');
  return reply.code(500).send({ error: 'server_error', error_detail: 'something went wrong on our side' });
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(renderError);
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: 'not_found',
      error_detail: `no route for ${request.method} ${request.url.split('?')[0]}`,
    }),
  );
}
