import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Deps } from '../domain/context.js';
import { type NamedClient, originAllowedFor, originOfSomeClient } from '../domain/tokens/index.js';
import { parseBasicCredentials } from './basic-credentials.js';
import { ERROR_CODE_HEADER } from './error-code-header.js';
import { isForm } from './form.js';
import { ORG_CACHE_TTL_MS, orgOf } from './org-routing.js';

/**
 * CORS, rendered here only (DESIGN §14; the rule is domain/tokens/cross-origin.ts). Discovery and
 * the key set are public: `Access-Control-Allow-Origin: *`. The token and revocation endpoints
 * (the client named by the form or Basic credentials) and userinfo (the access token's client,
 * from the header or the form: oauth/userinfo-token.ts) reflect `Origin` only when it is an
 * allowed origin of that client, always with `Vary: Origin`, and answer preflights (each declares
 * `cors`; http/register-operations.ts puts both in place).
 * Never `Access-Control-Allow-Credentials`: nothing here rides on cookies.
 * Every other route (the management API, the hosted pages, introspection) answers no CORS at all.
 */

/** How long a browser may keep a preflight's answer (Chromium keeps at most 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = '600';
/** `dpop`: a browser app's DPoP proofs (RFC 9449). */
const ALLOWED_HEADERS = 'authorization, content-type, dpop';

/** A route's onSend hook for public documents (discovery, JWKS): any origin may read them. */
export async function anyOrigin(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', ERROR_CODE_HEADER);
}

/** How a route's requests name their client. */
export type ClientOf = (request: FastifyRequest) => NamedClient | null;

/** The token and revocation endpoints: Basic credentials' client_id if present, else the form's. */
export const formClient: ClientOf = (request) => {
  const basic = parseBasicCredentials(request.headers.authorization ?? '');
  if (basic !== null) return { clientId: basic.clientId };
  const ids = isForm(request.body) ? request.body.get('client_id') : undefined;
  return ids?.length === 1 && ids[0] ? { clientId: ids[0] } : null;
};

function varyOnOrigin(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const present = typeof vary === 'string' && /(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary);
  if (!present) reply.header('vary', typeof vary === 'string' && vary !== '' ? `${vary}, Origin` : 'Origin');
}

/** The request's `Origin` when it is one (not absent, not the opaque `null`). */
function originOf(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== '' && origin !== 'null' ? origin : null;
}

/**
 * A CORS preflight's handler for the routes at one path answering `methods` (`GET, POST`): an
 * allowed origin of some client of the org gets the methods and headers it may use.
 */
export function preflight(deps: Deps, methods: string): RouteHandlerMethod {
  return async (request, reply) => {
    varyOnOrigin(reply);
    const origin = originOf(request);
    const org = await orgOf(deps, request, ORG_CACHE_TTL_MS);
    if (origin !== null && (await originOfSomeClient(deps, org, origin))) {
      reply
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', methods)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
    }
    return reply.code(204).send();
  };
}

/**
 * The onSend hook of a route whose requests name their client (`clientOf`), errors included so a
 * page can read `invalid_grant`: reflects `Origin` when it is an allowed origin of that client.
 */
export function allowedOrigin(deps: Deps, clientOf: ClientOf) {
  return async function reflectAllowedOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    varyOnOrigin(reply);
    const origin = originOf(request);
    const named = origin === null ? null : clientOf(request);
    if (origin === null || named === null) return;
    try {
      const org = await orgOf(deps, request, ORG_CACHE_TTL_MS);
      if (!(await originAllowedFor(deps, org, named, origin))) return;
    } catch {
      // No org at this host, or the database is away: the answer goes out without CORS.
      return;
    }
    reply.header('access-control-allow-origin', origin);
    // A page may read why a bearer token was refused (RFC 6750 §3), the DPoP nonce to use (RFC 9449
    // §8), and any error's situation code.
    reply.header('access-control-expose-headers', `www-authenticate, dpop-nonce, ${ERROR_CODE_HEADER}`);
  };
}
