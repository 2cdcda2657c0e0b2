import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import type { TestTls } from './tls.js';

export interface Received {
  path: string;
  host: string;
  /** The TLS server name the client sent (SNI), or false. */
  servername: string | false;
  headers: Record<string, string>;
  id: string;
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
}

/** How the receiver answers a request (default 204); `n` counts requests to that path from 1. */
export type Responder = (request: Received, n: number) => Reply | Promise<Reply> | 'hang';

/** A real HTTPS webhook receiver on 127.0.0.1 with the test certificate. */
export class Receiver {
  readonly received: Received[] = [];
  respond: Responder = () => ({ status: 204 });
  readonly #server: Server;
  readonly #counts = new Map<string, number>();
  #waiters: (() => void)[] = [];
  #count: { n: number; reached(): void } | null = null;

  private constructor(tls: TestTls) {
    this.#server = createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 30_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        );
        const path = req.url ?? '/';
        const entry: Received = {
          path,
          host: headers.host ?? '',
          servername: (req.socket as TLSSocket).servername ?? false,
          headers,
          id: headers['webhook-id'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.received.push(entry);
        const n = (this.#counts.get(path) ?? 0) + 1;
        this.#counts.set(path, n);
        for (const wake of this.#waiters.splice(0)) wake();
        if (this.#count && this.received.length >= this.#count.n) this.#count.reached();
        const reply = await this.respond(entry, n);
        if (reply === 'hang') return;
        res.writeHead(reply.status, reply.headers ?? {}).end();
      });
    });
  }

  static async start(tls: TestTls): Promise<Receiver> {
    const receiver = new Receiver(tls);
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  url(path: string, host = 'localhost'): string {
    return `https://${host}:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `done()` holds (checked after each request), or fails after `timeoutMs`. */
  async until(done: () => boolean, timeoutMs: number, what = 'the expected deliveries'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what} (${this.received.length} received)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * Resolves once `n` requests are held in `received`, at the cost of one comparison per request
   * (benches: `until` wakes a waiter on every request), or fails after `timeoutMs`.
   */
  count(n: number, timeoutMs: number): Promise<void> {
    if (this.received.length >= n) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#count = null;
        reject(new Error(`timed out waiting for ${n} requests (${this.received.length} received)`));
      }, timeoutMs);
      this.#count = {
        n,
        reached: () => {
          clearTimeout(timer);
          this.#count = null;
          resolve();
        },
      };
    });
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** The payload, verified with the `standardwebhooks` package exactly as a receiver would; throws if not. */
export function verified(
  secret: string,
  r: Received,
): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(r.body, r.headers) as never;
}
