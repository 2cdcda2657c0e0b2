import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent, request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext } from 'node:tls';
import { isLoopbackRedirectHost } from '../domain/directory/index.js';
import { checkAddress, checkedLookup, type Resolver, systemResolver } from './checked-lookup.js';

export interface SenderOptions {
  /** TESSERA_OUTBOUND_ALLOW_PRIVATE: lets deliveries reach loopback and private addresses. */
  allowPrivate: boolean;
  /** Whole-attempt limit, DNS and TLS included (DESIGN §6: 15 s). */
  timeoutMs?: number;
  /** Kept-alive connections per origin, busy or idle (default 32: the worker's concurrency). */
  connectionsPerOrigin?: number;
  /** Extra trusted CA certificates (PEM). For tests only: production trusts the system's CAs. */
  ca?: string | undefined;
  /** DNS resolution; tests give a fake one to show that the checked address is the one dialled. */
  resolver?: Resolver;
  /**
   * Also posts plain http to a loopback host (`localhost`, `127.0.0.1`, `[::1]`), as a client's
   * back-channel logout URI may name one; the address policy still decides (loopback is refused
   * unless private addresses are allowed). Webhooks never: https only.
   */
  loopbackHttp?: boolean;
  /** The User-Agent sent (default `Tessera-Webhooks/1`). */
  userAgent?: string;
}

export interface SendResult {
  /** The response status, or null when no response came (refused, DNS, TLS, timeout…). */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, safe to store and show: never a header, body or secret. */
  error: string | null;
  /** A `Retry-After` of the response, in milliseconds from now. */
  retryAfterMs: number | null;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
/** Response bodies are read (to reuse the connection) but never kept; larger ones end the connection. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Destinations kept parsed and checked; past this many the map starts over. */
const MAX_DESTINATIONS = 1_000;

/** Where a URL posts to: what `request` is given for it, or why it is not posted to. */
type Destination = { plain: boolean; options: RequestOptions } | { refused: string };

/**
 * Posts webhook payloads over HTTPS: https only, redirects never followed (a 3xx is a failure),
 * one time limit for the whole attempt, and every connection checked by the address policy at
 * connect time (see checked-lookup.ts). Kept-alive sockets were checked when they connected.
 *
 * One pool per origin (Node's agent keys sockets by host, port and TLS options): up to
 * `connectionsPerOrigin` connections, all kept when idle, so a busy receiver is not handed a new TLS
 * handshake whenever the number in flight dips. The TLS context is built once, not per connection.
 */
export class HttpsSender {
  readonly #options: SenderOptions;
  readonly #agent: Agent;
  readonly #httpAgent: HttpAgent | null;
  readonly #lookup: LookupFunction;
  /**
   * Each URL's destination, by the URL's text: parsing and checking it is a pure function of the text
   * and the options, and was a tenth of a delivery's CPU when done per request (a URL is parsed by
   * native code, then copied into request options). What a host name resolves to is still checked at
   * every connect (checked-lookup.ts).
   */
  readonly #destinations = new Map<string, Destination>();

  constructor(options: SenderOptions) {
    this.#options = options;
    const connections = options.connectionsPerOrigin ?? 32;
    this.#agent = new Agent({
      keepAlive: true,
      maxSockets: connections,
      maxFreeSockets: connections,
      secureContext: createSecureContext(options.ca ? { ca: options.ca } : {}),
    });
    this.#httpAgent = options.loopbackHttp
      ? new HttpAgent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
      : null;
    this.#lookup = checkedLookup(options.resolver ?? systemResolver, options.allowPrivate);
  }

  close(): void {
    this.#agent.destroy();
    this.#httpAgent?.destroy();
  }

  /**
   * Posts `body`. `onSent`, when given, is called once the whole request has been handed to the
   * connection (or the attempt ended without that): a caller can then work while the receiver does,
   * without holding up the request's own bytes.
   */
  post(
    url: string,
    headers: Record<string, string>,
    body: string | Buffer,
    contentType = 'application/json',
    onSent?: () => void,
  ): Promise<SendResult> {
    const started = performance.now();
    const done = (status: number | null, error: string | null, retryAfterMs: number | null = null) => ({
      status,
      durationMs: Math.round(performance.now() - started),
      error,
      retryAfterMs,
    });
    const destination = this.#destination(url);
    if ('refused' in destination) {
      onSent?.();
      return Promise.resolve(done(null, destination.refused));
    }
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let told = onSent === undefined;
    const sent = () => {
      if (told) return;
      told = true;
      onSent?.();
    };
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: SendResult) => {
        if (settled) return;
        settled = true;
        sent();
        clearTimeout(timer);
        resolve(result);
      };
      const { plain, options } = destination;
      const req = (plain ? httpRequest : request)(
        {
          ...options,
          method: 'POST',
          agent: plain ? (this.#httpAgent as HttpAgent) : this.#agent,
          lookup: this.#lookup,
          headers: {
            ...headers,
            'content-type': contentType,
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': this.#options.userAgent ?? 'Tessera-Webhooks/1',
          },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) res.destroy();
          });
          const settle = () => finish(done(status, describeStatus(status), retryAfterMs));
          res.on('end', settle);
          res.on('close', settle);
          res.on('error', settle);
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => finish(done(null, describeError(error))));
      req.on('finish', sent);
      req.end(body);
    });
  }

  #destination(url: string): Destination {
    let destination = this.#destinations.get(url);
    if (destination === undefined) {
      destination = this.#parse(url);
      if (this.#destinations.size >= MAX_DESTINATIONS) this.#destinations.clear();
      this.#destinations.set(url, destination);
    }
    return destination;
  }

  /** https only (plain http to a loopback host where allowed); an IP literal checked by the address policy. */
  #parse(url: string): Destination {
    try {
      const target = new URL(url);
      const loopbackHttp =
        this.#httpAgent !== null && target.protocol === 'http:' && isLoopbackRedirectHost(target.hostname);
      if (target.protocol !== 'https:' && !loopbackHttp) throw new Error('only https URLs are delivered');
      const host = target.hostname.replace(/^\[|\]$/g, '');
      // Literal addresses skip `lookup` in net.connect, so they are checked here.
      if (isIP(host)) checkAddress(host, this.#options.allowPrivate);
      // What `request(url)` makes of a URL (node's urlToHttpOptions), kept.
      const options: RequestOptions = {
        protocol: target.protocol,
        hostname: host,
        path: `${target.pathname}${target.search}`,
        ...(target.port === '' ? {} : { port: Number(target.port) }),
        ...(target.username || target.password
          ? { auth: `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}` }
          : {}),
      };
      return { plain: target.protocol === 'http:', options };
    } catch (error) {
      return { refused: (error as Error).message };
    }
  }
}

function describeStatus(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `redirect (${status}) not followed`;
  return `HTTP ${status}`;
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `DNS: ${error.code}`;
  return error.message || error.code || 'connection failed';
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; null if absent or bad. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
