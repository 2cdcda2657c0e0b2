/**
 * Where a verifier reads its issuer's key set: `${issuer}.well-known/jwks.json`, or, under the development
 * `hostOverride`, the same path on `localhost` with the org named in `?host=`. Node's resolver does not map
 * `*.localhost` to loopback as browsers do, so `http://acme.localhost:4000/` is reached as
 * `http://localhost:4000/.well-known/jwks.json?host=acme.localhost:4000`; Tessera honours `?host=` only
 * while it runs on a loopback address. Tokens are still checked against the issuer itself. The shape and
 * loopback checks of `hostOverride` here are the minter's too.
 */

import { isLoopbackHost } from './loopback.js';

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/**
 * A `hostOverride` as given to `where` (`createVerifier`, `createTokenMinter`): a host name with an optional
 * port, or a `TypeError`. Where it may be sent is the caller's check.
 *
 * @example
 * ```ts
 * checkHostOverride('createTokenMinter', 'acme.localhost:4000'); // 'acme.localhost:4000'
 * ```
 */
export function checkHostOverride(where: string, hostOverride: unknown): string {
  if (typeof hostOverride !== 'string' || !HOST.test(hostOverride)) {
    throw new TypeError(`${where}: "hostOverride" must be a host name, with an optional port`);
  }
  return hostOverride;
}

/**
 * The key-set URL for a checked issuer, or a `TypeError` when `hostOverride` is malformed, is not the
 * issuer's own host, or comes with an issuer that is not on loopback.
 *
 * @example
 * ```ts
 * keySetUrl('https://acme.example.com/', undefined); // 'https://acme.example.com/.well-known/jwks.json'
 * keySetUrl('http://acme.localhost:4000/', 'acme.localhost:4000');
 * // 'http://localhost:4000/.well-known/jwks.json?host=acme.localhost%3A4000'
 * ```
 */
export function keySetUrl(issuer: string, hostOverride: unknown): string {
  const url = new URL('.well-known/jwks.json', issuer);
  if (hostOverride === undefined) return url.href;
  const host = checkHostOverride('createVerifier', hostOverride);
  if (!isLoopbackHost(url.hostname)) {
    throw new TypeError('createVerifier: "hostOverride" is allowed only when "issuer" is a loopback URL');
  }
  // Only the issuer's own org can sign tokens whose `iss` is the issuer: any other host could never verify.
  if (host.toLowerCase() !== url.host) {
    throw new TypeError('createVerifier: "hostOverride" must be the host (and port) of "issuer"');
  }
  if (url.hostname.endsWith('.localhost')) url.hostname = 'localhost';
  url.searchParams.set('host', host);
  return url.href;
}
