import { verify as cryptoVerify, type KeyObject } from 'node:crypto';

/**
 * Parsing and signature checking of compact RS256 JWS, with no trust decision in it: which key to use
 * comes from the key store, and what the payload must say comes from the claim rules.
 *
 * Only RS256 is implemented, so the algorithm table has one row:
 *
 * | `alg` | key | check |
 * |---|---|---|
 * | `RS256` | RSA public key (≥ 2048 bits) from the issuer's JWKS, by `kid` | RSASSA-PKCS1-v1_5 with SHA-256 |
 */

/**
 * Longer tokens are refused before any decoding: Tessera tokens are well under 2 KiB.
 *
 * @example
 * ```ts
 * if (token.length > MAX_TOKEN_LENGTH) return null;
 * ```
 */
export const MAX_TOKEN_LENGTH = 8192;

/**
 * A compact JWS whose header passed the checks and whose signature has not been checked yet.
 *
 * @example
 * ```ts
 * const jws: ParsedJws | null = parseJws(token);
 * const key = jws && (await keys.get(jws.kid));
 * ```
 */
export interface ParsedJws {
  readonly kid: string;
  readonly signingInput: string;
  readonly encodedPayload: string;
  readonly signature: Buffer;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const AT_JWT = /^(?:application\/)?at\+jwt$/i;

/**
 * Decodes base64url and refuses anything that does not re-encode to the same text: padding, `+`, `/`,
 * whitespace, stray characters and non-zero trailing bits all give `null`. Buffer's own decoder skips such
 * characters silently, which would let two different strings carry one signature.
 *
 * @example
 * ```ts
 * decodeBase64url('eyJhIjoxfQ'); // Buffer of '{"a":1}'
 * decodeBase64url('eyJhIjoxfQ=='); // null
 * ```
 */
export function decodeBase64url(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

/**
 * Parses base64url-encoded UTF-8 JSON that must be an object (not an array, not `null`).
 *
 * @example
 * ```ts
 * decodeJsonObject('eyJhIjoxfQ'); // { a: 1 }
 * decodeJsonObject('WzFd'); // null: an array
 * ```
 */
export function decodeJsonObject(encoded: string): Record<string, unknown> | null {
  const bytes = decodeBase64url(encoded);
  if (bytes === null || bytes.length === 0) return null;
  const value: unknown = JSON.parse(utf8.decode(bytes));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return value as Record<string, unknown>;
}

/**
 * Splits a compact JWS (exactly three parts) and checks its protected header: `alg` exactly `RS256`,
 * `typ` present and `at+jwt` or `application/at+jwt` (RFC 9068 §4, RFC 8725 §3.11: an ID token, or any
 * other JWT the issuer signs, is never taken for an access token), a non-empty `kid`, no `crit` (no
 * extension is understood, so any is unknown) and no unencoded payload. Key-carrying headers (`jwk`,
 * `jku`, `x5u`, `x5c`) are never read: keys come from the issuer's key set only. Malformed JSON or UTF-8
 * throws; the verifier turns any throw into null.
 *
 * @example
 * ```ts
 * const jws = parseJws(token);
 * if (jws === null) return null; // not a token this verifier could ever accept
 * ```
 */
export function parseJws(token: string): ParsedJws | null {
  const first = token.indexOf('.');
  const second = first === -1 ? -1 : token.indexOf('.', first + 1);
  if (first < 1 || second < first + 2 || second === token.length - 1) return null;
  if (token.indexOf('.', second + 1) !== -1) return null;

  const header = decodeJsonObject(token.slice(0, first));
  if (header === null || header.alg !== 'RS256') return null;
  if (typeof header.typ !== 'string' || !AT_JWT.test(header.typ)) return null;
  if (header.crit !== undefined || (header.b64 !== undefined && header.b64 !== true)) return null;
  if (typeof header.kid !== 'string' || header.kid.length === 0) return null;

  const signature = decodeBase64url(token.slice(second + 1));
  if (signature === null) return null;
  return {
    kid: header.kid,
    signingInput: token.slice(0, second),
    encodedPayload: token.slice(first + 1, second),
    signature,
  };
}

/**
 * Checks the RS256 signature of a parsed JWS with node:crypto directly (about eight times the
 * throughput of a general JOSE library for the same check), on libuv's thread pool: the RSA
 * operation is most of a verification's cost, and the event loop serves other requests meanwhile.
 * Resolves false on any error; never rejects.
 *
 * @example
 * ```ts
 * if (!(await verifyRs256(jws, key))) return null;
 * const payload = decodeJsonObject(jws.encodedPayload);
 * ```
 */
export function verifyRs256(jws: ParsedJws, key: KeyObject): Promise<boolean> {
  return new Promise((resolve) => {
    cryptoVerify('RSA-SHA256', Buffer.from(jws.signingInput, 'latin1'), key, jws.signature, (error, ok) =>
      resolve(error === null && ok),
    );
  });
}
