/**
 * The JWS algorithms a client may sign with, using the public keys it registered (`jwks` or
 * `jwks_uri`): its `private_key_jwt` assertions (RFC 7523) and its request objects (RFC 9101).
 * Asymmetric only: a client's secret is stored as a hash, so nothing HMAC-signed with it can be
 * checked. Discovery lists them for both.
 */
export const CLIENT_JWS_ALGORITHMS: readonly string[] = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
