import { fail } from '../errors.js';
import type { Client, PublicKeySet } from '../types.js';

/** At most this many keys: enough for a rotation, too few to make verification a chore. */
export const MAX_CLIENT_KEYS = 10;

const KEY_TYPES = ['RSA', 'EC', 'OKP'];

// Members of private or symmetric keys (RFC 7518 §6): a client registers public keys only.
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * A client's public keys for `private_key_jwt` (RFC 7523, DESIGN §14): a JWK Set of 1 to 10 RSA,
 * EC or OKP public keys, for a confidential client only. Returned as given; any problem is
 * `invalid_body`.
 */
export function checkClientJwks(kind: Client['kind'], jwks: PublicKeySet): PublicKeySet {
  if (kind !== 'confidential')
    fail('client.jwks.public_client', 'jwks: only a confidential client can register keys');
  const keys = Array.isArray(jwks.keys) ? jwks.keys : [];
  if (keys.length < 1 || keys.length > MAX_CLIENT_KEYS) {
    fail('client.jwks.key_count', `jwks: must hold 1 to ${MAX_CLIENT_KEYS} keys`);
  }
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || !KEY_TYPES.includes(key.kty as string)) {
      fail('client.jwks.key_type', 'jwks: every key must be an RSA, EC or OKP public key');
    }
    if (PRIVATE_MEMBERS.some((m) => Object.hasOwn(key, m))) {
      fail(
        'client.jwks.private_key',
        'jwks: a key holds private or secret members; register public keys only',
      );
    }
  }
  return { keys };
}

const MAX_JWKS_URI_LENGTH = 2000;

/**
 * Where a client publishes its public keys instead (`jwks_uri`, RFC 7591 §2): an https URL without
 * a fragment, user name or password, for a confidential client only. The address it names is
 * judged when it is fetched (the metadata-document policy), not here. Any problem is `invalid_body`.
 */
export function checkClientJwksUri(kind: Client['kind'], uri: string): string {
  if (kind !== 'confidential')
    fail('client.jwks_uri.public_client', 'jwks_uri: only a confidential client can register keys');
  const url = URL.canParse(uri) && uri.length <= MAX_JWKS_URI_LENGTH ? new URL(uri) : null;
  if (url === null) {
    return fail(
      'client.jwks_uri.invalid',
      `jwks_uri: must be an absolute URL of at most ${MAX_JWKS_URI_LENGTH} characters`,
    );
  }
  if (url.protocol !== 'https:') fail('client.jwks_uri.not_https', 'jwks_uri: must be an https URL');
  if (uri.includes('#') || url.username || url.password) {
    fail('client.jwks_uri.credentials', 'jwks_uri: must have no fragment, user name or password');
  }
  return uri;
}

/** A client registers its keys one way: `jwks` or `jwks_uri`, never both. */
export function checkOneKeySource(client: Pick<Client, 'jwks' | 'jwksUri'>): void {
  if (client.jwks !== undefined && client.jwksUri !== undefined) {
    fail(
      'client.jwks.both_sources',
      'jwks and jwks_uri are mutually exclusive: set the other to null to change',
    );
  }
}
