/**
 * How a connection's upstream is reached (DESIGN §17): every call to an OIDC provider (discovery,
 * key set, token, userinfo) goes through this port, which the composition fills with
 * delivery/upstream-fetcher.ts: the outbound address policy checked on the address dialled (the one
 * checked lookup of webhooks, metadata documents and clients' key sets), redirects never followed,
 * UPSTREAM_TIMEOUT_MS per call, UPSTREAM_MAX_BYTES per answer, and at most UPSTREAM_MAX_FETCHES calls
 * at once, UPSTREAM_MAX_FETCHES_PER_HOST to one origin; oidc-upstreams.ts adds
 * UPSTREAM_MAX_FETCHES_PER_ORG for one org's connections. One more is refused at once (UpstreamBusy),
 * never queued: a hanging provider holds a few sockets, not the process.
 */

/** One call's time limit, DNS and TLS included. */
export const UPSTREAM_TIMEOUT_MS = 10_000;
/** The largest answer read: discovery, a key set, a token or userinfo answer all fit many times. */
export const UPSTREAM_MAX_BYTES = 256 * 1024;
/** Upstream calls one process runs at once, to every provider together. */
export const UPSTREAM_MAX_FETCHES = 32;
/**
 * Upstream calls one process runs at once to one origin (one provider, however many orgs use it). An
 * origin, not a host name: `https://accounts.google.com:81/` hanging must not take Google's slots.
 */
export const UPSTREAM_MAX_FETCHES_PER_HOST = 8;
/**
 * Upstream calls one process runs at once for one org's connections, to every provider together: an
 * org whose providers hang (on many origins) holds a quarter of the process's calls, not all of them.
 */
export const UPSTREAM_MAX_FETCHES_PER_ORG = 8;

/** What a call sends: openid-client's `customFetch` options, read by the fetcher. */
export interface UpstreamRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams | Uint8Array | ArrayBuffer | null | undefined | ReadableStream;
  signal?: AbortSignal;
  redirect?: string;
}

/**
 * The port: a `fetch` for upstream calls. It answers the upstream's Response (a redirect is an
 * answer, never followed), or rejects: UpstreamBusy when too many calls run, an Error naming the
 * problem (refused address, DNS, time limit, too large) otherwise.
 */
export type UpstreamFetch = (url: string, request: UpstreamRequest) => Promise<Response>;

/** Too many upstream calls run already (in all, or to this host): refused without trying. */
export class UpstreamBusy extends Error {
  override name = 'UpstreamBusy';
  readonly code = 'ERR_UPSTREAM_BUSY';
}
