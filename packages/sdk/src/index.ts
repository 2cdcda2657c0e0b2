/**
 * `@tessera/sdk`: sign people in to a Tessera org, keep their tokens fresh, and call the Tessera API.
 * Runs in browsers and in Node 20+ (global `fetch` and WebCrypto only); its one dependency is jose.
 *
 * The published surface: {@link createSdk}, {@link makeVerifier}, {@link SdkError}, the sign-in helpers
 * {@link createPkce}, {@link createState} and {@link challengeOf}, and their types.
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
 * location.assign(sdk.authorizationUrl({ redirectUri, codeChallenge: pkce.codeChallenge, state }));
 * ```
 *
 * @packageDocumentation
 */
export type { AuthorizationUrlParams } from './authorize-url.js';
export { createSdk, type DpopOptions, type Sdk, type SdkOptions } from './create-sdk.js';
export type { Dpop, DpopProofParams } from './dpop.js';
export { SdkError, type SdkErrorCode } from './errors.js';
export { challengeOf, createPkce, createState, type Pkce } from './pkce.js';
export type { Organization, ProfileSession, Tenant, TokenSet, User } from './records.js';
export type { Resources, TenantChanges } from './resources.js';
export type {
  AuthorizationCodeParams,
  ClientCredentialsParams,
  RefreshParams,
  RevokeParams,
  SwitchTenantParams,
  TokenRequests,
} from './token.js';
export { type AccessTokenClaims, makeVerifier, type VerifierOptions, type Verify } from './verifier.js';
