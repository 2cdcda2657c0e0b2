import { clock } from '../clock.js';
import type { MetadataDocumentFetcher } from './client-metadata-documents.js';

/**
 * The public keys of clients that publish them at a `jwks_uri` (DESIGN §14), fetched through the
 * metadata-document port (https only, the webhook address policy, no redirects, one time limit)
 * and kept in this process's memory for at most CLIENT_KEY_SET_CACHE_MS, less when Cache-Control
 * says so. A key id the kept set lacks fetches it again (the client rotated its keys); concurrent
 * look-ups of one URL share one fetch.
 *
 * Whoever names the client may make a set be looked up (an assertion at /oauth/token, a request
 * object at /oauth/authorize: anonymous, before any signature is checked), so a URL is fetched at
 * most once per CLIENT_KEY_SET_REFETCH_FLOOR_MS whatever happened: a made-up kid, a set the client
 * says not to keep (no-store), or a failed fetch gets what the last fetch gave until the floor has
 * passed, and strangers cannot make this process hammer the client's host. A rotation is seen on
 * the first use of the new key past the floor (the OpenID providers' key sets have the same rule).
 */
export const CLIENT_KEY_SET_REFETCH_FLOOR_MS = 30 * 1000;

/** The longest a fetched key set is kept: short, so a removed key stops working soon. */
export const CLIENT_KEY_SET_CACHE_MS = 5 * 60 * 1000;
/** A key set is larger than a metadata document: 10 RSA-4096 keys fit. */
export const CLIENT_KEY_SET_MAX_BYTES = 16 * 1024;
const MAX_CACHED_SETS = 1000;

export type KeySet = { keys: Record<string, unknown>[] };

/** Where the reason a key set was not used goes (the composition's log): never to the client. */
export type KeySetReport = (jwksUri: string, problem: string) => void;

function parseKeySet(body: string): KeySet | string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'it is not JSON';
  }
  const keys = (json as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return 'it has no "keys" array';
  const usable = keys.filter((k): k is Record<string, unknown> => typeof k === 'object' && k !== null);
  return { keys: usable };
}

export class ClientKeySets {
  readonly #fetcher: MetadataDocumentFetcher;
  readonly #report: KeySetReport;
  /** The last fetch of each URL: when, what it gave (null: failed), and until when it may be used. */
  readonly #cache = new Map<string, { fetchedAt: number; until: number; set: KeySet | null }>();
  readonly #pending = new Map<string, Promise<KeySet | null>>();

  constructor(fetcher: MetadataDocumentFetcher, report: KeySetReport = () => {}) {
    this.#fetcher = fetcher;
    this.#report = report;
  }

  /**
   * The key set at `url`, or null when it cannot be fetched or is not a key set. A kept set
   * without `kid` (when one is named) is fetched again, once, unless the last fetch of `url` was
   * less than the floor ago: then what it gave.
   */
  async keys(url: string, kid: string | undefined): Promise<KeySet | null> {
    const kept = this.#cache.get(url);
    const now = clock.now();
    if (kept) {
      const { set } = kept;
      if (set !== null && kept.until > now && (kid === undefined || set.keys.some((k) => k.kid === kid)))
        return set;
      if (now - kept.fetchedAt < CLIENT_KEY_SET_REFETCH_FLOOR_MS) return set;
    }
    return this.#refetch(url);
  }

  #refetch(url: string): Promise<KeySet | null> {
    const running = this.#pending.get(url);
    if (running) return running;
    const fetching = this.#fetch(url).finally(() => this.#pending.delete(url));
    this.#pending.set(url, fetching);
    return fetching;
  }

  async #fetch(url: string): Promise<KeySet | null> {
    const fetched = await this.#fetcher.fetch(url, CLIENT_KEY_SET_MAX_BYTES);
    const fetchedAt = clock.now();
    if (!fetched.ok) {
      this.#report(url, `could not be fetched: ${fetched.problem}`);
      // A fetch refused because too many run is not this URL's answer: not remembered.
      if (fetched.busy) this.#cache.delete(url);
      else this.#remember(url, { fetchedAt, until: fetchedAt, set: null });
      return null;
    }
    const set = parseKeySet(fetched.body);
    if (typeof set === 'string') {
      this.#report(url, `is not a key set: ${set}`);
      this.#remember(url, { fetchedAt, until: fetchedAt, set: null });
      return null;
    }
    const keepMs =
      fetched.maxAgeSeconds === null
        ? 0
        : Math.min((fetched.maxAgeSeconds ?? Number.POSITIVE_INFINITY) * 1000, CLIENT_KEY_SET_CACHE_MS);
    this.#remember(url, { fetchedAt, until: fetchedAt + keepMs, set });
    return set;
  }

  #remember(url: string, entry: { fetchedAt: number; until: number; set: KeySet | null }): void {
    this.#cache.delete(url);
    if (this.#cache.size >= MAX_CACHED_SETS) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    this.#cache.set(url, entry);
  }
}
