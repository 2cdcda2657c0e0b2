/**
 * PKCE (RFC 7636) and `state` values for the authorization-code flow, from WebCrypto alone so the same
 * code runs in browsers and in Node 20 (`globalThis.crypto`). In browsers `crypto.subtle` exists only in
 * secure contexts: https pages, or http on localhost.
 */

/**
 * A PKCE pair. Keep `codeVerifier` where the callback can read it (session storage, a server-side
 * session) and send `codeChallenge` in the authorization URL.
 *
 * @example
 * ```ts
 * const { codeVerifier, codeChallenge }: Pkce = await createPkce();
 * ```
 */
export interface Pkce {
  /** 43 characters of base64url: 32 random bytes (RFC 7636 §4.1 asks for 43 to 128). */
  codeVerifier: string;
  /** BASE64URL(SHA-256(codeVerifier)). */
  codeChallenge: string;
  /** Always `S256`: Tessera refuses `plain`. */
  codeChallengeMethod: 'S256';
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomValue(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The S256 challenge of a code verifier.
 *
 * @example
 * ```ts
 * await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk');
 * // 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' (RFC 7636, appendix B)
 * ```
 */
export async function challengeOf(codeVerifier: string): Promise<string> {
  if (typeof codeVerifier !== 'string' || !/^[A-Za-z0-9\-._~]{43,128}$/.test(codeVerifier)) {
    throw new TypeError(
      'challengeOf: "codeVerifier" must be 43 to 128 unreserved characters (RFC 7636 §4.1)',
    );
  }
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64url(new Uint8Array(digest));
}

/**
 * A fresh PKCE pair for one sign-in.
 *
 * @example
 * ```ts
 * import { createPkce } from '@tessera/sdk';
 *
 * const pkce = await createPkce();
 * sessionStorage.setItem('tessera.verifier', pkce.codeVerifier);
 * const url = sdk.authorizationUrl({ redirectUri, codeChallenge: pkce.codeChallenge, state });
 * ```
 */
export async function createPkce(): Promise<Pkce> {
  const codeVerifier = randomValue();
  return { codeVerifier, codeChallenge: await challengeOf(codeVerifier), codeChallengeMethod: 'S256' };
}

/**
 * A fresh `state` for one authorization request: 32 random bytes, base64url. Compare it with the
 * `state` the callback receives before redeeming the code; a mismatch is a forged callback.
 *
 * @example
 * ```ts
 * import { createState } from '@tessera/sdk';
 *
 * const state = createState();
 * sessionStorage.setItem('tessera.state', state);
 * ```
 */
export function createState(): string {
  return randomValue();
}
