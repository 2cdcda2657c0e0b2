import type { Context, Middleware } from 'koa';
import { bearerChallenge, type ChallengeParts, QUOTABLE, rememberChallenge } from './challenge.js';
import { rememberPrincipal } from './principal.js';
import { type Refusal, refusal } from './refusal.js';
import type { Allow, Verified } from './types.js';

declare module 'koa' {
  interface DefaultState {
    /** The verified access token, set by `authenticate` (read it with `principalOf(ctx)`). */
    tessera?: Verified;
  }
}

/**
 * What `authenticate` needs: a verifier and the realm named in its `WWW-Authenticate` challenge.
 *
 * @example
 * ```ts
 * const deps: AuthenticateDeps = { verify: createVerifier({ issuer, clientId }), realm: 'billing-api' };
 * ```
 */
export interface AuthenticateDeps {
  /**
   * Token in, verified token or `null` out. A throw or rejection counts as `null`. `report` (passed by
   * `authenticate`, read by `createVerifier`'s verifier) is told why a token was refused.
   */
  readonly verify: (
    token: string,
    report?: (reason: Refusal) => void,
  ) => Promise<Verified | null> | Verified | null;
  /** A constant of printable ASCII without `"` or `\`, as it goes inside a quoted header value. */
  readonly realm: string;
  /**
   * The URL of this API's RFC 9728 protected-resource metadata (`protectedResource(...).metadataUrl`).
   * Given, the 401 names it (`resource_metadata="<url>"`, and `error="invalid_token"` when a token was
   * sent), which is how an MCP client finds the authorization server. Absent, the 401 is the spec's.
   */
  readonly resourceMetadata?: string;
  /**
   * Told why a request was refused, before its 401 is written: `reason.code` (`expired`,
   * `wrong_audience`, `token_type_not_accepted`, …) and `reason.detail`, one sentence. For the
   * application's log or metrics only: the response stays the spec's, the same for every reason, and
   * is written after the hook returns (a status or body it set is replaced). A throw or rejection of
   * the hook is ignored. Neither field holds the token.
   */
  readonly onRefused?: (reason: Refusal, ctx: Context) => void | Promise<void>;
}

const UNAUTHORIZED_BODY = '{"error":"unauthorized","error_detail":"we don\'t know who you are"}';
const BEARER_PREFIX_LENGTH = 'bearer '.length;

const allowNothing: Allow = () => false;

/**
 * Koa middleware that lets a request through only with a valid bearer token, or when `allow` says the
 * path and method need none. For each request, in order:
 *
 * 1. `allow(ctx.path, ctx.method)` is true: continue, reading no token.
 * 2. Read `Authorization: Bearer <token>`; the scheme is case-insensitive.
 * 3. `verify(token)` gives a result: store it at `ctx.state.tessera` and continue.
 * 4. Otherwise (no header, another scheme, expired, forged, wrong audience, verify threw) answer 401 with
 *    `WWW-Authenticate: Bearer realm="<realm>"` and the JSON body
 *    `{"error":"unauthorized","error_detail":"we don't know who you are"}`; later middleware does not run,
 *    so a path that does not exist is a 401 too, not a 404. With `deps.resourceMetadata` the challenge
 *    adds `resource_metadata="<url>"`, after `error="invalid_token"` when a bearer token was sent.
 *
 * Mount it after CORS handling, so that a preflight `OPTIONS` is answered before any token is asked for.
 * `deps` and `allow` are checked here: a bad one is a `TypeError` at start-up.
 *
 * @example
 * ```ts
 * import cors from '@koa/cors';
 * import Koa from 'koa';
 * import { authenticate, createVerifier, whitelist } from '@tessera/koa';
 *
 * const app = new Koa();
 * app.use(cors());
 * app.use(
 *   authenticate(
 *     { verify: createVerifier({ issuer: 'https://acme.example.com/', clientId: 'cli_web' }), realm: 'api' },
 *     whitelist([['/health', ['GET', 'HEAD']]]),
 *   ),
 * );
 * ```
 */
export function authenticate(deps: AuthenticateDeps, allow: Allow = allowNothing): Middleware {
  const { verify, parts, onRefused } = checkDeps(deps);
  if (typeof allow !== 'function') throw new TypeError('authenticate: "allow" must be a function');
  const challenge = bearerChallenge(parts);
  // RFC 6750 §3.1: a token that was sent and refused is `invalid_token`; the spec's 401 never says so.
  const refused = parts.resourceMetadata === null ? challenge : bearerChallenge(parts, 'invalid_token');

  return async function tesseraAuthenticate(ctx, next) {
    if (allow(ctx.path, ctx.method) === true) return next();

    const token = bearerToken(ctx.headers.authorization);
    let reason: Refusal | null = token === null ? refusal('no_token') : null;
    const verified =
      token === null
        ? null
        : await verifySafely(verify, token, (r) => {
            reason ??= r;
          });
    if (verified === null) {
      if (onRefused !== undefined) await tellRefusal(onRefused, reason ?? refusal('verify_refused'), ctx);
      ctx.status = 401;
      ctx.body = UNAUTHORIZED_BODY;
      ctx.set('WWW-Authenticate', token === null ? challenge : refused);
      ctx.set('Content-Type', 'application/json');
      return;
    }

    rememberPrincipal(ctx, verified);
    rememberChallenge(ctx, parts);
    ctx.state.tessera = verified;
    return next();
  };
}

function checkDeps(deps: AuthenticateDeps): {
  verify: AuthenticateDeps['verify'];
  parts: ChallengeParts;
  onRefused: AuthenticateDeps['onRefused'];
} {
  if (typeof deps !== 'object' || deps === null) throw new TypeError('authenticate: deps must be an object');
  if (typeof deps.verify !== 'function') throw new TypeError('authenticate: "verify" must be a function');
  if (typeof deps.realm !== 'string' || !QUOTABLE.test(deps.realm)) {
    throw new TypeError(
      'authenticate: "realm" must be non-empty printable ASCII without quotes or backslashes',
    );
  }
  const { resourceMetadata } = deps;
  if (resourceMetadata !== undefined && !isMetadataUrl(resourceMetadata)) {
    throw new TypeError('authenticate: "resourceMetadata" must be an absolute http(s) URL without quotes');
  }
  if (deps.onRefused !== undefined && typeof deps.onRefused !== 'function') {
    throw new TypeError('authenticate: "onRefused" must be a function');
  }
  return {
    verify: deps.verify,
    parts: { realm: deps.realm, resourceMetadata: resourceMetadata ?? null },
    onRefused: deps.onRefused,
  };
}

function isMetadataUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !QUOTABLE.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), or `null`. */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined || header.length <= BEARER_PREFIX_LENGTH) return null;
  if (header.slice(0, BEARER_PREFIX_LENGTH).toLowerCase() !== 'bearer ') return null;
  const token = header.slice(BEARER_PREFIX_LENGTH).trim();
  return token.length === 0 || token.includes(' ') ? null : token;
}

async function verifySafely(
  verify: AuthenticateDeps['verify'],
  token: string,
  report: (reason: Refusal) => void,
): Promise<Verified | null> {
  try {
    const result = await verify(token, report);
    return typeof result === 'object' && result !== null ? result : null;
  } catch {
    return null;
  }
}

/** Runs the application's hook; whatever it throws, the refusal goes on unchanged. */
async function tellRefusal(
  onRefused: NonNullable<AuthenticateDeps['onRefused']>,
  reason: Refusal,
  ctx: Context,
): Promise<void> {
  try {
    await onRefused(reason, ctx);
  } catch {
    // The hook is the application's; its failure must not turn a 401 into a 500.
  }
}
