import { type JWK, unverifiedHeader } from '../../crypto/verify-jwt.js';
import type { Client } from '../types.js';
import type { TokensDeps } from './deps.js';

/** The `kid` of a compact JWS header, read WITHOUT verifying anything; undefined when none. */
function headerKid(token: string): string | undefined {
  const kid = unverifiedHeader(token)?.kid;
  return typeof kid === 'string' ? kid : undefined;
}

/**
 * The public keys a client registered to sign its JWTs with (`private_key_jwt` assertions, request
 * objects): inline (`jwks`) or fetched from its `jwks_uri` (kept briefly, and fetched again once
 * when `token` names a key id the kept set lacks); null when it has none or they cannot be
 * fetched, which fails what was to be verified, never the request.
 */
export async function clientKeys(
  deps: Pick<TokensDeps, 'clientKeySets'>,
  client: Client,
  token: string,
): Promise<{ keys: JWK[] } | null> {
  if (client.jwks !== undefined) return client.jwks as { keys: JWK[] };
  if (client.jwksUri === undefined || deps.clientKeySets === undefined) return null;
  return (await deps.clientKeySets.keys(client.jwksUri, headerKid(token))) as { keys: JWK[] } | null;
}
