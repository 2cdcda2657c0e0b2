import type { KeyObject } from 'node:crypto';
import type { Verified } from './types.js';

/**
 * A bounded cache of verified results, keyed by the exact token text.
 *
 * The same bytes under the same key always verify the same way, so an API that sees one token many
 * times (every request of a session carries it for up to 15 minutes) pays the RSA check once. A hit is
 * only an answer while the token's `exp` is still in the future and the key that verified it is still in
 * the issuer's current key set; otherwise the token goes through full verification again. Failures are
 * never cached, so a flood of forged tokens cannot push out the good ones.
 */

/**
 * One cached verification: the result, and what decides whether it may still be returned.
 *
 * @example
 * ```ts
 * const entry: CachedResult = { verified, exp: verified.claims.exp, kid: jws.kid, key };
 * ```
 */
export interface CachedResult {
  readonly verified: Verified;
  readonly exp: number;
  readonly kid: string;
  readonly key: KeyObject;
}

/**
 * A least-recently-used map from token to result, holding at most `capacity` entries. With tokens capped
 * at 8 KiB, the default capacity of 1,000 bounds it at about 8 MiB.
 *
 * @example
 * ```ts
 * const cache = new ResultCache(1000);
 * cache.set(token, { verified, exp, kid, key });
 * cache.get(token)?.verified;
 * ```
 */
export class ResultCache {
  readonly #capacity: number;
  readonly #entries = new Map<string, CachedResult>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get(token: string): CachedResult | undefined {
    const entry = this.#entries.get(token);
    if (entry !== undefined) {
      // Map iteration order is insertion order: re-inserting marks the entry as most recently used.
      this.#entries.delete(token);
      this.#entries.set(token, entry);
    }
    return entry;
  }

  set(token: string, entry: CachedResult): void {
    if (this.#capacity <= 0) return;
    this.#entries.delete(token);
    this.#entries.set(token, entry);
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }

  delete(token: string): void {
    this.#entries.delete(token);
  }
}
