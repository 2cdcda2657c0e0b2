import type { Verified } from './types.js';

/**
 * Which requests `authenticate` verified, and as whom. The record is module-private and keyed by the
 * request's context object, so a route or another middleware writing `ctx.state.tessera` itself cannot
 * make `principalOf` vouch for it.
 */
const verifiedRequests = new WeakMap<object, Verified>();

/**
 * Records the verified token of a request; only `authenticate` calls this.
 *
 * @example
 * ```ts
 * rememberPrincipal(ctx, verified);
 * ctx.state.tessera = verified;
 * ```
 */
export function rememberPrincipal(ctx: object, verified: Verified): void {
  verifiedRequests.set(ctx, verified);
}

/**
 * Anything with Koa's request state; every Koa context qualifies whatever its state type.
 *
 * @example
 * ```ts
 * const whoever = (ctx: ContextWithState) => principalOf(ctx);
 * ```
 */
export interface ContextWithState {
  readonly state: unknown;
}

/**
 * The verified token of the current request, as `authenticate` stored it at `ctx.state.tessera`.
 *
 * Throws an `Error` when `authenticate` did not verify a token for this request: it is not mounted in
 * front of the route, or the route is whitelisted (a whitelisted request reads no token, so it has no
 * principal). A route that can run either way should not call it.
 *
 * @example
 * ```ts
 * import { principalOf } from '@tessera/koa';
 *
 * router.get('/me', (ctx) => {
 *   const who = principalOf(ctx);
 *   ctx.body = who.kind === 'user' ? { user: who.userId, tenant: who.tenantId } : { client: who.clientId };
 * });
 * ```
 */
export function principalOf(ctx: ContextWithState): Verified {
  const verified = typeof ctx === 'object' && ctx !== null ? verifiedRequests.get(ctx) : undefined;
  if (verified === undefined) {
    throw new Error(
      'principalOf: no verified token for this request; authenticate() did not run for it or the route is whitelisted',
    );
  }
  return verified;
}
