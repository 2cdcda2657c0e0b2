import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { testTls } from '../../webhooks/support/tls.js';

export interface Route {
  /** A JSON body (serialised here) or the raw text. */
  body?: unknown;
  status?: number;
  headers?: Record<string, string>;
  /** Never answer: the request hangs until the client gives up. */
  hang?: boolean;
}

/**
 * An HTTPS host on 127.0.0.1 with the test certificate (test/webhooks/support/tls.ts), publishing
 * Client ID Metadata Documents at paths a test sets, counting the requests each path gets.
 */
export class DocumentHost {
  readonly #routes = new Map<string, Route>();
  readonly hits = new Map<string, number>();
  readonly #server: Server;
  readonly #hanging = new Set<import('node:http').ServerResponse>();

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<DocumentHost> {
    const tls = testTls();
    const server = createServer({ key: tls.key, cert: tls.cert });
    const host = new DocumentHost(server);
    server.on('request', (req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      host.hits.set(path, (host.hits.get(path) ?? 0) + 1);
      const route = host.#routes.get(path);
      if (!route) {
        res.statusCode = 404;
        res.end();
        return;
      }
      if (route.hang) {
        host.#hanging.add(res);
        return;
      }
      res.statusCode = route.status ?? 200;
      res.setHeader('content-type', 'application/json');
      for (const [k, v] of Object.entries(route.headers ?? {})) res.setHeader(k, v);
      res.end(typeof route.body === 'string' ? route.body : JSON.stringify(route.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return host;
  }

  /** The CA the server under test must trust for this host (its own self-signed certificate). */
  get ca(): string {
    return testTls().cert;
  }

  url(path: string): string {
    return `https://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  serve(path: string, route: Route): string {
    this.#routes.set(path, route);
    return this.url(path);
  }

  /** A document naming its own URL, for `redirectUris`, with `extra` fields (undefined removes one). */
  document(path: string, redirectUris: string[], extra: Record<string, unknown> = {}, headers = {}): string {
    const url = this.url(path);
    const body = {
      client_id: url,
      client_name: 'Acme MCP desktop',
      redirect_uris: redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extra,
    };
    return this.serve(path, { body, headers });
  }

  async close(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
