import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../domain/errors.js';

/** The one place errors become responses. Nothing here echoes input, a token or a stack. */
export function renderError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ServiceError) {
    if (error.status >= 500) request.log.error({ code: error.code }, 'service error');
    return reply.code(error.status).headers(error.headers).send(error.body());
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code =
      status === 413 ? 'body too large' : status === 415 ? 'unsupported content type' : 'malformed request';
    const mapped = new ServiceError(
      request.url.startsWith('/oauth/') ? 'invalid_request' : 'invalid_body',
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
