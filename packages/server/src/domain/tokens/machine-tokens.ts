import { signAccessToken } from '../../crypto/jwt.js';
import { newId } from '../../crypto/random.js';
import { clock } from '../clock.js';
import type { Deps } from '../context.js';
import { issuerOf } from '../directory/issuers.js';
import type { Client, Org } from '../types.js';
import { requireGrant } from './client-grants.js';
import { ACCESS_TOKEN_TTL_S } from './tokens-policy.js';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

/**
 * A machine token for a confidential client: `typ client`, `sub` = `aud` = the client id (spec).
 * `activeKid`, when the caller read it along with the client, saves the key ring its lookup.
 */
export async function issueMachineToken(
  deps: Deps,
  org: Org,
  client: Client,
  activeKid?: string | null,
): Promise<IssuedToken> {
  requireGrant(client, 'client_credentials');
  const signer = await deps.keyRing.signer(org.id, activeKid);
  const iat = Math.floor(clock.now() / 1000);
  const accessToken = await signAccessToken(signer, {
    typ: 'client',
    iss: issuerOf(deps.config, org),
    sub: client.id,
    aud: client.id,
    jti: newId('jti'),
    iat,
    exp: iat + ACCESS_TOKEN_TTL_S,
  });
  return { accessToken, expiresIn: ACCESS_TOKEN_TTL_S };
}
