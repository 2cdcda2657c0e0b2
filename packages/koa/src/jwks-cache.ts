import { createPublicKey, type KeyObject } from 'node:crypto';
import { readCapped } from './read-capped.js';

/**
 * The issuer's key set, fetched from one fixed URL and cached.
 *
 * - A fetched set is used for `ttlMs` (ten minutes); after that it is fetched again before use.
 * - A `kid` missing from a fresh set refetches, but at most once per `cooldownMs` (30 s): a flood of
 *   tokens with made-up `kid`s costs the issuer one request, not one per token.
 * - Concurrent callers that need a fetch share the one in flight.
 * - A failed fetch (network error, timeout, redirect, non-200, oversized or malformed body) fails closed:
 *   no key, so no token verifies, until a fetch succeeds. The next attempt is allowed once the cooldown
 *   has passed since the failed one, so an outage cannot turn into a fetch per request.
 */

/**
 * Timing and transport of a key store; the defaults are what `createVerifier` uses.
 *
 * @example
 * ```ts
 * const options: KeyStoreOptions = {
 *   url: 'https://acme.example.com/.well-known/jwks.json',
 *   fetch, now: Date.now, ttlMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000,
 * };
 * ```
 */
export interface KeyStoreOptions {
  readonly url: string;
  readonly fetch: typeof fetch;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly ttlMs: number;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
}

/**
 * Reads keys by `kid`; see {@link createKeyStore}.
 *
 * @example
 * ```ts
 * const key = keys.peek(kid) ?? (await keys.get(kid));
 * ```
 */
export interface KeyStore {
  /** The key for `kid` from a set that is still fresh, without fetching; `undefined` otherwise. */
  peek(kid: string): KeyObject | undefined;
  /** The key for `kid`, fetching the set when it is stale or lacks `kid` (subject to the cooldown). */
  get(kid: string): Promise<KeyObject | undefined>;
}

interface KeyEntry {
  readonly key: KeyObject;
  readonly n: string;
  readonly e: string;
}

/** A JWKS larger than this is treated as an outage rather than read into memory. */
const MAX_JWKS_BYTES = 256 * 1024;
const MIN_MODULUS_BITS = 2048;

/**
 * Creates a key store for one JWKS URL.
 *
 * @example
 * ```ts
 * const keys = createKeyStore({
 *   url: 'https://acme.example.com/.well-known/jwks.json',
 *   fetch, now: Date.now, ttlMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000,
 * });
 * const key = await keys.get(kid); // undefined: unknown kid or key set unavailable
 * ```
 */
export function createKeyStore(options: KeyStoreOptions): KeyStore {
  let keys: ReadonlyMap<string, KeyEntry> | null = null;
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  let inflight: Promise<void> | null = null;

  const isFresh = (now: number) => keys !== null && now - fetchedAt < options.ttlMs;

  function peek(kid: string): KeyObject | undefined {
    return isFresh(options.now()) ? keys?.get(kid)?.key : undefined;
  }

  function refresh(): Promise<void> {
    attemptedAt = options.now();
    const started = load(options, keys).then(
      (loaded) => {
        keys = loaded;
        fetchedAt = options.now();
      },
      // Failing closed is the caller seeing no key; the old set stays only for the rest of its ttl.
      () => undefined,
    );
    inflight = started.finally(() => {
      inflight = null;
    });
    return inflight;
  }

  async function get(kid: string): Promise<KeyObject | undefined> {
    const now = options.now();
    if (isFresh(now)) {
      const entry = keys?.get(kid);
      if (entry !== undefined) return entry.key;
    }
    let pending = inflight;
    if (pending === null) {
      if (now - attemptedAt < options.cooldownMs) return undefined;
      pending = refresh();
    }
    await pending;
    return peek(kid);
  }

  return { peek, get };
}

async function load(
  options: KeyStoreOptions,
  previous: ReadonlyMap<string, KeyEntry> | null,
): Promise<ReadonlyMap<string, KeyEntry>> {
  const response = await options.fetch(options.url, {
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`key set request answered ${response.status}`);
  }
  const body = await readCapped(response, MAX_JWKS_BYTES);
  const document: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  const list =
    typeof document === 'object' && document !== null ? (document as { keys?: unknown }).keys : null;
  if (!Array.isArray(list)) throw new Error('key set has no "keys" array');
  return importKeys(list, previous);
}

/**
 * Keeps the RSA signing keys that could verify an RS256 token; anything else in the set is skipped, and a
 * `kid` that appears twice is dropped entirely because the token could not say which key it means. A key
 * whose modulus and exponent did not change keeps its KeyObject, so results cached against it stay valid.
 */
function importKeys(
  list: readonly unknown[],
  previous: ReadonlyMap<string, KeyEntry> | null,
): ReadonlyMap<string, KeyEntry> {
  const imported = new Map<string, KeyEntry>();
  const duplicated = new Set<string>();
  for (const item of list) {
    const entry = usableKey(item, previous);
    if (entry === null) continue;
    if (imported.has(entry.kid)) duplicated.add(entry.kid);
    imported.set(entry.kid, entry.value);
  }
  for (const kid of duplicated) imported.delete(kid);
  return imported;
}

function usableKey(
  item: unknown,
  previous: ReadonlyMap<string, KeyEntry> | null,
): { kid: string; value: KeyEntry } | null {
  if (typeof item !== 'object' || item === null) return null;
  const jwk = item as Record<string, unknown>;
  const { kid, kty, n, e, use, alg, key_ops: ops } = jwk;
  if (typeof kid !== 'string' || kid.length === 0 || kty !== 'RSA') return null;
  if (typeof n !== 'string' || typeof e !== 'string') return null;
  if (use !== undefined && use !== 'sig') return null;
  if (alg !== undefined && alg !== 'RS256') return null;
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify'))) return null;

  const known = previous?.get(kid);
  if (known !== undefined && known.n === n && known.e === e) return { kid, value: known };
  try {
    const key = createPublicKey({ key: { kty: 'RSA', n, e }, format: 'jwk' });
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    return bits >= MIN_MODULUS_BITS ? { kid, value: { key, n, e } } : null;
  } catch {
    return null;
  }
}
