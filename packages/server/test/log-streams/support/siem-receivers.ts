import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { Webhook } from 'standardwebhooks';
import type { TestTls } from '../../webhooks/support/tls.js';

/** One audit entry as a destination got it, with the credential it came under (one per stream). */
export interface Got {
  /** The HEC token, Datadog API key or https path it was sent with: which stream sent it. */
  via: string;
  /** The audit entry id. */
  id: string;
  /** The entry as sent, JSON. */
  entry: string;
  /** The destination's own record around it (Splunk's event, Datadog's log), JSON. */
  record: Record<string, unknown>;
}

/**
 * SIEM intakes on 127.0.0.1 over HTTPS (the test certificate), each answering as its public API
 * documentation says:
 *
 * - Splunk HTTP Event Collector, `POST /services/collector/event`: `Authorization: Splunk <token>`
 *   (none: 401 `{"text":"Token is required","code":2}`; unknown: 403 `{"text":"Invalid token","code":4}`);
 *   the body is JSON event objects one after another (no array); an empty body is 400
 *   `{"text":"No data","code":5}`, one that is not JSON 400 `{"text":"Invalid data format","code":6,
 *   "invalid-event-number":n}`, an event without `event` 400 `{"text":"Event field is required","code":12,
 *   "invalid-event-number":n}`; accepted: 200 `{"text":"Success","code":0}`.
 * - Datadog logs intake, `POST /api/v2/logs`: `DD-API-KEY` (missing or unknown: 403); `Content-Encoding:
 *   gzip` allowed; a JSON array of at most 1000 logs, 5 MB uncompressed (more: 413), else 400; accepted:
 *   202 `{}`.
 * - A generic HTTPS endpoint at `/hook/<name>` verifying Standard Webhooks signatures (204, or 401).
 */
export class SiemReceivers {
  readonly got: Got[] = [];
  /** Splunk HEC tokens and Datadog API keys the intakes accept. */
  readonly splunkTokens = new Set<string>();
  readonly datadogKeys = new Set<string>();
  /** Standard Webhooks secrets by hook name. */
  readonly hookSecrets = new Map<string, string>();
  /** Each answer waits this long (ms), so a kill finds batches on the wire. */
  delayMs = 0;
  /** Requests refused, by why (a request shaped wrongly would land here). */
  readonly refused: string[] = [];
  readonly #server: Server;
  readonly #counts = new Map<string, number>();
  #waiters: (() => void)[] = [];

  private constructor(tls: TestTls) {
    this.#server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const answer = (status: number, body: unknown) => {
          if (status >= 400) this.refused.push(`${req.url} ${status} ${JSON.stringify(body)}`);
          if (status === 204) return void res.writeHead(204).end();
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        };
        if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
        const path = req.url ?? '/';
        if (req.method !== 'POST') return answer(405, { text: 'Method not allowed' });
        if (path === '/services/collector/event') this.#splunk(req.headers, raw, answer);
        else if (path === '/api/v2/logs') this.#datadog(req.headers, raw, answer);
        else if (path.startsWith('/hook/')) this.#hook(path, req.headers, raw, answer);
        else if (path === '/hang')
          return; // never answers
        else if (path === '/huge') res.writeHead(200).end(Buffer.alloc(8 * 1024 * 1024, 120));
        else answer(404, { text: 'The requested URL was not found on this server.', code: 404 });
        for (const wake of this.#waiters.splice(0)) wake();
      });
    });
  }

  #splunk(headers: NodeJS.Dict<string | string[]>, raw: Buffer, answer: Answer) {
    const auth = String(headers.authorization ?? '');
    if (!auth) return answer(401, { text: 'Token is required', code: 2 });
    const token = /^Splunk (.+)$/.exec(auth)?.[1];
    if (!token || !this.splunkTokens.has(token)) return answer(403, { text: 'Invalid token', code: 4 });
    const text = raw.toString('utf8');
    if (text.trim() === '') return answer(400, { text: 'No data', code: 5 });
    let events: unknown[];
    try {
      events = concatenatedJson(text);
    } catch (error) {
      return answer(400, {
        text: 'Invalid data format',
        code: 6,
        'invalid-event-number': (error as BadEvent).n,
      });
    }
    for (const [n, e] of events.entries()) {
      const event = e as Record<string, unknown>;
      if (typeof event !== 'object' || event === null || !('event' in event) || event.event === '') {
        return answer(400, { text: 'Event field is required', code: 12, 'invalid-event-number': n });
      }
      if ('time' in event && typeof event.time !== 'number') {
        return answer(400, { text: 'Invalid data format', code: 6, 'invalid-event-number': n });
      }
    }
    for (const e of events as Record<string, unknown>[]) this.#keep(token, e.event, e);
    answer(200, { text: 'Success', code: 0 });
  }

  #datadog(headers: NodeJS.Dict<string | string[]>, raw: Buffer, answer: Answer) {
    const key = String(headers['dd-api-key'] ?? '');
    if (!this.datadogKeys.has(key)) return answer(403, { errors: ['Forbidden'] });
    let body = raw;
    if (headers['content-encoding'] === 'gzip') {
      try {
        body = gunzipSync(raw);
      } catch {
        return answer(400, { errors: ['Bad Request'] });
      }
    }
    if (body.length > 5 * 1024 * 1024) return answer(413, { errors: ['Payload too large'] });
    let logs: unknown;
    try {
      logs = JSON.parse(body.toString('utf8'));
    } catch {
      return answer(400, { errors: ['Bad Request'] });
    }
    if (!Array.isArray(logs) || logs.length > 1000) return answer(400, { errors: ['Bad Request'] });
    for (const log of logs as Record<string, unknown>[]) {
      if (typeof log !== 'object' || log === null || typeof log.message !== 'string') {
        return answer(400, { errors: ['Bad Request'] });
      }
    }
    for (const log of logs as Record<string, unknown>[]) this.#keep(key, log.audit, log);
    answer(202, {});
  }

  #hook(path: string, headers: NodeJS.Dict<string | string[]>, raw: Buffer, answer: Answer) {
    const secret = this.hookSecrets.get(path.slice('/hook/'.length));
    const body = raw.toString('utf8');
    let payload: { type: string; data: unknown[] };
    try {
      payload = new Webhook(secret ?? 'whsec_AAAA').verify(body, headers as Record<string, string>) as never;
    } catch {
      return answer(401, { error: 'bad signature' });
    }
    for (const entry of payload.data) this.#keep(path, entry, { type: payload.type });
    answer(204, null);
  }

  #keep(via: string, entry: unknown, record: Record<string, unknown>) {
    const e = entry as { id?: unknown };
    this.got.push({ via, id: String(e?.id), entry: JSON.stringify(entry), record });
    this.#counts.set(via, (this.#counts.get(via) ?? 0) + 1);
  }

  /** How many entries `via` got so far, repeats included (idsVia's length, without walking them all). */
  countVia(via: string): number {
    return this.#counts.get(via) ?? 0;
  }

  static async start(tls: TestTls): Promise<SiemReceivers> {
    const r = new SiemReceivers(tls);
    await new Promise<void>((resolve) => r.#server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  /** `https://localhost:<port><path>` (the certificate names localhost). */
  url(path = ''): string {
    return `https://localhost:${this.port}${path}`;
  }

  /** The entry ids `via` got, in arrival order, repeats included. */
  idsVia(via: string): string[] {
    return this.got.filter((g) => g.via === via).map((g) => g.id);
  }

  /** Resolves once `done()` holds (checked after each request), or fails after `timeoutMs`. */
  async until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what} (${this.got.length} received)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 100));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

type Answer = (status: number, body: unknown) => void;

class BadEvent extends Error {
  constructor(readonly n: number) {
    super(`event ${n} is not JSON`);
  }
}

/** HEC's batch: JSON objects one after another, whitespace between allowed, no commas, no array. */
function concatenatedJson(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          throw new BadEvent(out.length);
        }
      }
    } else if (depth === 0 && !/\s/.test(c as string)) throw new BadEvent(out.length);
  }
  if (depth !== 0 || inString) throw new BadEvent(out.length);
  return out;
}
