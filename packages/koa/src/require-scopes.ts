import type { Middleware } from 'koa';
import { bearerChallenge, challengeOf } from './challenge.js';
import { principalOf } from './principal.js';

// RFC 6749 §3.3 scope-token.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Koa middleware, mounted after `authenticate`, that lets a request through only when the verified
 * token's `scope` claim holds every one of `scopes`. Otherwise it answers `403` with
 * `{"error":"insufficient_scope","error_detail":"this token lacks the <scopes> scope"}` and
 * `WWW-Authenticate: Bearer realm="<realm>", error="insufficient_scope", scope="<scopes>"` (RFC 6750
 * §3.1), plus `resource_metadata="<url>"` when `authenticate` was given one.
 *
 * `scope` in the challenge is the scopes this operation needs — all of `scopes`, held or not, and
 * nothing else — as RFC 6750 §3.1 has it ("the scope necessary to access the requested resource").
 * Keeping what the token already holds is the client's part (MCP authorization 2026-07-28, SEP-2350:
 * the client asks for the challenge's scopes added to those it was granted), so the challenge does not
 * widen into everything the token carries.
 *
 * Throws an `Error` for a request `authenticate` did not verify (not mounted before it, or a
 * whitelisted route): that is a wiring mistake, not a caller's. The scopes are checked here
 * (`TypeError`).
 *
 * @example
 * ```ts
 * router.post('/files', requireScopes('files:write'), (ctx) => {
 *   ctx.status = 201;
 * });
 * ```
 */
export function requireScopes(...scopes: string[]): Middleware {
  if (scopes.length === 0 || !scopes.every((s) => typeof s === 'string' && SCOPE_TOKEN.test(s))) {
    throw new TypeError('requireScopes: give one or more scope names');
  }
  const needed = [...new Set(scopes)];

  return async function tesseraRequireScopes(ctx, next) {
    const { claims } = principalOf(ctx);
    // Only well-formed scope tokens are read, so nothing from the token can break the header's quoting.
    const held =
      typeof claims.scope === 'string' ? claims.scope.split(' ').filter((s) => SCOPE_TOKEN.test(s)) : [];
    const missing = needed.filter((s) => !held.includes(s));
    if (missing.length === 0) return next();

    const parts = challengeOf(ctx);
    if (parts === undefined) throw new Error('requireScopes: authenticate() did not run for this request');
    ctx.status = 403;
    ctx.set('WWW-Authenticate', bearerChallenge(parts, 'insufficient_scope', needed.join(' ')));
    ctx.set('Content-Type', 'application/json');
    ctx.body = JSON.stringify({
      error: 'insufficient_scope',
      error_detail: `this token lacks the ${missing.join(' ')} scope${missing.length > 1 ? 's' : ''}`,
    });
  };
}
