import { createHash } from 'node:crypto';
import { idTokenSigner, type Signer, signJwt } from './jwt.js';

/**
 * The explicit type of an Identity Assertion JWT Authorization Grant (ID-JAG,
 * draft-ietf-oauth-identity-assertion-authz-grant §3): an identity assertion for another
 * authorization server, signed as ID tokens are.
 */
export const ID_JAG_TYP = 'oauth-id-jag+jwt';

/**
 * Signs an ID token (OIDC Core §2): header `alg` the org's ID-token algorithm (RS256, ES256 or
 * PS256: `signer`'s `forIdTokens`, idTokenSigner), `typ JWT`, `kid`. Never `at+jwt`, so an ID token
 * is refused wherever an access token is expected. Put together like an access token (jwt.ts): a
 * code exchange and an openid refresh sign both, at the main thread's cost. Whatever else the spec
 * does not fix to RS256 (ID-JAGs) is signed through here too, with its own `typ`.
 */
export async function signIdToken(
  signer: Signer,
  claims: Record<string, unknown>,
  typ: 'JWT' | typeof ID_JAG_TYP = 'JWT',
): Promise<string> {
  return signJwt(await idTokenSigner(signer), typ, claims);
}

/**
 * `at_hash` (OIDC Core §3.1.3.6): base64url of the left half of the hash of the access token's
 * ASCII octets, with the hash of the ID token's `alg` — SHA-256 for RS256, ES256 and PS256 alike.
 */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');
}

/**
 * Signs a logout token (OIDC Back-Channel Logout 1.0 §2.4): header `typ logout+jwt` (the
 * specification's recommended explicit type), so it is never taken for an ID or access token.
 */
export async function signLogoutToken(signer: Signer, claims: Record<string, unknown>): Promise<string> {
  return signJwt(await idTokenSigner(signer), 'logout+jwt', claims);
}
