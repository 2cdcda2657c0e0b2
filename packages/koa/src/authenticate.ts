import { decodeJwt } from 'jose';
import type { Context, Middleware } from 'koa';
import { bearerChallenge, type ChallengeParts, QUOTABLE, rememberChallenge } from './challenge.js';
import {
  checkProof,
  DPOP_ALGORITHMS,
  type DpopNonces,
  type DpopReplayStore,
  memoryReplayStore,
} from './dpop.js';
import { rememberPrincipal } from './principal.js';
import { type Refusal, refusal } from './refusal.js';
import type { Allow, Verified } from './types.js';
import { bindingRefusal } from './verifier.js';

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
    proofKey?: string,
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
  /**
   * DPoP (RFC 9449): `allowed` takes `Authorization: DPoP <token>` with a `DPoP` proof beside Bearer
   * tokens (the 401 names both schemes, Bearer first); `required` takes DPoP only. A token bound to a
   * key (`cnf.jkt`) is taken only as DPoP with a proof of that key, for this request (`htm`, `htu`
   * from `ctx.protocol`, `ctx.host` and `ctx.path`, so behind a proxy set `app.proxy`), with `ath`, `iat` within a
   * minute, and a `jti` not seen before. Absent: no DPoP; the 401 is the spec's, and a token carrying
   * `cnf` is refused like a malformed claim.
   */
  readonly dpop?: 'allowed' | 'required';
  /** Where accepted proofs are remembered (default: in memory, per process; see `memoryReplayStore`). */
  readonly dpopReplay?: DpopReplayStore;
  /** Server nonces: proofs must carry one `check` accepts, else 401 `use_dpop_nonce` with `DPoP-Nonce`. */
  readonly dpopNonces?: DpopNonces;
  /** Milliseconds since the epoch, for a proof's `iat` (tests only). */
  readonly now?: () => number;
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
  const { verify, parts, onRefused, dpop } = checkDeps(deps);
  if (typeof allow !== 'function') throw new TypeError('authenticate: "allow" must be a function');
  const challenge = bearerChallenge(parts);
  // RFC 6750 §3.1: a token that was sent and refused is `invalid_token`; the spec's 401 never says so.
  const refused = parts.resourceMetadata === null ? challenge : bearerChallenge(parts, 'invalid_token');

  if (dpop !== null) return dpopMiddleware(deps, dpop, allow, { challenge, refused });

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
    // A verify function of the application's own may accept a sender-constrained token: without
    // DPoP, no `cnf` is taken (the verifier's own rule, bindingRefusal).
    const binding = verified === null ? null : bindingRefusal(verified, undefined);
    if (verified === null || binding !== null) {
      if (binding !== null) reason = refusal(binding);
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

/** What a DPoP refusal's challenge says (RFC 9449 §7.1): the error of the DPoP scheme, if any. */
type DpopError = 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce' | null;

/**
 * `authenticate` with its `dpop` option: a request carries `Authorization: Bearer <token>` (taken
 * with `allowed` for tokens without `cnf`) or `Authorization: DPoP <token>` with a `DPoP` proof.
 * Every refusal is the spec's 401 body, its `WWW-Authenticate` naming the Bearer challenge first
 * (`allowed` only) and then `DPoP realm="…", algs="…"` with the DPoP error when there is one.
 */
function dpopMiddleware(
  deps: AuthenticateDeps,
  mode: 'allowed' | 'required',
  allow: Allow,
  bearer: { challenge: string; refused: string },
): Middleware {
  const { verify, realm, onRefused } = deps;
  const replay = deps.dpopReplay ?? memoryReplayStore();
  const nonces = deps.dpopNonces;
  const now = deps.now ?? Date.now;
  const algs = DPOP_ALGORITHMS.join(' ');
  const parts: ChallengeParts = { realm, resourceMetadata: deps.resourceMetadata ?? null };

  const refuse = async (
    ctx: Context,
    reason: Refusal,
    bearerPart: 'challenge' | 'refused',
    dpopError: DpopError,
  ): Promise<void> => {
    if (onRefused !== undefined) await tellRefusal(onRefused, reason, ctx);
    let dpopPart = `DPoP realm="${realm}", algs="${algs}"`;
    if (dpopError !== null) dpopPart += `, error="${dpopError}"`;
    ctx.status = 401;
    ctx.body = UNAUTHORIZED_BODY;
    ctx.set('WWW-Authenticate', mode === 'allowed' ? `${bearer[bearerPart]}, ${dpopPart}` : dpopPart);
    if (dpopError === 'use_dpop_nonce' && nonces !== undefined) ctx.set('DPoP-Nonce', nonces.current());
    ctx.set('Content-Type', 'application/json');
  };

  return async function tesseraAuthenticateDpop(ctx, next) {
    if (allow(ctx.path, ctx.method) === true) return next();

    const header = ctx.headers.authorization;
    const asDpop = schemeToken(header, 'dpop ');
    const asBearer = asDpop === null ? bearerToken(header) : null;
    if (asDpop === null && asBearer === null) return refuse(ctx, refusal('no_token'), 'challenge', null);

    let reason: Refusal | null = null;
    const report = (r: Refusal) => {
      reason ??= r;
    };
    if (asBearer !== null) {
      if (mode === 'required') return refuse(ctx, refusal('dpop_required'), 'refused', null);
      const verified = await verifySafely(verify, asBearer, report);
      const binding = verified === null ? null : bindingRefusal(verified, undefined);
      // The verifier refuses a sender-constrained token as a malformed claim; here, where DPoP is
      // taken, the refusal says what to do instead (the token's claims name only the challenge).
      const told = reason as Refusal | null;
      const bound = binding !== null || (told?.code === 'malformed_claims' && carriesCnf(asBearer));
      if (verified === null || binding !== null) {
        const why = bound ? refusal('dpop_bound_token_as_bearer') : (reason ?? refusal('verify_refused'));
        return refuse(ctx, why, 'refused', bound ? 'invalid_token' : null);
      }
      return admit(ctx, verified, parts, next);
    }

    const token = asDpop as string;
    let check: Awaited<ReturnType<typeof checkProof>>;
    try {
      check = await checkProof(ctx.headers.dpop, {
        method: ctx.method,
        // Koa's own view of the URL: X-Forwarded-Proto and -Host only with app.proxy (ctx.origin is
        // the Origin header in Koa 3, not this).
        url: `${ctx.protocol}://${ctx.host}${ctx.path}`,
        token,
        nowMs: now(),
        ...(nonces === undefined ? {} : { nonces }),
      });
    } catch {
      check = { ok: false, code: 'dpop_proof_invalid' };
    }
    if (!check.ok) {
      const error = check.code === 'dpop_nonce_required' ? 'use_dpop_nonce' : 'invalid_dpop_proof';
      return refuse(ctx, refusal(check.code), 'challenge', error);
    }
    const verified = await verifySafely(verify, token, report, check.jkt);
    // Checked here as well, for a verify function of the application's own.
    const binding = verified === null ? null : bindingRefusal(verified, check.jkt);
    if (verified === null || binding !== null) {
      const why = binding === null ? (reason ?? refusal('verify_refused')) : refusal(binding);
      return refuse(ctx, why, 'challenge', 'invalid_token');
    }
    // Last, so a refused request burns no proof.
    let fresh = false;
    try {
      fresh = (await replay.claim(check.replayKey, check.expiresAt)) === true;
    } catch {
      fresh = false;
    }
    if (!fresh) return refuse(ctx, refusal('dpop_replayed'), 'challenge', 'invalid_dpop_proof');
    return admit(ctx, verified, parts, next);
  };
}

/** Whether a compact JWT's payload has a `cnf` member, read without verifying (only to word a refusal). */
function carriesCnf(token: string): boolean {
  try {
    return decodeJwt(token).cnf !== undefined;
  } catch {
    return false;
  }
}

function admit(ctx: Context, verified: Verified, parts: ChallengeParts, next: () => Promise<unknown>) {
  rememberPrincipal(ctx, verified);
  rememberChallenge(ctx, parts);
  ctx.state.tessera = verified;
  return next();
}

function checkDeps(deps: AuthenticateDeps): {
  verify: AuthenticateDeps['verify'];
  parts: ChallengeParts;
  onRefused: AuthenticateDeps['onRefused'];
  dpop: 'allowed' | 'required' | null;
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
  const { dpop, dpopReplay, dpopNonces } = deps;
  if (dpop !== undefined && dpop !== 'allowed' && dpop !== 'required') {
    throw new TypeError('authenticate: "dpop" must be "allowed" or "required"');
  }
  if (dpopReplay !== undefined && typeof dpopReplay?.claim !== 'function') {
    throw new TypeError('authenticate: "dpopReplay" must have a claim(key, expiresAt) function');
  }
  if (
    dpopNonces !== undefined &&
    (typeof dpopNonces?.current !== 'function' || typeof dpopNonces.check !== 'function')
  ) {
    throw new TypeError('authenticate: "dpopNonces" must have current() and check(nonce) functions');
  }
  if ((dpopReplay !== undefined || dpopNonces !== undefined) && dpop === undefined) {
    throw new TypeError('authenticate: "dpopReplay" and "dpopNonces" need "dpop"');
  }
  return {
    verify: deps.verify,
    parts: { realm: deps.realm, resourceMetadata: resourceMetadata ?? null },
    onRefused: deps.onRefused,
    dpop: dpop ?? null,
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

/** The token of an `Authorization: <scheme> <token>` header (`prefix` lower case, with its space), or `null`. */
function schemeToken(header: string | undefined, prefix: string): string | null {
  if (header === undefined || header.length <= prefix.length) return null;
  if (header.slice(0, prefix.length).toLowerCase() !== prefix) return null;
  const token = header.slice(prefix.length).trim();
  return token.length === 0 || token.includes(' ') ? null : token;
}

async function verifySafely(
  verify: AuthenticateDeps['verify'],
  token: string,
  report: (reason: Refusal) => void,
  proofKey?: string,
): Promise<Verified | null> {
  try {
    const result =
      proofKey === undefined ? await verify(token, report) : await verify(token, report, proofKey);
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
