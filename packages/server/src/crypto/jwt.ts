import { SignJWT } from 'jose';
import type { Signer } from '../domain/keys.js';

/** Signs an access token: header `alg RS256`, `typ at+jwt`, `kid` (DESIGN §5). */
export function signAccessToken(signer: Signer, claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: signer.kid })
    .sign(signer.key);
}
