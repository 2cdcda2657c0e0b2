import { webcrypto } from 'node:crypto';
import type { CryptoKey } from 'jose';

/** A private signing key and the `kid` it is published under. */
export interface Signer {
  kid: string;
  key: CryptoKey;
}

const RS256 = { name: 'RSASSA-PKCS1-v1_5' } as const;

const b64url = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/**
 * Signs a JWT with header `alg RS256`, `typ`, `kid`.
 *
 * The compact JWS is put together here and only the RSA signature is left to WebCrypto, which
 * computes it on libuv's thread pool. That is the same token jose's SignJWT makes from these
 * claims (header members in this order, claims as given), at about half its main-thread cost:
 * this runs once per token, and at the token endpoint the main thread is what runs out first.
 */
export async function signJwt(
  signer: Signer,
  typ: 'at+jwt' | 'JWT' | 'logout+jwt' | 'oauth-id-jag+jwt',
  claims: Record<string, unknown>,
): Promise<string> {
  const input = `${b64url(JSON.stringify({ alg: 'RS256', typ, kid: signer.kid }))}.${b64url(JSON.stringify(claims))}`;
  const signature = await webcrypto.subtle.sign(RS256, signer.key, Buffer.from(input, 'latin1'));
  return `${input}.${Buffer.from(signature).toString('base64url')}`;
}

/** Signs an access token: header `alg RS256`, `typ at+jwt`, `kid` (DESIGN §5). */
export function signAccessToken(signer: Signer, claims: Record<string, unknown>): Promise<string> {
  return signJwt(signer, 'at+jwt', claims);
}
