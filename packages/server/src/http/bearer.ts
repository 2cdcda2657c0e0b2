import type { FastifyRequest } from 'fastify';
import type { Deps } from '../domain/context.js';
import { fail } from '../domain/errors.js';
import { type SessionTokenType, type VerifiedAccess, verifyAccessToken } from '../domain/tokens/index.js';
import type { Org } from '../domain/types.js';
import { orgOf } from './org-routing.js';

/** The caller of a bearer route: the org of the host and the verified token. */
export interface BearerCaller<A = VerifiedAccess> {
  org: Org;
  access: A;
}

export const REALM = 'tessera';

/** The token of an `Authorization: Bearer …` header (scheme case-insensitive, RFC 6750 §2.1), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * The one authentication step of every bearer route: the host's org, then its own verification
 * of the token (see verifyAccessToken), accepting only the given token types — `user` for the
 * tenant APIs, `console` for the console's management routes. Every failure is the same 401
 * with `WWW-Authenticate` (RFC 6750 §3): the caller learns nothing about why.
 *
 * @example
 *   app.get('/tenants', async (request) => {
 *     const { access } = await authenticateBearer(deps, request, ['user']);
 *     …
 *   });
 */
export function authenticateBearer(
  deps: Deps,
  request: FastifyRequest,
  accept: readonly SessionTokenType[],
  token: string | null = bearerToken(request),
): Promise<BearerCaller> {
  return authenticateBearerWith(
    deps,
    request,
    (org, presented) => verifyAccessToken(deps, org, presented, accept),
    token,
  );
}

/**
 * The same step with a verifier of the route's own (the management API also takes service
 * accounts' tokens): null from `verify` is the one generic 401. `token` is the header's unless
 * the route reads it from elsewhere too (userinfo's form body, oauth/userinfo-token.ts).
 */
export async function authenticateBearerWith<A>(
  deps: Deps,
  request: FastifyRequest,
  verify: (org: Org, token: string) => Promise<A | null>,
  token: string | null = bearerToken(request),
): Promise<BearerCaller<A>> {
  const org = await orgOf(deps, request);
  const access = token === null ? null : await verify(org, token);
  if (access === null) {
    const challenge =
      token === null ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token"`;
    return fail('auth.bearer.unknown', "we don't know who you are", { 'www-authenticate': challenge });
  }
  return { org, access };
}
