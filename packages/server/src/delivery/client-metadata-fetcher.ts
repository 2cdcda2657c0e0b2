import { Agent, request } from 'node:https';
import { isIP } from 'node:net';
import { CallsInFlight } from '../domain/calls-in-flight.js';
import {
  type FetchedDocument,
  METADATA_DOCUMENT_MAX_BYTES,
  METADATA_DOCUMENT_MAX_FETCHES,
  METADATA_DOCUMENT_MAX_FETCHES_PER_HOST,
  METADATA_DOCUMENT_TIMEOUT_MS,
  type MetadataDocumentFetcher,
} from '../domain/directory/index.js';
import { checkAddress, checkedLookup, type Resolver, systemResolver } from './checked-lookup.js';

export interface MetadataFetcherOptions {
  /** TESSERA_OUTBOUND_ALLOW_PRIVATE: the one outbound address policy, lifted for development. */
  allowPrivate: boolean;
  /** Whole-fetch limit, DNS and TLS included (default METADATA_DOCUMENT_TIMEOUT_MS, 5 s). */
  timeoutMs?: number;
  /** Extra trusted CA certificates (PEM). Tests only: production trusts the system's CAs. */
  ca?: string | undefined;
  /** DNS resolution; tests only. */
  resolver?: Resolver;
  /** Fetches at once in all (default METADATA_DOCUMENT_MAX_FETCHES, 16); tests set fewer. */
  maxFetches?: number;
  /** Fetches at once to one host name (default METADATA_DOCUMENT_MAX_FETCHES_PER_HOST, 4). */
  maxFetchesPerHost?: number;
}

/**
 * GETs Client ID Metadata Documents (and clients' key sets at a `jwks_uri`) over HTTPS with the webhook sender's rules: https only, every
 * address checked by the address policy when the socket connects (checked-lookup.ts, the address
 * dialled is the address checked), redirects not followed, one time limit for the whole fetch. A
 * body over `maxBytes` (default METADATA_DOCUMENT_MAX_BYTES) ends the connection. Cache-Control is read for the domain's
 * cache (domain/directory/client-metadata-documents.ts); nothing is cached here. At most
 * `maxFetches` run at once, `maxFetchesPerHost` to one host name: one more is refused at once
 * (`busy`), never queued.
 */
export class ClientMetadataFetcher implements MetadataDocumentFetcher {
  readonly #options: MetadataFetcherOptions;
  readonly #agent: Agent;
  readonly #inFlight = new CallsInFlight();

  constructor(options: MetadataFetcherOptions) {
    this.#options = options;
    this.#agent = new Agent({ keepAlive: false, ...(options.ca ? { ca: options.ca } : {}) });
  }

  close(): void {
    this.#agent.destroy();
  }

  async fetch(url: string, maxBytes = METADATA_DOCUMENT_MAX_BYTES): Promise<FetchedDocument> {
    let target: URL;
    try {
      target = new URL(url);
      if (target.protocol !== 'https:') throw new Error('only https URLs are fetched');
      const host = target.hostname.replace(/^\[|\]$/g, '');
      // Literal addresses skip `lookup` in net.connect, so they are checked here.
      if (isIP(host)) checkAddress(host, this.#options.allowPrivate);
    } catch (error) {
      return { ok: false, problem: (error as Error).message };
    }
    const host = target.hostname.toLowerCase();
    const max = this.#options.maxFetches ?? METADATA_DOCUMENT_MAX_FETCHES;
    const maxPerHost = this.#options.maxFetchesPerHost ?? METADATA_DOCUMENT_MAX_FETCHES_PER_HOST;
    return this.#inFlight.run(
      host,
      { max, maxPerKey: maxPerHost },
      () => this.#get(target, maxBytes),
      (over) =>
        busy(
          over === 'total'
            ? `${max} document fetches already running`
            : `${maxPerHost} document fetches to ${host} already running`,
        ),
    );
  }

  #get(target: URL, maxBytes: number): Promise<FetchedDocument> {
    const timeoutMs = this.#options.timeoutMs ?? METADATA_DOCUMENT_TIMEOUT_MS;
    return new Promise<FetchedDocument>((resolve) => {
      let settled = false;
      const finish = (result: FetchedDocument) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const failed = (problem: string) => finish({ ok: false, problem });
      const req = request(
        target,
        {
          method: 'GET',
          agent: this.#agent,
          lookup: checkedLookup(this.#options.resolver ?? systemResolver, this.#options.allowPrivate),
          headers: {
            accept: 'application/json, application/jwk-set+json',
            'user-agent': 'Tessera-Client-Metadata/1',
          },
        },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status !== 200) {
            res.destroy();
            const why =
              status >= 300 && status < 400 ? `redirect (${status}) not followed` : `HTTP ${status}`;
            return failed(why);
          }
          const tooLarge = `larger than ${maxBytes} bytes`;
          if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
            res.destroy();
            return failed(tooLarge);
          }
          const chunks: Buffer[] = [];
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > maxBytes) {
              res.destroy();
              failed(tooLarge);
            } else chunks.push(chunk);
          });
          res.on('end', () =>
            finish({
              ok: true,
              body: Buffer.concat(chunks).toString('utf8'),
              maxAgeSeconds: maxAge(res.headers['cache-control']),
            }),
          );
          res.on('error', (error) => failed(error.message || 'the response broke off'));
          res.on('close', () => failed('the response broke off'));
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => failed(describeError(error)));
      req.end();
    });
  }
}

/**
 * Cache-Control as the domain's cache reads it (RFC 9111 §5.2.2): `no-store` → null (never kept),
 * `no-cache` → 0 (asked again every time), `max-age=N` → N, none of these → undefined.
 */
export function maxAge(header: string | string[] | undefined): number | null | undefined {
  const text = (Array.isArray(header) ? header.join(',') : (header ?? '')).toLowerCase();
  const directives = text.split(',').map((d) => d.trim());
  if (directives.includes('no-store')) return null;
  if (directives.some((d) => d === 'no-cache' || d.startsWith('no-cache='))) return 0;
  for (const d of directives) {
    const match = /^max-age\s*=\s*"?(\d+)"?$/.exec(d);
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

const busy = (problem: string): FetchedDocument => ({ ok: false, busy: true, problem });

function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return `DNS: ${error.code}`;
  return error.message || error.code || 'connection failed';
}
