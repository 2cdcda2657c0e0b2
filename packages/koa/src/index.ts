/**
 * `@tessera/koa`: verify Tessera access tokens in a Koa API, and mint machine tokens for calling one.
 *
 * The published surface is exactly: {@link createVerifier}, {@link authenticate}, {@link whitelist},
 * {@link principalOf}, {@link createTokenMinter} and {@link TokenMinterError}, plus their types; and for
 * a resource server (an API or MCP server with its own resource in Tessera, DESIGN §15)
 * {@link protectedResource} and {@link requireScopes}; for DPoP (RFC 9449, `authenticate`'s `dpop`
 * option) {@link memoryReplayStore} and {@link DPOP_ALGORITHMS}.
 *
 * @example
 * ```ts
 * import Koa from 'koa';
 * import { authenticate, createVerifier, principalOf, whitelist } from '@tessera/koa';
 *
 * const app = new Koa();
 * const verify = createVerifier({ issuer: 'https://acme.example.com/', clientId: 'cli_web' });
 * app.use(authenticate({ verify, realm: 'api' }, whitelist([['/health', ['GET']]])));
 * app.use((ctx) => {
 *   ctx.body = ctx.path === '/health' ? { ok: true } : { user: principalOf(ctx) };
 * });
 * ```
 *
 * @packageDocumentation
 */
export { type AuthenticateDeps, authenticate } from './authenticate.js';
export { DPOP_ALGORITHMS, type DpopNonces, type DpopReplayStore, memoryReplayStore } from './dpop.js';
export { createTokenMinter, type TokenMinter, type TokenMinterOptions } from './minter.js';
export { TokenMinterError, type TokenMinterErrorCode } from './minter-error.js';
export { type ContextWithState, principalOf } from './principal.js';
export {
  type ProtectedResourceMiddleware,
  type ProtectedResourceOptions,
  protectedResource,
} from './protected-resource.js';
export type { Refusal, RefusalCode, RefusalReport } from './refusal.js';
export { requireScopes } from './require-scopes.js';
export type { AccessTokenClaims, Allow, Verified, VerifiedClient, VerifiedUser, Verify } from './types.js';
export { type AcceptedTokenType, createVerifier, type VerifierOptions } from './verifier.js';
export { type HttpVerb, type WhitelistRule, whitelist } from './whitelist.js';
