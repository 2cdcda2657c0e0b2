import type { FastifyRequest, RouteHandlerMethod, RouteShorthandOptionsWithHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on hosted pages' routes: their errors are HTML pages, not the APIs' JSON. */
    hostedPage?: boolean;
  }
}

/** A hosted page's route options: `handler`, marked as a page's. */
export const pageRouteOptions = (handler: RouteHandlerMethod): RouteShorthandOptionsWithHandler => ({
  config: { hostedPage: true },
  handler,
});

/**
 * Whether `request` was routed to a hosted page (pageRoute), so its errors, whether its handler
 * raised them or something before it did (a parser, an input rule at the edge), are shown as
 * that page's HTML error page (errors.ts renderError).
 */
export const isPageRoute = (request: FastifyRequest): boolean =>
  request.routeOptions?.config?.hostedPage === true;
