import { type AuthorizationUrlParams, authorizationUrl } from './authorize-url.js';
import { checkApi, checkHostOverride, checkIssuer, checkSwitchTenantGrant, record, text } from './checks.js';
import { type Target, urlOf } from './http.js';
import { type Resources, resources } from './resources.js';
import { type RevokeParams, revokeToken, type TokenRequests, tokenRequests } from './token.js';
import { type AccessTokenClaims, makeVerifier } from './verifier.js';

/**
 * Options of {@link createSdk}.
 *
 * @example
 * ```ts
 * const options: SdkOptions = {
 *   api: 'https://acme.auth.example.com',
 *   issuer: 'https://acme.auth.example.com/',
 *   clientId: 'cli_web',
 * };
 * ```
 */
export interface SdkOptions {
  /**
   * Base address of the Tessera API. Tessera picks the org from the host, so this is the org's own
   * address (its issuer without the trailing slash), or the console's for console calls.
   */
  readonly api: string;
  /** The org issuer: the exact `iss` of its tokens, trailing slash included. */
  readonly issuer: string;
  /** The client the app signs people in to; sent as `client_id` and required in `aud`. */
  readonly clientId: string;
  /**
   * Development only: the org host to address (such as `acme.localhost:4000`), sent as `?host=` on every
   * request. Allowed only when `api` is on loopback (`src/loopback.ts`): `localhost`,
   * `*.localhost`, 127.0.0.0/8 or `[::1]`.
   */
  readonly hostOverride?: string;
  /** The tenant-switch grant type; default `urn:service:params:oauth:grant-type:switch-tenant`. */
  readonly switchTenantGrant?: string;
}

/**
 * The client SDK: the members of the spec's "Client SDK" table, plus the authorization-URL builder.
 *
 * @example
 * ```ts
 * const me = await sdk.users.me(tokens.accessToken);
 * ```
 */
export interface Sdk extends Resources {
  /** The key-set address: `${api}/.well-known/jwks.json` (with `?host=` under a `hostOverride`). */
  readonly jwksUri: string;
  /** Verifies an access token for this issuer and client; see {@link makeVerifier}. */
  verify(token: string): Promise<AccessTokenClaims>;
  readonly token: TokenRequests;
  /** Revokes a refresh token, ending its session. */
  revoke(params: RevokeParams): Promise<void>;
  /** Where to send the browser to sign in; see {@link AuthorizationUrlParams}. */
  authorizationUrl(params: AuthorizationUrlParams): string;
}

/**
 * Creates the SDK for one client of one Tessera org. Options are checked here: a bad one is a
 * `TypeError` naming it. Every call that fails throws an {@link SdkError}.
 *
 * @example
 * ```ts
 * import { createPkce, createSdk, createState } from '@tessera/sdk';
 *
 * const sdk = createSdk({
 *   api: 'https://acme.auth.example.com',
 *   issuer: 'https://acme.auth.example.com/',
 *   clientId: 'cli_web',
 * });
 * const pkce = await createPkce();
 * const state = createState();
 * const url = sdk.authorizationUrl({ redirectUri, codeChallenge: pkce.codeChallenge, state });
 * // …after the redirect back with ?code=…&state=…
 * const tokens = await sdk.token.authorizationCode({ code, redirectUri, codeVerifier: pkce.codeVerifier });
 * const tenants = await sdk.tenants.list(tokens.accessToken);
 * ```
 */
export function createSdk(options: SdkOptions): Sdk {
  const input = record('createSdk', 'options', options);
  const { api, loopback } = checkApi(input.api);
  const issuer = checkIssuer('createSdk', input.issuer);
  const clientId = text('createSdk', 'clientId', input.clientId);
  const target: Target = { api, hostOverride: checkHostOverride(input.hostOverride, loopback) };
  const switchTenantGrant = checkSwitchTenantGrant(input.switchTenantGrant);
  // The key set is fetched from the configured API, never from anything a token says.
  const jwksUri = urlOf(target, '/.well-known/jwks.json');
  const verify = makeVerifier({ issuer, clientId, jwksUri });

  return Object.freeze({
    jwksUri,
    verify,
    token: tokenRequests(target, clientId, switchTenantGrant),
    revoke: (params: RevokeParams) => revokeToken(target, clientId, params),
    authorizationUrl: (params: AuthorizationUrlParams) => authorizationUrl(target, clientId, params),
    ...resources(target),
  });
}
