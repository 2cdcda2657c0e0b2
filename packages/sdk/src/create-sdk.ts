import { type AuthorizationUrlParams, authorizationUrl } from './authorize-url.js';
import { checkApi, checkHostOverride, checkIssuer, checkSwitchTenantGrant, record, text } from './checks.js';
import { createDpopSigner, type Dpop } from './dpop.js';
import { keyPairProblem } from './dpop-key.js';
import type { DpopContext } from './dpop-send.js';
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
  /**
   * DPoP (RFC 9449): binds the tokens to a key only this app holds, so a stolen token is useless
   * without it. Off by default. `true`: in a browser an ES256 key generated non-extractable and
   * kept in IndexedDB (one per issuer and client, kept across reloads; its private half can never
   * be read out); in Node one generated per SDK. `{ keyPair }`: the app's own `CryptoKeyPair`
   * (ECDSA P-256, Ed25519 or RSASSA-PKCS1-v1_5 SHA-256). Every token request then carries a proof,
   * bound tokens go to Tessera's APIs as `Authorization: DPoP` with a proof, and `sdk.dpop` calls
   * the app's own APIs the same way.
   */
  readonly dpop?: boolean | DpopOptions;
}

/**
 * The `dpop` option's object form.
 *
 * @example
 * ```ts
 * const keyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
 * const options: DpopOptions = { keyPair };
 * ```
 */
export interface DpopOptions {
  /** The key pair proofs are signed with; absent, the SDK's own (see {@link SdkOptions.dpop}). */
  readonly keyPair?: CryptoKeyPair;
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
  /** The DPoP key and proofs when the SDK was created with `dpop`; otherwise `undefined`. */
  readonly dpop: Dpop | undefined;
}

/** The `dpop` option checked: off, or where its key comes from. */
function dpopOption(value: unknown): { pair?: CryptoKeyPair } | null {
  if (value === undefined || value === false) return null;
  if (value === true) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TypeError('createSdk: "dpop" must be a boolean or { keyPair }');
  const { keyPair } = value as { keyPair?: unknown };
  if (keyPair === undefined) return {};
  const problem = keyPairProblem(keyPair);
  if (problem !== null) throw new TypeError(`createSdk: "dpop.keyPair" ${problem}`);
  return { pair: keyPair as CryptoKeyPair };
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
  const dpopSource = dpopOption(input.dpop);
  const signer =
    dpopSource === null
      ? undefined
      : createDpopSigner({ ...dpopSource, storageId: `${issuer}\n${clientId}` });
  const dpop: DpopContext | undefined =
    signer === undefined ? undefined : { signer, origin: issuer.slice(0, -1) };

  return Object.freeze({
    jwksUri,
    verify,
    token: tokenRequests(target, clientId, switchTenantGrant, dpop),
    revoke: (params: RevokeParams) => revokeToken(target, clientId, params),
    authorizationUrl: (params: AuthorizationUrlParams) => authorizationUrl(target, clientId, params),
    dpop: signer === undefined ? undefined : publicDpop(signer),
    ...resources(target, dpop),
  });
}

/** The app's view of the signer: only the members {@link Dpop} declares. */
function publicDpop(signer: Dpop): Dpop {
  return Object.freeze({
    thumbprint: () => signer.thumbprint(),
    proof: (params: Parameters<Dpop['proof']>[0]) => signer.proof(params),
    fetch: (token: string, url: string | URL, init?: RequestInit) => signer.fetch(token, url, init),
    forget: () => signer.forget(),
  });
}
