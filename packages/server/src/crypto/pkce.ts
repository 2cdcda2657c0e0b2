import { createHash, timingSafeEqual } from 'node:crypto';

// RFC 7636 §4.1: 43-128 characters of the unreserved set.
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 7636 §4.6: BASE64URL(SHA256(verifier)) equals the challenge; compared in constant time. */
export function pkceS256Matches(verifier: string, challenge: string): boolean {
  const s256 = pkceS256Challenge(verifier);
  if (s256 === null) return false;
  const computed = Buffer.from(s256);
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** The S256 challenge a verifier settles, or null for a malformed verifier (which settles none). */
export function pkceS256Challenge(verifier: string): string | null {
  if (!VERIFIER.test(verifier)) return null;
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
