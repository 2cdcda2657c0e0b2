import { CallsInFlight } from '../calls-in-flight.js';
import { clock } from '../clock.js';
import type { Connection } from '../types.js';
import { discoveredEndpointsProblem, keptDiscovery } from './upstream-endpoints.js';
import {
  UPSTREAM_MAX_FETCHES_PER_ORG,
  UpstreamBusy,
  type UpstreamFetch,
  type UpstreamRequest,
} from './upstream-fetch.js';

/**
 * What this process knows of its connections' OpenID providers (DESIGN §17): each connection's
 * discovery document and key set, fetched through the upstream port (upstream-fetch.ts) and kept in
 * memory, so an anonymous `/sso/{con}/start` costs no upstream call once the provider is known.
 *
 * - A document is kept UPSTREAM_DISCOVERY_CACHE_MS, a key set UPSTREAM_KEY_SET_CACHE_MS. An ID token
 *   signed with a key the kept set lacks makes the set be fetched again, once, and not sooner than
 *   UPSTREAM_KEY_SET_REFETCH_FLOOR_MS after the last fetch (a provider rotating its keys is seen at
 *   once; tokens naming made-up keys cannot make this process hammer the provider).
 * - What is kept belongs to one version of the connection (its id and `updatedAt`): a change made on
 *   any node (a new issuer, secret or allowed host) is a new version, so the next sign-in on every
 *   node fetches afresh; nothing needs to be told.
 * - A failed discovery is remembered UPSTREAM_FAILURE_CACHE_MS, so a burst of starts against a
 *   provider that is down or hangs costs one call, not one per start; concurrent look-ups of one
 *   connection share one call. A call refused because too many run (UpstreamBusy) is not remembered.
 */

/** How long a discovery document is kept. */
export const UPSTREAM_DISCOVERY_CACHE_MS = 10 * 60 * 1000;
/** How long a key set is kept. */
export const UPSTREAM_KEY_SET_CACHE_MS = 5 * 60 * 1000;
/** The soonest a kept key set is fetched again for a key it lacks. */
export const UPSTREAM_KEY_SET_REFETCH_FLOOR_MS = 30 * 1000;
/** How long a failed discovery is remembered. */
export const UPSTREAM_FAILURE_CACHE_MS = 10 * 1000;
/** Connections whose documents one process keeps at most; the oldest entry goes first. */
const MAX_KEPT = 1000;

type OidcConnection = Extract<Connection, { type: 'oidc' }>;

/** Why an upstream cannot be used now: `busy` (try again in a moment), `unreachable`, or `refused`. */
export class UpstreamUnusable extends Error {
  override name = 'UpstreamUnusable';
  constructor(
    readonly kind: 'busy' | 'unreachable' | 'refused',
    /** For the log only: what was wrong. */
    readonly problem: string,
  ) {
    super(problem);
  }
}

/** Where why an upstream was not used goes (the composition's log), never to the person. */
export type UpstreamReport = (connectionId: string, problem: string) => void;

export interface OidcUpstreamsOptions {
  /** How long a discovery document is kept (default UPSTREAM_DISCOVERY_CACHE_MS; 0: never). */
  discoveryCacheMs?: number;
  /** Upstream calls at once for one org's connections (default UPSTREAM_MAX_FETCHES_PER_ORG, 8). */
  maxFetchesPerOrg?: number;
}

type Kept<T> = { version: string; until: number; value: T };
type KeySet = { keys: Record<string, unknown>[] };

const versionOf = (c: OidcConnection) => `${c.id}@${c.updatedAt}`;

export class OidcUpstreams {
  readonly #fetch: UpstreamFetch;
  readonly #report: UpstreamReport;
  readonly #discoveryCacheMs: number;
  readonly #maxPerOrg: number;
  readonly #inFlightPerOrg = new CallsInFlight();
  readonly #documents = new Map<string, Kept<Record<string, unknown> | UpstreamUnusable>>();
  readonly #keySets = new Map<string, Kept<KeySet> & { url: string; fetchedAt: number }>();
  readonly #pending = new Map<string, Promise<unknown>>();

  constructor(
    upstreamFetch: UpstreamFetch,
    report: UpstreamReport = () => {},
    options: OidcUpstreamsOptions = {},
  ) {
    this.#fetch = upstreamFetch;
    this.#report = report;
    this.#discoveryCacheMs = options.discoveryCacheMs ?? UPSTREAM_DISCOVERY_CACHE_MS;
    this.#maxPerOrg = options.maxFetchesPerOrg ?? UPSTREAM_MAX_FETCHES_PER_ORG;
  }

  /**
   * One call of the connection's to its provider through the port (token and userinfo; discovery and
   * key sets are fetched with it too), counted against the org's cap: one more is refused
   * (UpstreamBusy).
   */
  async call(c: OidcConnection, url: string, request: UpstreamRequest): Promise<Response> {
    return this.#callFor(c.orgId, url, request);
  }

  /**
   * A provider not yet saved, for an owner's "Test connection": its discovery document fetched now
   * (never kept, never taken from what is kept), checked as a sign-in checks it, and answered with
   * its endpoints kept. One call, counted against the org's cap like its connections' calls. Throws
   * UpstreamUnusable naming what is wrong.
   */
  async probe(
    orgId: string,
    issuer: string,
    allowedHosts: readonly string[],
  ): Promise<Record<string, unknown>> {
    try {
      return await this.#discoverAt(orgId, issuer, allowedHosts);
    } catch (error) {
      if (error instanceof UpstreamUnusable) throw error;
      if (error instanceof UpstreamBusy) throw new UpstreamUnusable('busy', error.message);
      throw new UpstreamUnusable(
        'unreachable',
        `the discovery call failed: ${(error as Error).message || 'no answer'}`,
      );
    }
  }

  async #callFor(orgId: string, url: string, request: UpstreamRequest): Promise<Response> {
    return this.#inFlightPerOrg.run(
      orgId,
      // Only the per-org cap here: the port (UpstreamFetcher) holds the process-wide one.
      { max: Number.POSITIVE_INFINITY, maxPerKey: this.#maxPerOrg },
      () => this.#fetch(url, request),
      () => {
        throw new UpstreamBusy(`${this.#maxPerOrg} upstream calls of this org's connections already running`);
      },
    );
  }

  /**
   * The connection's discovery document, its endpoints checked (upstream-endpoints.ts) and those
   * Tessera does not use dropped. Throws UpstreamUnusable.
   */
  async discovery(c: OidcConnection): Promise<Record<string, unknown>> {
    const version = versionOf(c);
    const kept = this.#documents.get(c.id);
    if (kept && kept.version === version && kept.until > clock.now()) {
      if (kept.value instanceof UpstreamUnusable) throw kept.value;
      return kept.value;
    }
    return this.#once(`discovery ${version}`, async () => {
      try {
        const doc = await this.#discover(c);
        this.#keep(this.#documents, c.id, {
          version,
          until: clock.now() + this.#discoveryCacheMs,
          value: doc,
        });
        return doc;
      } catch (error) {
        const unusable = this.#unusable(c, error);
        if (unusable.kind !== 'busy') {
          this.#keep(this.#documents, c.id, {
            version,
            until: clock.now() + UPSTREAM_FAILURE_CACHE_MS,
            value: unusable,
          });
        } else this.#documents.delete(c.id);
        throw unusable;
      }
    });
  }

  /**
   * The key set at `url` (the checked `jwks_uri`): the kept one, unless `refresh` (a key was not in
   * it) and the floor has passed. Throws UpstreamUnusable.
   */
  async keySet(c: OidcConnection, url: string, refresh: boolean): Promise<KeySet> {
    const version = versionOf(c);
    const kept = this.#keySets.get(c.id);
    const now = clock.now();
    if (kept && kept.version === version && kept.url === url && kept.until > now) {
      if (!refresh || now - kept.fetchedAt < UPSTREAM_KEY_SET_REFETCH_FLOOR_MS) return kept.value;
    }
    return this.#once(`keys ${version} ${url}`, async () => {
      try {
        const set = await this.#fetchKeySet(c, url);
        const at = clock.now();
        this.#keep(this.#keySets, c.id, {
          version,
          url,
          fetchedAt: at,
          until: at + UPSTREAM_KEY_SET_CACHE_MS,
          value: set,
        });
        return set;
      } catch (error) {
        throw this.#unusable(c, error);
      }
    });
  }

  /**
   * Before an ID token signed with key `kid` is checked: when the kept set at `url` lacks it, the set
   * is fetched again (keySet with `refresh`: once, not under the floor). A failure is left for the
   * check to meet. Nothing is fetched when no set is kept: the check fetches it.
   */
  async followKey(c: OidcConnection, url: string, kid: string): Promise<void> {
    const kept = this.#keySets.get(c.id);
    const fresh = kept && kept.version === versionOf(c) && kept.url === url && kept.until > clock.now();
    if (!fresh || kept.value.keys.some((k) => k.kid === kid)) return;
    await this.keySet(c, url, true).catch(() => {});
  }

  /** Says why a connection's upstream was not used, to the composition's log. */
  report(connectionId: string, problem: string): void {
    this.#report(connectionId, problem);
  }

  /** Concurrent callers of one `key` share one call. */
  #once<T>(key: string, run: () => Promise<T>): Promise<T> {
    const running = this.#pending.get(key);
    if (running) return running as Promise<T>;
    const started = run().finally(() => this.#pending.delete(key));
    this.#pending.set(key, started);
    return started;
  }

  #keep<T>(map: Map<string, T>, id: string, entry: T): void {
    map.delete(id);
    if (map.size >= MAX_KEPT) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
    map.set(id, entry);
  }

  #unusable(c: OidcConnection, error: unknown): UpstreamUnusable {
    const unusable =
      error instanceof UpstreamUnusable
        ? error
        : error instanceof UpstreamBusy
          ? new UpstreamUnusable('busy', error.message)
          : new UpstreamUnusable('unreachable', (error as Error).message || 'the call failed');
    this.#report(c.id, unusable.problem);
    return unusable;
  }

  #discover(c: OidcConnection): Promise<Record<string, unknown>> {
    return this.#discoverAt(c.orgId, c.oidc.issuer, c.oidc.allowedEndpointHosts ?? []);
  }

  async #discoverAt(
    orgId: string,
    issuer: string,
    allowedHosts: readonly string[],
  ): Promise<Record<string, unknown>> {
    const url = new URL(issuer);
    // RFC 8414 §3 / OIDC Discovery §4: the well-known path is appended to the issuer's.
    url.pathname = `${url.pathname.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const doc = await this.#getJson(orgId, url.href, 'application/json', 'discovery');
    if (typeof doc.issuer !== 'string' || !sameUrl(doc.issuer, issuer))
      throw new UpstreamUnusable('unreachable', 'the discovery document names another issuer');
    const problem = discoveredEndpointsProblem(issuer, allowedHosts, doc);
    if (problem !== null) throw new UpstreamUnusable('refused', problem);
    return keptDiscovery(doc);
  }

  async #fetchKeySet(c: OidcConnection, url: string): Promise<KeySet> {
    const body = await this.#getJson(c.orgId, url, 'application/json, application/jwk-set+json', 'key set');
    if (!Array.isArray(body.keys))
      throw new UpstreamUnusable('unreachable', 'the key set has no "keys" array');
    const keys = body.keys.filter((k): k is Record<string, unknown> => typeof k === 'object' && k !== null);
    return { keys };
  }

  async #getJson(orgId: string, url: string, accept: string, what: string): Promise<Record<string, unknown>> {
    const res = await this.#callFor(orgId, url, { method: 'GET', headers: { accept } });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new UpstreamUnusable('unreachable', `the ${what} answered HTTP ${res.status}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(await res.text());
    } catch {
      throw new UpstreamUnusable('unreachable', `the ${what} is not JSON`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new UpstreamUnusable('unreachable', `the ${what} is not a JSON object`);
    return json as Record<string, unknown>;
  }
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}
