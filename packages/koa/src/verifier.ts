import { applyClaimRules, type ClaimRules } from './claims.js';
import { createKeyStore } from './jwks-cache.js';
import { decodeJsonObject, MAX_TOKEN_LENGTH, parseJws, verifyRs256 } from './jws.js';
import { keySetUrl } from './key-set-url.js';
import { type RefusalCode, type RefusalReport, refusal } from './refusal.js';
import { ResultCache } from './result-cache.js';
import type { Verified, Verify } from './types.js';

/**
 * The token types a verifier can accept.
 *
 * @example
 * ```ts
 * const accept: AcceptedTokenType[] = ['user', 'client'];
 * ```
 */
export type AcceptedTokenType = 'user' | 'client';

/**
 * Options of {@link createVerifier}, as in the spec's verification-rules table.
 *
 * @example
 * ```ts
 * const options: VerifierOptions = {
 *   issuer: 'https://acme.example.com/',
 *   clientId: 'cli_web',
 *   accept: ['user', 'client'],
 *   trustedClients: ['cli_billing'],
 * };
 * ```
 */
export interface VerifierOptions {
  /** The exact `iss`, ending in a slash; the key set is read from `${issuer}.well-known/jwks.json`. */
  readonly issuer: string;
  /**
   * The `aud` a user token must carry. Required without `resource`; with one it may be left out, and
   * then a user token of any client of the issuer is accepted when it names the resource.
   */
  readonly clientId?: string;
  /** Token types accepted; default `['user']`. */
  readonly accept?: readonly AcceptedTokenType[];
  /**
   * Client ids whose machine tokens are accepted; read only when `accept` includes `client`. Without
   * `resource`, absent means none. With `resource`, absent means any client whose machine token the
   * issuer bound to the resource (its `aud` is `[client id, resource]`).
   */
  readonly trustedClients?: readonly string[];
  /**
   * This API's resource indicator (RFC 8707; DESIGN §15), e.g. `https://files.example.com/mcp`: `aud`
   * must include it, so a token the issuer minted for another API is refused. Absent: the spec's rules.
   */
  readonly resource?: string;
  /**
   * Development only: the issuer's host (`acme.localhost:4000`). The key set is then read from
   * `localhost` with `?host=` naming the org, because Node does not resolve `*.localhost`; `iss` is still
   * compared with `issuer`. Allowed only when `issuer` is on loopback (`src/loopback.ts`): `localhost`, `*.localhost`,
   * 127.0.0.0/8 or `[::1]`.
   */
  readonly hostOverride?: string;
}

/**
 * Test seams for clocks and transport; not part of the published surface.
 *
 * @example
 * ```ts
 * const runtime: VerifierRuntime = { now: () => fakeNow, cooldownMs: 30_000, cacheSize: 0 };
 * ```
 */
export interface VerifierRuntime {
  readonly fetch?: typeof fetch;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
  readonly ttlMs?: number;
  readonly cooldownMs?: number;
  readonly timeoutMs?: number;
  readonly cacheSize?: number;
}

const KEY_SET_TTL_MS = 10 * 60 * 1000;
const UNKNOWN_KID_COOLDOWN_MS = 30 * 1000;
const KEY_SET_TIMEOUT_MS = 5 * 1000;
const RESULT_CACHE_SIZE = 1000;
const OPTION_NAMES = new Set(['issuer', 'clientId', 'accept', 'trustedClients', 'hostOverride', 'resource']);

/**
 * Creates a verifier for the access tokens of one Tessera issuer. The returned function resolves to the
 * verified token or to `null`, and never throws or rejects; why a token was refused is told only to the
 * optional second argument, a `report` function (`authenticate` passes its `onRefused` that way).
 * Options are checked here, so a misconfiguration is a `TypeError` at start-up rather than a 401 later.
 *
 * @example
 * ```ts
 * import { createVerifier } from '@tessera/koa';
 *
 * const verify = createVerifier({
 *   issuer: 'https://acme.example.com/',
 *   clientId: 'cli_web',
 *   accept: ['user', 'client'],
 *   trustedClients: ['cli_billing'],
 * });
 * const verified = await verify(token); // { kind: 'user', userId, tenantId, claims } | … | null
 * ```
 */
export function createVerifier(options: VerifierOptions): Verify {
  return createVerifierWith(options, {});
}

/**
 * {@link createVerifier} with injectable clock, transport and cache timings, for tests.
 *
 * @example
 * ```ts
 * let now = Date.now();
 * const verify = createVerifierWith({ issuer, clientId }, { now: () => now });
 * now += 11 * 60 * 1000; // the key set is stale now and is fetched again on the next token
 * ```
 */
export function createVerifierWith(options: VerifierOptions, runtime: VerifierRuntime): Verify {
  const rules = checkOptions(options);
  const url = keySetUrl(rules.issuer, options.hostOverride);
  const now = runtime.now ?? Date.now;
  const keys = createKeyStore({
    url,
    fetch: runtime.fetch ?? globalThis.fetch,
    now,
    ttlMs: runtime.ttlMs ?? KEY_SET_TTL_MS,
    cooldownMs: runtime.cooldownMs ?? UNKNOWN_KID_COOLDOWN_MS,
    timeoutMs: runtime.timeoutMs ?? KEY_SET_TIMEOUT_MS,
  });
  const results = new ResultCache(runtime.cacheSize ?? RESULT_CACHE_SIZE);

  return async function verify(token: unknown, report?: RefusalReport, proofKey?: string) {
    const no = (code: RefusalCode): null => {
      try {
        report?.(refusal(code));
      } catch {
        // The application's reporter failing changes nothing about the answer.
      }
      return null;
    };
    try {
      if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return no('malformed_token');

      const cached = results.get(token);
      if (cached !== undefined) {
        if (now() / 1000 < cached.exp && keys.peek(cached.kid) === cached.key) {
          const refusedBinding = bindingRefusal(cached.verified, proofKey);
          return refusedBinding === null ? cached.verified : no(refusedBinding);
        }
        results.delete(token);
      }

      const jws = parseJws(token);
      if (jws === null) return no('malformed_token');
      const key = await keys.get(jws.kid);
      if (key === undefined) return no('unknown_key');
      if (!(await verifyRs256(jws, key))) return no('bad_signature');
      // The payload is parsed only once its signature holds: unauthenticated JSON is never looked at.
      const payload = decodeJsonObject(jws.encodedPayload);
      if (payload === null) return no('malformed_token');
      const verified = applyClaimRules(payload, rules, now() / 1000, (reason) => no(reason.code));
      if (verified === null) return null;

      results.set(token, { verified, exp: verified.claims.exp, kid: jws.kid, key });
      const refusedBinding = bindingRefusal(verified, proofKey);
      return refusedBinding === null ? verified : no(refusedBinding);
    } catch {
      return no('verify_refused');
    }
  };
}

/**
 * A token's sender constraint (RFC 9449 §6, RFC 7800 `cnf`) against the key the request proved: a
 * bound token needs a proof of its `cnf.jkt`; without a proof any `cnf` is refused like a malformed
 * claim (this verifier cannot check another kind of binding); a proof with an unbound token is refused.
 */
export function bindingRefusal(verified: Verified, proofKey: string | undefined): RefusalCode | null {
  const cnf = verified.claims.cnf;
  if (cnf === undefined) return proofKey === undefined ? null : 'dpop_token_not_bound';
  if (proofKey === undefined) return 'malformed_claims';
  const jkt = typeof cnf === 'object' && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  if (typeof jkt !== 'string') return 'malformed_claims';
  return jkt === proofKey ? null : 'dpop_key_mismatch';
}

function checkOptions(options: VerifierOptions): ClaimRules {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createVerifier: options must be an object');
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) throw new TypeError(`createVerifier: unknown option "${name}"`);
  }
  const { issuer, clientId, accept = ['user'], resource } = options;
  if (typeof issuer !== 'string' || !isIssuerUrl(issuer)) {
    throw new TypeError('createVerifier: "issuer" must be an absolute http(s) URL ending in "/"');
  }
  if (resource !== undefined && !isResourceIndicator(resource)) {
    throw new TypeError('createVerifier: "resource" must be an absolute URL without a fragment');
  }
  if (
    !(clientId === undefined && resource !== undefined) &&
    (typeof clientId !== 'string' || clientId.length === 0)
  ) {
    throw new TypeError('createVerifier: "clientId" must be a non-empty string');
  }
  // Without a resource, an absent list trusts nobody (the spec); with one, the issuer's binding decides.
  const trustedClients = options.trustedClients ?? (resource === undefined ? [] : null);
  if (
    !Array.isArray(accept) ||
    accept.length === 0 ||
    !accept.every((type: unknown) => type === 'user' || type === 'client')
  ) {
    throw new TypeError('createVerifier: "accept" must be a non-empty array of "user" and/or "client"');
  }
  const acceptClient = accept.includes('client');
  // The spec reads trustedClients only when machine tokens are accepted; otherwise it is ignored.
  if (
    acceptClient &&
    trustedClients !== null &&
    !(
      Array.isArray(trustedClients) &&
      trustedClients.every((id: unknown) => typeof id === 'string' && id.length > 0)
    )
  ) {
    throw new TypeError('createVerifier: "trustedClients" must be an array of client id strings');
  }
  return Object.freeze({
    issuer,
    clientId: clientId ?? null,
    acceptUser: accept.includes('user'),
    acceptClient,
    trustedClients: trustedClients === null ? null : new Set(acceptClient ? trustedClients : []),
    resource: resource ?? null,
  });
}

/** RFC 8707 §2: an absolute URI without a fragment. */
function isResourceIndicator(resource: unknown): resource is string {
  if (typeof resource !== 'string' || resource.length === 0 || resource.includes('#')) return false;
  try {
    new URL(resource);
    return true;
  } catch {
    return false;
  }
}

function isIssuerUrl(issuer: string): boolean {
  if (!issuer.endsWith('/')) return false;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  const plain = url.username === '' && url.password === '' && url.search === '' && url.hash === '';
  return (url.protocol === 'https:' || url.protocol === 'http:') && plain;
}
