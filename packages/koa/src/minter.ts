import { decodeJwt } from 'jose';
import { checkHostOverride } from './key-set-url.js';
import { isLoopbackHost } from './loopback.js';
import { TokenMinterError } from './minter-error.js';
import { readCapped } from './read-capped.js';

/**
 * Options of {@link createTokenMinter}.
 *
 * @example
 * ```ts
 * const options: TokenMinterOptions = {
 *   api: 'https://acme.auth.example.com', // the org's host: Tessera picks the org by Host
 *   issuer: 'https://acme.auth.example.com/',
 *   clientId: 'cli_billing',
 *   clientSecret: process.env.BILLING_CLIENT_SECRET ?? '',
 * };
 * ```
 */
export interface TokenMinterOptions {
  /** The org's address on Tessera (its issuer's origin); tokens are requested from `${api}/oauth/token`. */
  readonly api: string;
  /** The issuer the minted tokens must name in `iss`. */
  readonly issuer: string;
  readonly clientId: string;
  /** Sent only in the body of the token request (client_secret_post). */
  readonly clientSecret: string;
  /** Development only: the org's host, sent as `?host=`; allowed only when `api` is a loopback URL. */
  readonly hostOverride?: string;
}

/**
 * A machine-token source for one confidential client.
 *
 * @example
 * ```ts
 * const headers = { authorization: `Bearer ${await minter.token()}` };
 * ```
 */
export interface TokenMinter {
  /** A live token; minted on first call and whenever the cached one is within 10 s of `exp`. */
  token(): Promise<string>;
  /** Drops the cached token and mints another; call it once when the downstream answered 401. */
  fresh(): Promise<string>;
}

/**
 * Test seams for clock and transport; not part of the published surface.
 *
 * @example
 * ```ts
 * const runtime: TokenMinterRuntime = { now: () => fakeNow, timeoutMs: 1_000 };
 * ```
 */
export interface TokenMinterRuntime {
  readonly fetch?: typeof fetch;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
  readonly timeoutMs?: number;
}

interface MintedToken {
  readonly value: string;
  /** When `token()` stops handing this one out: 10 s before it expires. */
  readonly renewAt: number;
}

const RENEW_BEFORE_EXP_MS = 10 * 1000;
const REQUEST_TIMEOUT_MS = 10 * 1000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Creates a minter of client-credentials tokens for a confidential client. Concurrent callers share one
 * token request; a failed request rejects everyone waiting on it and leaves nothing cached, so the next
 * call tries again. Options are checked here: a missing one, or `hostOverride` with a non-loopback `api`,
 * is a `TypeError` at start-up.
 *
 * @example
 * ```ts
 * import { createTokenMinter } from '@tessera/koa';
 *
 * const minter = createTokenMinter({
 *   api: 'https://acme.auth.example.com', // the org's host: Tessera picks the org by Host
 *   issuer: 'https://acme.auth.example.com/',
 *   clientId: 'cli_billing',
 *   clientSecret: process.env.BILLING_CLIENT_SECRET ?? '',
 * });
 * let response = await fetch(url, { headers: { authorization: `Bearer ${await minter.token()}` } });
 * if (response.status === 401) {
 *   response = await fetch(url, { headers: { authorization: `Bearer ${await minter.fresh()}` } });
 * }
 * ```
 */
export function createTokenMinter(options: TokenMinterOptions): TokenMinter {
  return createTokenMinterWith(options, {});
}

/**
 * {@link createTokenMinter} with an injectable clock and transport, for tests.
 *
 * @example
 * ```ts
 * let now = Date.now();
 * const minter = createTokenMinterWith(options, { now: () => now });
 * ```
 */
export function createTokenMinterWith(options: TokenMinterOptions, runtime: TokenMinterRuntime): TokenMinter {
  const { endpoint, issuer, clientId, clientSecret } = checkOptions(options);
  const now = runtime.now ?? Date.now;
  const request = runtime.fetch ?? globalThis.fetch;
  const timeoutMs = runtime.timeoutMs ?? REQUEST_TIMEOUT_MS;
  let cached: MintedToken | null = null;
  let inflight: Promise<string> | null = null;

  async function mint(): Promise<MintedToken> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    let response: Response;
    try {
      // Never follow a redirect: it would replay the body, and so the secret, to another address.
      response = await request(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const cause = new Error(describe(err));
      throw new TokenMinterError('token request failed: no answer from the endpoint', null, 'network_error', {
        cause,
      });
    }
    const answer = await readCapped(response, MAX_RESPONSE_BYTES).catch(() => Buffer.alloc(0));
    const json = parseJson(answer.toString('utf8'));
    if (response.status < 200 || response.status > 299) {
      const code = oauthErrorCode(json, clientSecret) ?? 'http_error';
      throw new TokenMinterError(
        `token request failed: HTTP ${response.status} (${code})`,
        response.status,
        code,
      );
    }
    return readToken(json, response.status, issuer, now());
  }

  function start(): Promise<string> {
    const pending = mint().then((minted) => {
      cached = minted;
      return minted.value;
    });
    inflight = pending;
    const settle = () => {
      if (inflight === pending) inflight = null;
    };
    pending.then(settle, settle);
    return pending;
  }

  return Object.freeze({
    token(): Promise<string> {
      if (cached !== null && now() < cached.renewAt) return Promise.resolve(cached.value);
      return inflight ?? start();
    },
    fresh(): Promise<string> {
      cached = null;
      // A mint in flight yields a token no caller holds yet, so it is as fresh as a new one.
      return inflight ?? start();
    },
  });
}

function readToken(json: unknown, status: number, issuer: string, now: number): MintedToken {
  const invalid = (code: 'invalid_response' | 'invalid_issuer', why: string) =>
    new TokenMinterError(`token response unusable: ${why}`, status, code);
  const fields = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const { access_token: value, token_type: type, expires_in: expiresIn } = fields;
  if (typeof value !== 'string' || value.length === 0) throw invalid('invalid_response', 'no access_token');
  if (type !== undefined && (typeof type !== 'string' || type.toLowerCase() !== 'bearer')) {
    throw invalid('invalid_response', 'token_type is not Bearer');
  }
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(value);
  } catch {
    throw invalid('invalid_response', 'access_token is not a JWT');
  }
  if (claims.iss !== issuer) throw invalid('invalid_issuer', 'the token was issued by another issuer');
  let expiresAt: number;
  if (typeof claims.exp === 'number' && Number.isFinite(claims.exp)) expiresAt = claims.exp * 1000;
  else if (typeof expiresIn === 'number' && Number.isFinite(expiresIn)) expiresAt = now + expiresIn * 1000;
  else throw invalid('invalid_response', 'no exp claim and no expires_in');
  return { value, renewAt: expiresAt - RENEW_BEFORE_EXP_MS };
}

/** The OAuth `error` of an error body, unless it is odd enough that it might be echoed input. */
function oauthErrorCode(json: unknown, secret: string): string | null {
  const code = typeof json === 'object' && json !== null ? (json as { error?: unknown }).error : undefined;
  if (typeof code !== 'string' || !/^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(code)) return null;
  return code.includes(secret) ? null : code;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A cause for network failures that names the failure (refused, timed out) and nothing sent. */
function describe(err: unknown): string {
  const inner = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  if (inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    return typeof code === 'string' ? `${inner.name}: ${code}` : inner.name;
  }
  return 'unknown failure';
}

function checkOptions(options: TokenMinterOptions) {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createTokenMinter: options must be an object');
  }
  const { api, issuer, clientId, clientSecret, hostOverride } = options;
  const apiUrl = typeof api === 'string' ? parseHttpUrl(api) : null;
  const plain = apiUrl !== null && apiUrl.username === '' && apiUrl.password === '';
  if (apiUrl === null || !plain || apiUrl.search !== '' || apiUrl.hash !== '') {
    throw new TypeError(
      'createTokenMinter: "api" must be an absolute http(s) URL without query or credentials',
    );
  }
  if (typeof issuer !== 'string' || !issuer.endsWith('/') || parseHttpUrl(issuer) === null) {
    throw new TypeError('createTokenMinter: "issuer" must be an absolute http(s) URL ending in "/"');
  }
  if (typeof clientId !== 'string' || clientId.length === 0) {
    throw new TypeError('createTokenMinter: "clientId" must be a non-empty string');
  }
  if (typeof clientSecret !== 'string' || clientSecret.length === 0) {
    throw new TypeError('createTokenMinter: "clientSecret" must be a non-empty string');
  }
  const endpoint = new URL(`${apiUrl.pathname.replace(/\/+$/, '')}/oauth/token`, apiUrl);
  if (hostOverride !== undefined) {
    const host = checkHostOverride('createTokenMinter', hostOverride);
    if (!isLoopbackHost(apiUrl.hostname)) {
      throw new TypeError('createTokenMinter: "hostOverride" is allowed only when "api" is a loopback URL');
    }
    endpoint.searchParams.set('host', host);
  }
  return { endpoint: endpoint.href, issuer, clientId, clientSecret };
}

function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}
