import { fail } from '../../../domain/errors.js';
import { originOf } from '../../../domain/issuers.js';
import { authenticateClient, type TokenSet, tokenRequestKey } from '../../../domain/tokens/index.js';
import type { Client } from '../../../domain/types.js';
import type { GrantContext, TokenResponse } from './types.js';

/** Steps the user-session grants share: authenticate the client, spell the answer. */

export function authenticatedClient({ deps, org, client }: GrantContext): Promise<Client> {
  return authenticateClient(deps, org, client, '/oauth/token');
}

export function requireParam(params: GrantContext['params'], name: string): string {
  return params[name] ?? fail('token.parameter.missing', `${name} is required`);
}

/**
 * The DPoP key the tokens are to be bound to (RFC 9449 §5): the thumbprint of the proof's key once
 * the client authenticated (its settings say whether a proof, and a nonce, are required), or null
 * without a proof. The proof's `htu` is this org's token endpoint.
 */
export function dpopKey({ deps, org, dpop }: GrantContext, client: Client): Promise<string | null> {
  return tokenRequestKey(deps, org, client, dpop, `${originOf(deps.config, org)}/oauth/token`);
}

/** RFC 6749 §5.1; `refresh_token` only where the client has the refresh_token grant. */
export function tokenResponse(set: TokenSet): TokenResponse {
  return {
    access_token: set.accessToken,
    token_type: set.boundTo === undefined ? 'Bearer' : 'DPoP',
    expires_in: set.expiresIn,
    ...(set.refreshToken === undefined ? {} : { refresh_token: set.refreshToken }),
    ...(set.idToken === undefined ? {} : { id_token: set.idToken }),
    ...(set.scope === undefined ? {} : { scope: set.scope }),
  };
}
