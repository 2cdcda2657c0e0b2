import { clock } from './clock.js';

/**
 * How long a node may keep what it read about a client (the row, its secret hash, its org's active
 * key id) when no change notification reaches it: the bound on staleness if a NOTIFY is lost or
 * late. Normally the notification, sent at commit, empties the cache long before (see
 * docs/token-endpoint.md).
 */
export const CREDENTIALS_MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 10_000;

/**
 * What the client_credentials grant reads per request, kept in memory so a token costs no
 * database query. On PostgreSQL it is correct across nodes because every change to `clients` or
 * `signing_keys` sends a NOTIFY at commit (migration 008): `changed()` empties the cache, and
 * while the listener is not connected (`live(false)`) nothing is cached or served from it. On
 * SQLite an entry is served only while no commit has changed clients, signing keys or organizations
 * since it was read (migration 030).
 * Only clients that exist are kept: an unknown id is always looked up, so an attacker cannot
 * fill the cache and a client created a moment ago is found at once. The token endpoint's orgs
 * are kept by the same rule (directory/org-cache.ts).
 */
export class CredentialCache<T> {
  readonly #entries = new Map<string, { value: T; at: number; version: number }>();
  readonly #version: () => number;
  #generation = 0;
  #live = false;

  /**
   * `version` (SQLite): a counter that changes at every commit to clients, signing keys or
   * organizations, by any connection.
   * With it the cache needs no listener: an entry is served only while the counter is unchanged
   * since it was read, and the cache is live from the start.
   */
  constructor(version?: () => number) {
    this.#version = version ?? (() => 0);
    this.#live = version !== undefined;
  }

  /** Counts the changes seen (notifications, listener loss/return); for tests that wait for one. */
  get generation(): number {
    return this.#generation;
  }

  changed(): void {
    this.#generation++;
    this.#entries.clear();
  }

  live(isLive: boolean): void {
    this.#live = isLive;
    // Whatever happened while the listener was away is unknown: start over either way.
    this.changed();
  }

  /**
   * The cached value of `key`, or `read()`'s. A value read while a change arrived is not kept:
   * it may predate the change.
   */
  async get(key: string, read: () => Promise<T | null>): Promise<T | null> {
    if (!this.#live) return read();
    const hit = this.#entries.get(key);
    const version = this.#version();
    if (hit && hit.version === version && clock.now() - hit.at < CREDENTIALS_MAX_AGE_MS) return hit.value;
    const generation = this.#generation;
    const at = clock.now();
    const value = await read();
    if (value !== null && this.#live && generation === this.#generation) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(key, { value, at, version });
    }
    return value;
  }
}

/**
 * An org's list as kept by a change-notified cache when the runtime keeps one (`cache`), else as
 * `read` finds it stored now. An org whose read finds nothing is an empty list either way.
 */
export async function orgListThrough<T>(
  cache: CredentialCache<readonly T[]> | undefined,
  orgId: string,
  read: () => Promise<readonly T[]>,
): Promise<readonly T[]> {
  return cache ? ((await cache.get(orgId, read)) ?? []) : read();
}
