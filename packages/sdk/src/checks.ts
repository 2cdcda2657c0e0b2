/**
 * Checks of what callers pass in. Misuse is a `TypeError` naming the option or argument — never
 * echoing its value, which may be a token or a secret. Options are checked once, when the SDK or the
 * verifier is created, so a misconfiguration fails at start-up rather than on the first request.
 */
import { isLoopbackHost } from './loopback.js';

export const DEFAULT_SWITCH_TENANT_GRANT = 'urn:service:params:oauth:grant-type:switch-tenant';

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

function httpUrl(value: unknown): URL | null {
  if (typeof value !== 'string' && !(value instanceof URL)) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * A non-empty string argument, or a `TypeError` naming it.
 *
 * @example
 * ```ts
 * const name = text('tenants.create', 'name', input);
 * ```
 */
export function text(where: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${where}: "${name}" must be a non-empty string`);
  }
  return value;
}

/**
 * An optional string argument: `undefined`, or a non-empty string.
 *
 * @example
 * ```ts
 * const secret = optionalText('token.refresh', 'clientSecret', input.clientSecret);
 * ```
 */
export function optionalText(where: string, name: string, value: unknown): string | undefined {
  return value === undefined ? undefined : text(where, name, value);
}

/**
 * An object argument (the `{…}` parameter of a call), or a `TypeError` naming it.
 *
 * @example
 * ```ts
 * const input = record('token.refresh', 'options', options);
 * ```
 */
export function record(where: string, name: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${where}: "${name}" must be an object`);
  }
  return value as Record<string, unknown>;
}

/**
 * An issuer: an absolute http(s) URL ending in `/`, because `iss` is compared exactly and Tessera's
 * issuers end in a slash — a missing one would make every token fail to verify.
 *
 * @example
 * ```ts
 * const issuer = checkIssuer('createSdk', options.issuer);
 * ```
 */
export function checkIssuer(where: string, value: unknown): string {
  if (typeof value !== 'string' || !value.endsWith('/') || httpUrl(value) === null) {
    throw new TypeError(`${where}: "issuer" must be an absolute http(s) URL ending in "/"`);
  }
  return value;
}

/**
 * A key-set address: an absolute http(s) URL.
 *
 * @example
 * ```ts
 * const jwksUri = checkJwksUri('makeVerifier', options.jwksUri);
 * ```
 */
export function checkJwksUri(where: string, value: unknown): URL {
  const url = httpUrl(value);
  if (url === null) throw new TypeError(`${where}: "jwksUri" must be an absolute http(s) URL`);
  return url;
}

/**
 * The API base address: an absolute http(s) URL without credentials, query or fragment, returned
 * without trailing slashes so that `${api}${path}` never doubles one.
 *
 * @example
 * ```ts
 * checkApi('http://localhost:4000/'); // 'http://localhost:4000'
 * ```
 */
export function checkApi(value: unknown): { api: string; loopback: boolean } {
  const url = httpUrl(value);
  if (
    typeof value !== 'string' ||
    url === null ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new TypeError(
      'createSdk: "api" must be an absolute http(s) URL without credentials, query or fragment',
    );
  }
  return { api: value.replace(/\/+$/, ''), loopback: isLoopbackHost(url.hostname) };
}

/**
 * The development host override: a host name with an optional port, allowed only against a loopback API.
 *
 * @example
 * ```ts
 * checkHostOverride('acme.localhost:4000', true); // 'acme.localhost:4000'
 * ```
 */
export function checkHostOverride(value: unknown, apiIsLoopback: boolean): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !HOST.test(value)) {
    throw new TypeError('createSdk: "hostOverride" must be a host name with an optional port');
  }
  if (!apiIsLoopback) {
    throw new TypeError(
      'createSdk: "hostOverride" is for development only and needs "api" on loopback (localhost, *.localhost, 127.0.0.0/8 or [::1])',
    );
  }
  return value;
}

/**
 * The tenant-switch grant type: the spec's URN unless configured; any non-empty string without spaces.
 *
 * @example
 * ```ts
 * checkSwitchTenantGrant(undefined); // 'urn:service:params:oauth:grant-type:switch-tenant'
 * ```
 */
export function checkSwitchTenantGrant(value: unknown): string {
  if (value === undefined) return DEFAULT_SWITCH_TENANT_GRANT;
  if (typeof value !== 'string' || !/^\S+$/.test(value)) {
    throw new TypeError('createSdk: "switchTenantGrant" must be a non-empty string without spaces');
  }
  return value;
}
