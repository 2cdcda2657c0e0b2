import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ErrorSituation,
  isDatabaseUnavailable,
  RateLimitedError,
  ServiceError,
} from '../domain/errors.js';
import type { Texts } from '../domain/texts/index.js';
import { nameSituation } from './error-code-header.js';
import { registrationErrorCode } from './oauth/registration-request.js';
import { isScimRequest, SCIM_CONTENT_TYPE, scimErrorBody } from './scim/scim-errors.js';
import { isPageRoute } from './sign-in/page-routes.js';
import { situationText, textsOf } from './sign-in/page-texts.js';
import { sendErrorPage } from './sign-in/respond.js';

/** How long a client is told to wait when the database is away; pools reconnect well within it. */
const UNAVAILABLE_RETRY_AFTER_S = 5;
const UNAVAILABLE_DETAIL = 'the service is temporarily unavailable; try again shortly';

/** Whether `url` is one of the OAuth endpoints, which answer RFC 6749's error bodies. */
const isOAuthUrl = (url: string) => url.startsWith('/oauth/');

/**
 * A lost database as the endpoint's own 503 (DESIGN §11), or null for any other error. Logged by
 * its message only: a connection error never carries a query's values.
 */
function unavailableError(error: unknown, request: FastifyRequest): ServiceError | null {
  if (!isDatabaseUnavailable(error)) return null;
  request.log.warn({ err: { message: (error as Error).message } }, 'database unavailable');
  return new ServiceError(
    'service.unavailable',
    UNAVAILABLE_DETAIL,
    { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S), 'cache-control': 'no-store' },
    undefined,
    isOAuthUrl(request.url) ? 'temporarily_unavailable' : 'unavailable',
  );
}

/** Where in a request refused input was; it decides the API's code (see inputError). */
export type InputPlace = 'path' | 'query' | 'header' | 'body';

/**
 * Input refused before its endpoint's handler ran (fastify's parsers, the input rules at the
 * edge), in that endpoint's own family: on registration RFC 7591's code for `field`
 * (registrationErrorCode); on the other OAuth endpoints `invalid_request`; on the API 404
 * `not_found` for the path, `invalid_query` for the query, the code the route's bodies use for the body (`invalid_request`
 * on the management API, spec "Errors"; `invalid_body` on the user APIs), else `invalid_request`.
 * Hosted pages show it as their error page (sendError).
 */
export function inputError(
  request: FastifyRequest,
  place: InputPlace,
  situation: ErrorSituation,
  detail: string,
  field?: string,
): ServiceError {
  const route = request.routeOptions?.url ?? request.url.split('?')[0] ?? '';
  if (route === '/oauth/register')
    return new ServiceError(situation, detail, {}, 'oauth', registrationErrorCode(field));
  if (isOAuthUrl(route)) return new ServiceError(situation, detail, {}, 'oauth', 'invalid_request');
  // A path segment no stored id or slug can hold names nothing: the API's 404, as the spec's
  // Errors table answers an org that does not exist or an id that is not a `whk_` id.
  if (place === 'path') return new ServiceError(situation, detail, {}, 'api', 'not_found');
  if (place === 'query') return new ServiceError(situation, detail, {}, 'api', 'invalid_query');
  const userApiBody = place === 'body' && !route.startsWith('/organizations/');
  return new ServiceError(situation, detail, {}, 'api', userApiBody ? 'invalid_body' : 'invalid_request');
}

/** Input fastify's parsers refused, by status: its situation and the words the answer says. */
const PARSER_REFUSALS = {
  413: { situation: 'request.body.too_large', words: 'body too large' },
  415: { situation: 'request.body.unsupported_type', words: 'unsupported content type' },
} as const;
const MALFORMED = { situation: 'request.malformed', words: 'malformed request' } as const;

/** What a hosted page's error page says: the error's own words below 500, else the service's. */
function pageMessage(texts: Texts, error: ServiceError, status: number): string {
  if (status === 503) return texts.t('error.unavailable');
  if (status >= 500) return texts.t('error.server');
  return situationText(texts, error.situation, error.detail);
}

/**
 * Sends `error` with `status`: its JSON body, or on a hosted page (pageRoute) that page's HTML
 * error page, whether the error came from the page's handler or from before it.
 */
function sendError(error: ServiceError, request: FastifyRequest, reply: FastifyReply, status = error.status) {
  nameSituation(reply.code(status).headers(error.headers), error.situation);
  if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
  if (isPageRoute(request)) {
    const orgName = request.tesseraOrg?.name ?? 'Tessera';
    return sendErrorPage(
      reply,
      orgName,
      status,
      pageMessage(textsOf(request), error, status),
      error.situation,
    );
  }
  if (isScimRequest(request)) return reply.type(SCIM_CONTENT_TYPE).send(scimErrorBody(error, status));
  return reply.send(error.body());
}

/** The one place errors become responses. Nothing here echoes input, a token or a stack. */
export function renderError(thrown: unknown, request: FastifyRequest, reply: FastifyReply) {
  const error = unavailableError(thrown, request) ?? thrown;
  if (error instanceof ServiceError) {
    if (error.status >= 500 && error.status !== 503)
      request.log.error({ code: error.code, situation: error.situation }, 'service error');
    return sendError(error, request, reply);
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const refusal = status === 413 || status === 415 ? PARSER_REFUSALS[status] : MALFORMED;
    const place = fastifyError.code === 'FST_ERR_BAD_URL' ? 'path' : 'body';
    const refused = inputError(request, place, refusal.situation, refusal.words);
    return sendError(refused, request, reply, status === 413 || status === 415 ? status : refused.status);
  }
  // A page's request carries what people type, which an error's message may quote: its code only.
  const err = isPageRoute(request) ? {} : { message: fastifyError.message };
  request.log.error({ err: { ...err, code: fastifyError.code } }, 'unexpected error');
  return sendError(
    new ServiceError('service.unexpected', 'something went wrong on our side'),
    request,
    reply,
  );
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler(renderError);
  app.setNotFoundHandler((request, reply) => {
    if (isPageRoute(request)) {
      return sendError(new ServiceError('page.not_found', 'This page does not exist.'), request, reply, 404);
    }
    const detail = `no route for ${request.method} ${request.originalUrl.split('?')[0]}`;
    return sendError(new ServiceError('route.not_found', detail, {}, 'api'), request, reply);
  });
}
