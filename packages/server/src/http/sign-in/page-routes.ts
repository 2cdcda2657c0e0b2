import type { FastifyContextConfig, FastifyRequest, RouteHandlerMethod } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on hosted pages' routes: their errors are HTML pages, not the APIs' JSON. */
    hostedPage?: boolean;
  }
}

/** A hosted page's route options: its handler, and the config marking it a page's. */
export interface PageRouteOptions {
  config: FastifyContextConfig;
  handler: RouteHandlerMethod;
}

/** A hosted page's route options: `handler`, marked as a page's. */
export const pageRouteOptions = (handler: RouteHandlerMethod): PageRouteOptions => ({
  config: { hostedPage: true },
  handler,
});

/**
 * Whether `request` was routed to a hosted page (pageRoute), so its errors, whether its handler
 * raised them or something before it did (a parser, an input rule at the edge), are shown as
 * that page's HTML error page (errors.ts renderError).
 */
export const isPageRoute = (request: FastifyRequest): boolean =>
  request.routeOptions?.config?.hostedPage === true || isIdentifiedPagePath(request.url);

/**
 * Enterprise sign-in's pages carry a connection id in their path (`/sso/{con}/…`, `/saml/{con}/…`):
 * a path that no route takes (an id that cannot be decoded, or too long) is still one of those
 * pages to the person whose browser was sent there, so its error is a page too. Only paths with a
 * segment after the id: `/sso/continue.js` is a script, whose errors are the APIs' JSON like any
 * other asset's.
 */
const isIdentifiedPagePath = (url: string): boolean => /^\/(sso|saml)\/[^/?#]*\//.test(url);
