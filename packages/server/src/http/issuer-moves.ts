import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../domain/context.js';
import { issuerAtHost, orgOfCustomDomain } from '../domain/custom-domains/index.js';
import { CONSOLE_SLUG, orgOfSlug } from '../domain/directory/index.js';
import { ServiceError } from '../domain/errors.js';
import { issuerOf, originOf } from '../domain/issuers.js';
import type { Org } from '../domain/types.js';
import { customDomainOfRequest, slugOfRequest } from './org-routing.js';
import { isPageRoute } from './sign-in/page-routes.js';

/**
 * What a host the org's issuer moved away from still serves (DESIGN §21), for the tokens it issued
 * until they have expired: discovery (as that issuer), the key set and introspection.
 */
const SERVED_BY_FORMER_ISSUER = new Set([
  'GET /.well-known/openid-configuration',
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/jwks.json',
  'HEAD /.well-known/openid-configuration',
  'HEAD /.well-known/oauth-authorization-server',
  'HEAD /.well-known/jwks.json',
  'OPTIONS /.well-known/openid-configuration',
  'OPTIONS /.well-known/oauth-authorization-server',
  'OPTIONS /.well-known/jwks.json',
  'POST /oauth/introspect',
]);

/** What a person's browser reaches on a moved issuer's host: sent on to the same path on the new one. */
const FOLLOWS_TO_NEW_HOST = new Set(['/oauth/authorize', '/oauth/logout', '/profile']);

/**
 * An onRequest hook: a request to a host the org's issuer moved away from (its host under Tessera,
 * or a custom domain it left) is answered as that move says. Discovery, the key set and
 * introspection are served as the former issuer while its tokens may live; hosted pages and the
 * authorization endpoint are redirected to the same path and query on the issuer's host now (302,
 * 303 after a POST), never anywhere else; the rest is `org.issuer.moved` (404). A request to the
 * issuer's host goes on with its org resolved. An org that never moved costs nothing more here:
 * its host's org comes from the org cache when the process keeps one.
 */
export function issuerMoves(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const route = request.routeOptions.url;
    if (route === undefined) return;
    const slug = slugOfRequest(deps.config, request);
    if (slug === CONSOLE_SLUG) return;
    let org: Org | null;
    let addressed: string | null = null;
    if (slug !== null) {
      org = await orgOfSlug(deps.store, slug, deps.orgs);
      if (org === null || org.issuerDomain === null) return;
    } else {
      addressed = customDomainOfRequest(deps.config, request);
      if (addressed === null) return;
      org = await orgOfCustomDomain(deps, addressed);
      if (org === null) return;
    }
    const at = await issuerAtHost(deps, org, addressed);
    if (at.kind === 'current') {
      request.tesseraOrg = org;
      return;
    }
    if (at.kind === 'former' && SERVED_BY_FORMER_ISSUER.has(`${request.method} ${route}`)) {
      request.tesseraOrg = at.asIssued;
      return;
    }
    const method = request.method;
    if (
      (method === 'GET' || method === 'HEAD' || method === 'POST') &&
      (isPageRoute(request) || FOLLOWS_TO_NEW_HOST.has(route))
    ) {
      // The org's own issuer host, then this request's path and query as routed: nothing the
      // request says can choose the host (the path always starts with one `/` after the origin).
      const location = `${originOf(deps.config, org)}${request.url.startsWith('/') ? request.url : `/${request.url}`}`;
      reply.redirect(location, method === 'POST' ? 303 : 302);
      return reply;
    }
    throw new ServiceError(
      'org.issuer.moved',
      `this organization’s issuer is now ${issuerOf(deps.config, org)}`,
    );
  };
}
