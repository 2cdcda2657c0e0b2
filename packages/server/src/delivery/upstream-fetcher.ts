import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { CallsInFlight } from '../domain/calls-in-flight.js';
import {
  UPSTREAM_MAX_BYTES,
  UPSTREAM_MAX_FETCHES,
  UPSTREAM_MAX_FETCHES_PER_HOST,
  UPSTREAM_TIMEOUT_MS,
  UpstreamBusy,
  type UpstreamRequest,
} from '../domain/federation/index.js';
import { isLoopbackHost } from '../domain/loopback.js';
import { checkAddress, checkedLookup, type Resolver, systemResolver } from './checked-lookup.js';

export interface UpstreamFetcherOptions {
  /** TESSERA_OUTBOUND_ALLOW_PRIVATE: the one outbound address policy, lifted for development. */
  allowPrivate: boolean;
  /** One call's limit, DNS and TLS included (default UPSTREAM_TIMEOUT_MS, 10 s). */
  timeoutMs?: number;
  /** Calls at once in all (default UPSTREAM_MAX_FETCHES, 32); tests and benches set fewer. */
  maxFetches?: number;
  /** Calls at once to one origin (default UPSTREAM_MAX_FETCHES_PER_HOST, 8). */
  maxFetchesPerHost?: number;
  /** Extra trusted CA certificates (PEM). Tests only: production trusts the system's CAs. */
  ca?: string | undefined;
  /** DNS resolution; tests only. */
  resolver?: Resolver;
}

/**
 * The upstream port of connections (domain/federation/upstream-fetch.ts) over node's HTTP client,
 * with the rules of every outbound fetch of this service: https (http only to a loopback host, which
 * the policy lets through only with TESSERA_OUTBOUND_ALLOW_PRIVATE=1), every address checked when the
 * socket connects (checked-lookup.ts: the address dialled is the address checked; a literal address
 * is checked here), redirects answered as they are (never followed), one time limit for the whole
 * call, an answer over UPSTREAM_MAX_BYTES ends it. At most `maxFetches` calls run at once,
 * `maxFetchesPerHost` to one origin (scheme, host and port: a port of a real provider's host that
 * never answers must not take the slots of the provider itself): one more is refused at once
 * (UpstreamBusy), never queued.
 * No connection is kept alive, so calls running are sockets open, and the caps bound both.
 */
export class UpstreamFetcher {
  readonly #options: UpstreamFetcherOptions;
  readonly #https: HttpsAgent;
  readonly #http = new HttpAgent({ keepAlive: false });
  readonly #lookup: ReturnType<typeof checkedLookup>;
  readonly #inFlight = new CallsInFlight();

  constructor(options: UpstreamFetcherOptions) {
    this.#options = options;
    this.#https = new HttpsAgent({ keepAlive: false, ...(options.ca ? { ca: options.ca } : {}) });
    this.#lookup = checkedLookup(options.resolver ?? systemResolver, options.allowPrivate);
  }

  /** The port: bound, to be handed to the domain as a function. */
  readonly fetch = (url: string, request: UpstreamRequest): Promise<Response> => this.#fetch(url, request);

  close(): void {
    this.#https.destroy();
    this.#http.destroy();
  }

  async #fetch(url: string, request: UpstreamRequest): Promise<Response> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const plain = target.protocol === 'http:' && isLoopbackHost(host);
    if (target.protocol !== 'https:' && !plain) throw new Error('only https URLs are fetched');
    // Literal addresses skip `lookup` in net.connect, so they are checked here.
    if (isIP(host)) checkAddress(host, this.#options.allowPrivate);
    const max = this.#options.maxFetches ?? UPSTREAM_MAX_FETCHES;
    const maxPerHost = this.#options.maxFetchesPerHost ?? UPSTREAM_MAX_FETCHES_PER_HOST;
    const origin = target.origin;
    return this.#inFlight.run(
      origin,
      { max, maxPerKey: maxPerHost },
      () => this.#send(target, request, bodyOf(request.body)),
      (over) => {
        throw new UpstreamBusy(
          over === 'total'
            ? `${max} upstream calls already running`
            : `${maxPerHost} upstream calls to ${origin} already running`,
        );
      },
    );
  }

  #send(target: URL, request: UpstreamRequest, body: Buffer | null): Promise<Response> {
    const timeoutMs = this.#options.timeoutMs ?? UPSTREAM_TIMEOUT_MS;
    const https = target.protocol === 'https:';
    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      let req: ClientRequest | null = null;
      const finish = (error: Error | null, response?: Response) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', aborted);
        if (error) {
          req?.destroy();
          reject(error);
        } else resolve(response as Response);
      };
      const aborted = () => finish(new Error('the call was abandoned'));
      const timer = setTimeout(
        () => finish(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`)),
        timeoutMs,
      );
      if (request.signal?.aborted) return aborted();
      request.signal?.addEventListener('abort', aborted);
      const headers: Record<string, string> = {
        'user-agent': 'Tessera-Upstream/1',
        ...request.headers,
        ...(body === null ? {} : { 'content-length': String(body.length) }),
      };
      const options = {
        method: request.method,
        headers,
        lookup: this.#lookup,
      };
      const answered = (res: IncomingMessage) => {
        const tooLarge = new Error(`the answer is larger than ${UPSTREAM_MAX_BYTES} bytes`);
        if (Number(res.headers['content-length'] ?? 0) > UPSTREAM_MAX_BYTES) return finish(tooLarge);
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > UPSTREAM_MAX_BYTES) finish(tooLarge);
          else chunks.push(chunk);
        });
        res.on('end', () => {
          try {
            finish(null, toResponse(res, Buffer.concat(chunks)));
          } catch (error) {
            finish(error as Error);
          }
        });
        res.on('error', (error) => finish(error));
        res.on('close', () => finish(new Error('the answer broke off')));
      };
      req = https
        ? httpsRequest(target, { ...options, agent: this.#https }, answered)
        : httpRequest(target, { ...options, agent: this.#http }, answered);
      req.on('error', (error: NodeJS.ErrnoException) => finish(describeError(error)));
      req.end(body ?? undefined);
    });
  }
}

/** The body openid-client sends (a form, or nothing); a stream is never sent upstream. */
function bodyOf(body: UpstreamRequest['body']): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new Error('a streamed body is not sent upstream');
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function toResponse(res: IncomingMessage, body: Buffer): Response {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`unexpected HTTP status ${status}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
    headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
  return new Response(NULL_BODY.has(status) ? null : new Uint8Array(body), { status, headers });
}

function describeError(error: NodeJS.ErrnoException): Error {
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return new Error(`DNS: ${error.code}`);
  return error.message ? error : new Error(error.code ?? 'connection failed');
}
