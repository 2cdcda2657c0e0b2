import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake API received it. */
export interface Recorded {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body read as a form (empty when it is not one). */
  form: URLSearchParams;
}

/** What the fake answers: a status, a body (objects are sent as JSON) and headers. */
export interface Reply {
  status: number;
  body?: string | object;
  headers?: Record<string, string>;
}

export type Handler = (request: Recorded) => Reply;

/**
 * A real HTTP server on 127.0.0.1 standing in for Tessera: it records every request and answers with
 * whatever the test's handler says, so tests see exactly what the SDK put on the wire.
 */
export interface FakeApi {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly requests: Recorded[];
  handler: Handler;
  /** The last request received. */
  last(): Recorded;
  close(): Promise<void>;
}

export const json = (status: number, body: object, headers: Record<string, string> = {}): Reply => ({
  status,
  body,
  headers,
});

export async function startFakeApi(handler: Handler = () => ({ status: 204 })): Promise<FakeApi> {
  const requests: Recorded[] = [];
  const api: FakeApi = {
    base: '',
    requests,
    handler,
    last() {
      const request = requests.at(-1);
      if (!request) throw new Error('the fake API received no request');
      return request;
    },
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        form: new URLSearchParams(isForm ? body : ''),
      };
      requests.push(recorded);
      answer(res, api.handler(recorded));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(api, { base: `http://127.0.0.1:${port}`, close: () => close(server) });
}

function answer(res: ServerResponse, reply: Reply) {
  const isText = typeof reply.body === 'string';
  const body = reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body);
  const type =
    reply.body === undefined || isText ? {} : { 'content-type': 'application/json; charset=utf-8' };
  res.writeHead(reply.status, { ...type, ...reply.headers });
  res.end(body);
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on: bound, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await close(server);
  return port;
}
