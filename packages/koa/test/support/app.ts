import { createServer, type Server } from 'node:http';
import type Koa from 'koa';
import { close, listen } from './issuer.js';

/** A Koa app listening on 127.0.0.1, reached with real HTTP requests. */
export interface RunningApp {
  readonly url: string;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export async function serve(app: Koa): Promise<RunningApp> {
  const server: Server = createServer(app.callback());
  const port = await listen(server);
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    request: (path, init) => fetch(`${url}${path}`, init),
    close: () => close(server),
  };
}

export const bearer = (token: string, scheme = 'Bearer'): RequestInit => ({
  headers: { authorization: `${scheme} ${token}` },
});
