import { unverifiedClaims } from '../../crypto/verify-jwt.js';
import type { Org } from '../types.js';
import { type VerifiedAccess, verifyAccessToken } from './access-tokens.js';
import type { TokensDeps } from './deps.js';
import { type ServiceAccountAccess, verifyServiceAccountToken } from './service-account-tokens.js';

/**
 * Who calls the management API: a console user with a console token, or a service account
 * (DESIGN §16) with its client_credentials token from the console issuer.
 */
export type ManagementPrincipal =
  | { kind: 'person'; access: VerifiedAccess }
  | { kind: 'service_account'; access: ServiceAccountAccess };

/**
 * Verifies a token presented to the management API. The verifier is chosen by the `typ` the token
 * claims, and checks it again with the signature: `client` tokens are service accounts', the rest
 * console users'. Null on any failure — and for a console token of a session someone else acts in
 * (`act`) or promoted for another client (`azp`): the console issues neither, and should it ever,
 * the management API is for the person who signed in, with their own token (docs/delegation.md).
 */
export async function verifyManagementToken(
  deps: TokensDeps,
  org: Org,
  token: string,
): Promise<ManagementPrincipal | null> {
  if (unverifiedClaims(token)?.typ === 'client') {
    const access = await verifyServiceAccountToken(deps, org, token);
    return access && { kind: 'service_account', access };
  }
  const access = await verifyAccessToken(deps, org, token, ['console']);
  if (!access || access.session.actorId !== null || access.authorizedParty !== null) return null;
  return { kind: 'person', access };
}
