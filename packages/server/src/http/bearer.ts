import type { FastifyRequest } from 'fastify';
import type { Deps } from '../domain/context.js';
import { fail } from '../domain/errors.js';
import { originOf } from '../domain/issuers.js';
import {
  boundKeyOf,
  checkProof,
  DPOP_ALGORITHMS,
  type SessionTokenType,
  type VerifiedAccess,
  verifyAccessToken,
} from '../domain/tokens/index.js';
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

/** The token of an `Authorization: DPoP …` header (RFC 9449 §7.1; scheme case-insensitive), or null. */
export function dpopToken(request: FastifyRequest): string | null {
  const match = /^dpop +([A-Za-z0-9._~+/-]+=*) *$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/** RFC 9449 §7.1: the challenge of a refusal about DPoP, naming the proof algorithms taken. */
const dpopChallenge = (error: 'invalid_token' | 'invalid_dpop_proof', description: string): string =>
  `DPoP realm="${REALM}", algs="${DPOP_ALGORITHMS.join(' ')}", error="${error}", error_description="${description}"`;

const refuseDpop = (error: 'invalid_token' | 'invalid_dpop_proof', description: string): never =>
  fail('auth.dpop.refused', "we don't know who you are", {
    'www-authenticate': dpopChallenge(error, description),
  });

/**
 * A verified token's DPoP binding (RFC 9449 §7): a token bound to a key (`cnf.jkt`) is taken only
 * under the `DPoP` scheme with a proof of that key for this request (`htm`, `htu`, `ath`, `iat`, a
 * `jti` never seen); sent as Bearer (or in a form body) it is refused, and so is an unbound token
 * sent under the `DPoP` scheme. Each refusal is a 401 whose `WWW-Authenticate: DPoP` says why.
 */
async function checkBinding(
  deps: Deps,
  request: FastifyRequest,
  org: Org,
  token: string,
  scheme: 'bearer' | 'dpop',
): Promise<void> {
  const bound = boundKeyOf(token);
  if (scheme === 'bearer') {
    if (bound !== null) refuseDpop('invalid_token', 'this token is DPoP-bound: send it as DPoP with a proof');
    return;
  }
  if (bound === null) refuseDpop('invalid_token', 'this token is not DPoP-bound: send it as Bearer');
  const proof = request.headers.dpop;
  if (typeof proof !== 'string') refuseDpop('invalid_dpop_proof', 'the request has no DPoP proof');
  const path = request.url.split('?', 1)[0] as string;
  const check = await checkProof(deps, org, {
    proof: proof as string,
    method: request.method,
    url: `${originOf(deps.config, org)}${path}`,
    accessToken: token,
  });
  if (!check.ok) refuseDpop('invalid_dpop_proof', check.why);
  else if (check.jkt !== bound) refuseDpop('invalid_dpop_proof', 'the DPoP proof is signed by another key');
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
 * accounts' tokens): null from `verify` is the one generic 401. A token may also come under the
 * `DPoP` scheme (RFC 9449 §7), and a DPoP-bound one only so (checkBinding). `token` is the header's unless
 * the route reads it from elsewhere too (userinfo's form body, oauth/userinfo-token.ts).
 */
export async function authenticateBearerWith<A>(
  deps: Deps,
  request: FastifyRequest,
  verify: (org: Org, token: string) => Promise<A | null>,
  token: string | null = bearerToken(request),
): Promise<BearerCaller<A>> {
  const org = await orgOf(deps, request);
  const dpop = token === null ? dpopToken(request) : null;
  const presented = token ?? dpop;
  const access = presented === null ? null : await verify(org, presented);
  if (access === null) {
    if (dpop !== null) return refuseDpop('invalid_token', 'the access token is not valid here');
    const challenge =
      token === null ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token"`;
    return fail('auth.bearer.unknown', "we don't know who you are", { 'www-authenticate': challenge });
  }
  await checkBinding(deps, request, org, presented as string, dpop === null ? 'bearer' : 'dpop');
  return { org, access };
}
