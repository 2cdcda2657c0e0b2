import type { FastifyRequest } from 'fastify';
import { type ErrorSituation, fail } from '../../domain/errors.js';
import { bearerToken, dpopToken, REALM } from '../bearer.js';
import type { ClientOf } from '../cors.js';
import { isForm } from '../form.js';

/**
 * How a userinfo request carries its access token (RFC 6750 §2): the `Authorization: Bearer` header
 * (§2.1) or, on POST, an `application/x-www-form-urlencoded` body's `access_token` (§2.2; OIDC Core
 * §5.3.1 has userinfo take both methods). Never both at once (§2: "MUST NOT use more than one
 * method"), and never the query (§2.3, which puts the token in URLs that logs and histories keep):
 * a query's `access_token` is not read, so such a request is one without a token.
 */

/** The token each way could carry, without judging them: `body` is every `access_token` of a POST's form. */
function presented(request: FastifyRequest): { header: string | null; body: string[] } {
  const form = request.method === 'POST' && isForm(request.body) ? request.body : null;
  const body = (form?.get('access_token') ?? []).filter((token) => token !== '');
  return { header: bearerToken(request), body };
}

/** RFC 6750 §3.1's invalid_request: 400, and the challenge naming it. */
const invalidRequest = (situation: ErrorSituation, detail: string): never =>
  fail(situation, detail, { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_request"` });

/** The request's access token, or null when it sent none (the caller's 401); two ways at once is a 400. */
export function userinfoToken(request: FastifyRequest): string | null {
  const { header, body } = presented(request);
  if (body.length > 1) invalidRequest('userinfo.access_token.repeated', 'access_token given more than once');
  const inBody = body[0] ?? null;
  if (inBody !== null && request.headers.authorization !== undefined) {
    invalidRequest(
      'userinfo.access_token.two_ways',
      'send the access token in the Authorization header or in the body, not both',
    );
  }
  return header ?? inBody;
}

/** Userinfo's CORS client: the token's, wherever it came (http/cors.ts); never throws. */
export const userinfoClient: ClientOf = (request) => {
  const { header, body } = presented(request);
  const token = header ?? dpopToken(request) ?? (body.length === 1 ? (body[0] as string) : null);
  return token === null ? null : { accessToken: token };
};
