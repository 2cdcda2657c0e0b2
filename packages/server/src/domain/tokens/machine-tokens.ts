import { signAccessToken } from '../../crypto/jwt.js';
import { newId } from '../../crypto/random.js';
import type { Deps } from '../context.js';
import { fail } from '../errors.js';
import { issuerOf } from '../directory/issuers.js';
import { ACCESS_TOKEN_TTL_S } from './tokens-policy.js';
import type { Client, Org } from '../types.js';

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
  if (client.kind !== 'confidential' || !client.grantTypes.includes('client_credentials')) {
    fail('unauthorized_client', 'this client may not use the client_credentials grant');
  }
  const signer = await deps.keyRing.signer(org.id, activeKid);
  const iat = Math.floor(Date.now() / 1000);
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
